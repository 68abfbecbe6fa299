#ifndef HOOKCHECK_H
#define HOOKCHECK_H

#include "git/snapshot.h"
#include "strbuf.h"

/*
 * The rule the pre-commit and pre-push hooks enforce (SPEC section 6):
 * going from a base state of the repository (HEAD, or what the remote
 * already has) to a new state (the index being committed, or the tip
 * being pushed) must not make a published report drift.
 *
 * For every sidecar in the new state: if the sidecar itself is added or
 * changed, its inputs must verify in the new state, unless the base's
 * version of that sidecar did not verify for that input either (an old
 * report edited: old drift); otherwise each of its inputs that changed
 * must still hash as recorded, unless it already did not in the base
 * state (old drift).  Old drift is a warning, or a refusal when strict.
 * Deleting a referenced input is refused, and so is lost coverage
 * (hooklost.h).  Only what changed is looked at closely; every sidecar
 * of the new state is read to map inputs to the reports that pin them.
 */

struct hook_state {
	const struct snapshot *snap;	/* a tree, the index, or no files */
	const char *name;	/* "HEAD", "staged", "origin/main", ... */
	/*
	 * The work tree holds this state (pre-commit's HEAD and index):
	 * a file git counts unmodified there is hashed as it is there,
	 * as verify will hash it.
	 */
	int in_worktree;
};

struct hook_check_result {
	int problems;		/* reasons to refuse */
	int warnings;
	int stale;		/* findings (either kind) about old drift */
	struct strbuf text;	/* what to print, one finding a paragraph */
};
#define HOOK_CHECK_RESULT_INIT { 0, 0, 0, STRBUF_INIT }

/*
 * Compare base (a tree, or no files) and next (a tree or the index) of
 * the repository whose work tree is workdir (absolute, symlink-free).
 * strict turns old drift into problems; -1 (git config does not say)
 * leaves it to the policy of next's .ahd-replay.yml, or of base's when
 * the change edits the file (either one's strict: true is enough, so
 * that the commit dropping it is judged strictly).  The layouts too are
 * those of next's file, and of base's when it differs: never the work
 * tree's.  Appends findings to res.
 * Returns 0, or -1 with a reason in err (an object that cannot be read,
 * say).
 */
int hook_check_run(const char *workdir, const struct hook_state *base,
		  const struct hook_state *next, int strict,
		  struct hook_check_result *res, struct strbuf *err);
void hook_check_result_release(struct hook_check_result *res);

#endif
