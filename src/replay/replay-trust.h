#ifndef REPLAY_TRUST_H
#define REPLAY_TRUST_H

#include "replay.h"
#include "sign/sigtrust.h"
#include "strbuf.h"

/*
 * What `replay --run` may execute (ahd-replay-replay(1), TRUST).  A
 * sidecar comes from whoever wrote the pull request: its argv is not
 * pinned by any hash, and its ahd_commit can name any commit pushed to
 * the repository.  So a command runs only when
 *
 *  - the code is trusted: ahd_commit is reachable from the trusted ref
 *    (--trusted-ref, else ahd-replay.trustedRef, else the default
 *    branch: origin's HEAD, else the local init.defaultBranch,
 *    main or master), or the sidecar carries a signature that verifies
 *    with the user's trusted keys (which covers argv and ahd_commit;
 *    read as a trusted commit has them with --trusted-keys-at; for a
 *    layout's record the signature stands for the commit only: the
 *    program must be allowed as below);
 *  - and the program is one the user allows: one given after --, one
 *    named by ahd-replay.runAllow, the recorded interpreter (node)
 *    running a script that is a file of the worktree, or a program
 *    that is itself a file of the worktree -- in both cases byte for
 *    byte what ahd_commit stores there (replay itself writes inputs,
 *    the report and the sidecar into the worktree, and a pull request
 *    chooses those).
 *
 * Otherwise it is refused, unless --allow-untrusted-run.
 */
struct replay_trust_options {
	const char *trusted_ref;
	const char *trusted_keys;
	struct sig_trust_opts sig;
	int allow_untrusted;
};

/* A command about to run: what is executed, and the arguments it gets. */
struct replay_command {
	char **argv;		/* NULL-terminated, owned; argv[0] as given */
	size_t argc;
	struct strbuf program;	/* the file executed: absolute */
	int user_given;		/* given after --, not recorded */
};
#define REPLAY_COMMAND_INIT { NULL, 0, STRBUF_INIT, 0 }

/*
 * The command: given (after --), else the re-rooted recorded argv.  A
 * program with a slash is taken relative to the invoking directory when
 * given, to the root in the worktree when recorded (and must stay in
 * the worktree); a bare name is looked up on PATH here, relative PATH
 * entries against the invoking directory, so nothing of the worktree
 * is found by accident.  Returns 0, or -1 with a reason in err.
 */
int replay_command_prepare(struct replay_command *cmd, const struct replay *rp,
			   char *const *given, struct strbuf *err);

/*
 * The command as it runs: the program file, then argv[1..], each
 * shell-quoted and made printable (it goes to a terminal).
 */
void replay_command_quote(struct strbuf *out,
			  const struct replay_command *cmd);

void replay_command_release(struct replay_command *cmd);

/*
 * Is cmd trusted to run (rules above)?  Returns 1 with why it is in
 * basis, 0 with why not in why (naming the option that overrides).
 */
int replay_trust_check(struct replay *rp, const struct replay_command *cmd,
		       const struct replay_trust_options *o,
		       struct strbuf *basis, struct strbuf *why);

#endif
