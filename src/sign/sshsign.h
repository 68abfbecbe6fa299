#ifndef SSHSIGN_H
#define SSHSIGN_H

#include "statement.h"
#include "strbuf.h"

/*
 * Signing a statement with an SSH key through ssh-keygen, as git runs
 * gpg.ssh.program: `<program> -Y sign -n ahd-replay -f <key>`, without a
 * shell, the statement on its standard input and the armoured signature
 * on its standard output.  A public key file (or git's "key::<key>"
 * literal) makes ssh-keygen use the agent's private key, so agent-held,
 * FIDO and passphrase-protected keys all work; prompts reach the
 * terminal through the inherited standard error.
 */

/*
 * The key and program to use: key when not NULL, else user.signingKey
 * when gpg.format is ssh; gpg.ssh.program, else "ssh-keygen".  Returns
 * 0, or -1 with a reason in err (no key configured, say).
 */
int sshsign_setup(struct strbuf *key_out, struct strbuf *program,
		  const char *key, struct strbuf *err);

/*
 * Sign st and write <sidecar>.sig: the armour, then the statement's
 * text on a line of its own (ssh-keygen ignores what follows the
 * armour; verify reads it to say what changed).  The signature is
 * checked over the statement before the file is replaced, beneath root
 * (fs/write.h).  Returns 0, or -1 with a reason in err.
 */
int sshsign_sidecar(const char *program, const char *key,
		    const struct statement *st, const char *root,
		    const char *sidecar, struct strbuf *err);

#endif
