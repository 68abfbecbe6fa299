#ifndef HOOKPLAN_H
#define HOOKPLAN_H

#include "hooks.h"
#include "strbuf.h"

/*
 * What install-hooks does to each hook, decided before anything is
 * written so that a refusal leaves the hooks directory as it was, and
 * what uninstall-hooks undoes.  A hook that is not ours is never
 * overwritten: it moves aside to <hook>.ahd-replay-prev, which the shim
 * runs first under its own name (hooks.h says how), and uninstall
 * renames it back, so it returns byte for byte with its mode.  A file is
 * ours only when it is exactly one of our templates.
 */

/* The files of one hook type in a hooks directory. */
struct hook_slots {
	struct strbuf hook;	/* <dir>/<type> */
	struct strbuf prev;	/* <dir>/<type>.ahd-replay-prev */
	struct strbuf legacy;	/* <dir>/<type>.legacy (pre-commit framework) */
	struct strbuf old;	/* <dir>/<type>.old (lefthook) */
	struct hook_file h, p, l, o;
};

void hook_slots_init(struct hook_slots *s);
void hook_slots_release(struct hook_slots *s);
/* Read the four files of hook `type` in dir; -1 with a reason in err. */
int hook_slots_read(struct hook_slots *s, const char *dir, const char *type,
		    struct strbuf *err);

/* The last component of path. */
const char *hook_base_name(const char *path);

struct hook_plan {
	const char *type;
	struct hook_slots s;
	struct strbuf want;	/* the hook to write */
	const char *target;	/* the file to write, or NULL */
	int discard_prev;	/* unlink <type>.ahd-replay-prev first */
	int move_aside;		/* rename <type> to <type>.ahd-replay-prev */
	int remove_old;		/* a copy of ours lefthook put aside */
	struct strbuf lfs;	/* git-lfs's pre-push, to write as
				   <type>.ahd-replay-prev; empty: none */
	struct strbuf msg;	/* what was (to be) done */
	struct strbuf refuse;	/* why not; empty when fine */
};

/* A plan for hook `type`; the caller reads p->s and renders p->want. */
void hook_plan_init(struct hook_plan *p, const char *type);
void hook_plan_release(struct hook_plan *p);

/*
 * Decide what to do so that the hook becomes p->want (which runs bin),
 * with force replacing what would otherwise be refused.  Fills in target
 * and the moves, and msg, or refuse with the reason.
 */
void hook_plan_decide(struct hook_plan *p, const char *bin, int force);

/* Carry out a plan.  Returns 0, or -1 after saying what went wrong. */
int hook_plan_apply(struct hook_plan *p);

/*
 * Plan each hook type of hook_types[] for dir, to run bin:
 * pre-merge-commit only when asked (pre_merge_commit) or when a copy of
 * ours is there to upgrade.  With lfs (git-lfs in use, hooklfs.h), a
 * pre-push with nothing to chain also gets git-lfs's pre-push as its
 * previous hook.  plans has HOOK_TYPES_NR plans initialised with
 * hook_plan_init(); the first *nr are used.  Returns 0 when every plan
 * can be carried out, 1 when one is refused, -1 when a hook cannot be
 * read; the reasons are printed.
 */
int hook_plans_decide(struct hook_plan *plans, size_t *nr, const char *dir,
		      const char *bin, int pre_merge_commit, int force,
		      int lfs);

/*
 * Carry out the first nr plans in dir (made when a hook is written
 * there), saying on stdout what was done to each unless quiet.  Returns
 * 0, or -1 when something could not be done (the reasons are printed).
 */
int hook_plans_apply(struct hook_plan *plans, size_t nr, const char *dir,
		     int quiet);

/*
 * uninstall-hooks in one directory: remove the hooks install-hooks wrote
 * there (exact copies of ours only) and rename the ones they moved aside
 * back, saying on stdout what was done unless quiet.  Sets *found when
 * dir held any of that.  Returns 0, or -1 when something was left in
 * place (the reasons are printed).
 */
int hook_uninstall_dir(const char *dir, int *found, int quiet);

#endif
