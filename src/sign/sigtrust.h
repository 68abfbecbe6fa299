#ifndef SIGTRUST_H
#define SIGTRUST_H

#include "signature.h"

/*
 * Where the trust for SSH signatures comes from: the allowed-signers
 * file, first of --allowed-signers, git config
 * ahd-replay.allowedSignersFile, gpg.ssh.allowedSignersFile; the
 * revoked keys, first of --revoked-keys, ahd-replay.revokedKeysFile,
 * gpg.ssh.revocationFile.  (Relative paths from the configuration are
 * taken from the work tree's top, as git does.)
 *
 * With at (--trusted-keys-at=<rev>), both files are read as they are in
 * that commit, not from the work tree: a pull request that adds its own
 * key to a tracked allowed-signers file then gains nothing.  Symbolic
 * links there are refused, not followed.
 */
struct sig_trust_opts {
	const char *allowed_signers;
	const char *revoked_keys;
	const char *at;
};

/*
 * Fill kr->ssh (and set kr->have_ssh) from the sources above; none is
 * no SSH trust.  Returns 0, or -1 after printing an error.
 */
int sig_trust_load_ssh(struct sig_keyring *kr,
		       const struct sig_trust_opts *opts);

/*
 * --trusted-keys-at for our Ed25519 keys: the *.pub files of dir (else
 * ahd-replay.trustedKeys) as they are in the commit at rev.  Returns 0,
 * or -1 after printing an error.
 */
int sig_trust_load_keys_at(struct sig_keyring *kr, const char *dir,
			   const char *rev);

/*
 * Trust files that a pull request can change: warn (on stderr) for each
 * of the trust sources in use -- the allowed-signers file, the
 * revoked-keys file, the *.pub files of the trusted keys directory
 * (trusted_keys, else ahd-replay.trustedKeys) -- that is tracked in its
 * repository and differs from the base: since, when given (verify
 * --changed-since, its merge base with HEAD), else the merge base with
 * HEAD's upstream branch; with neither, nothing is compared.  Nothing
 * is compared either when opts->at reads the files from a commit.
 */
void sig_trust_warn_changed(const struct sig_trust_opts *opts,
			    const char *trusted_keys, const char *since);

#endif
