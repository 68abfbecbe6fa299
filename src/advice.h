#ifndef ADVICE_H
#define ADVICE_H

/*
 * Hints: the next step, said once, where a command knows it (git's
 * advice.c in behaviour; the code is ours).  A hint goes to stderr as
 * lines starting "hint: ", never to stdout, so machine formats on stdout
 * stay clean.
 *
 * Each hint that is not a direct answer to a mistake (a "did you mean")
 * has a type, and each type a git configuration key that silences it:
 *
 *	git config ahd-replay.advice.<key> false
 *
 * AHD_REPLAY_ADVICE=0 (or false, no, off) in the environment silences
 * every typed hint at once, for scripts, as GIT_ADVICE=0 does for git.
 */

enum advice_type {
	/* a report without a sidecar: "ahd-replay backfill" writes one */
	ADVICE_BACKFILL,
	/* drift refused by a hook: "ahd-replay verify --explain" shows it */
	ADVICE_EXPLAIN_DRIFT,
	ADVICE_NR		/* not a type: the number of types */
};

struct strbuf;

/*
 * How a setting is read: 1 with the value appended to out, 0 when unset,
 * -1 with the reason in err.  main() hands over the git configuration
 * reader (repo_config_here()) for the commands that start libgit2, so
 * that this base module needs no library of its own.
 */
typedef int advice_config_fn(struct strbuf *out, const char *key,
			     struct strbuf *err);

/*
 * Set once, before any hint.  With read NULL, no configuration is read:
 * every type is enabled unless the environment says otherwise.
 */
void advice_init(advice_config_fn *read);

/* The configuration key of a type, "ahd-replay.advice.backfill". */
const char *advice_config_key(enum advice_type type);

/*
 * Whether hints of this type are shown: the environment, then the key
 * (read once per process; an invalid value is warned about and leaves the
 * hint on), then on.
 */
int advice_enabled(enum advice_type type);

/*
 * Print the formatted text as hint lines (each line of it prefixed
 * "hint: "), unconditionally: for a "did you mean" that answers the
 * mistake just reported.
 */
void advise(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * When the type is enabled and has not been shown yet in this process:
 * print the hint, then how to silence it.  A command that finds the same
 * situation in many reports calls this for each and says it once.
 */
void advise_once(enum advice_type type, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
