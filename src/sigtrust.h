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
 * key to a tracked allowed-signers file then gains nothing.
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

#endif
