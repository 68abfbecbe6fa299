/*
 * Deciding and carrying out the installation of the hooks, and their
 * removal (see hookplan.h).
 */
#include "config.h"
#include "hookplan.h"
#include "hooklfs.h"
#include "fs/atomicfile.h"
#include "usage.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void hook_slots_init(struct hook_slots *s)
{
	struct hook_file init = HOOK_FILE_INIT;

	strbuf_init(&s->hook, 0);
	strbuf_init(&s->prev, 0);
	strbuf_init(&s->legacy, 0);
	strbuf_init(&s->old, 0);
	s->h = s->p = s->l = s->o = init;
}

void hook_slots_release(struct hook_slots *s)
{
	strbuf_release(&s->hook);
	strbuf_release(&s->prev);
	strbuf_release(&s->legacy);
	strbuf_release(&s->old);
	hook_file_release(&s->h);
	hook_file_release(&s->p);
	hook_file_release(&s->l);
	hook_file_release(&s->o);
}

int hook_slots_read(struct hook_slots *s, const char *dir, const char *type,
		      struct strbuf *err)
{
	strbuf_reset(&s->hook);
	strbuf_reset(&s->prev);
	strbuf_reset(&s->legacy);
	strbuf_reset(&s->old);
	strbuf_addf(&s->hook, "%s/%s", dir, type);
	strbuf_addf(&s->prev, "%s/%s%s", dir, type, HOOK_PREV_SUFFIX);
	strbuf_addf(&s->legacy, "%s/%s.legacy", dir, type);
	strbuf_addf(&s->old, "%s/%s.old", dir, type);
	if (hook_file_read(&s->h, s->hook.buf, type, err) ||
	    hook_file_read(&s->p, s->prev.buf, type, err) ||
	    hook_file_read(&s->l, s->legacy.buf, type, err) ||
	    hook_file_read(&s->o, s->old.buf, type, err))
		return -1;
	return 0;
}

const char *hook_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}


/* Is the file exactly `want`, and executable? */
static int up_to_date(const struct hook_file *hf, const struct strbuf *want)
{
	return hf->kind == HOOK_OURS && hf->executable &&
	       hf->content.len == want->len &&
	       !memcmp(hf->content.buf, want->buf, want->len);
}

static void describe_update(struct strbuf *msg, const struct hook_file *hf,
			    const char *bin)
{
	if (hf->version < HOOK_TEMPLATE_VERSION)
		strbuf_addf(msg, "upgraded from template %d to %d",
			    hf->version, HOOK_TEMPLATE_VERSION);
	else if (strcmp(hf->bin.buf, bin))
		strbuf_addf(msg, "updated to run %s", bin);
	else
		strbuf_addstr(msg, "made executable again");
}

/*
 * The hook is the pre-commit framework's and <type>.legacy, which it
 * runs first, is ours: keep that layout and bring the copy up to date.
 * Returns 1 when it decided, 0 to go on as for any other hook.
 */
static int plan_legacy(struct hook_plan *p, const struct strbuf *want,
		       const char *bin, int force)
{
	struct hook_file *l = &p->s.l;
	const char *name = hook_base_name(p->s.legacy.buf);

	switch (l->kind) {
	case HOOK_OURS:
		if (up_to_date(l, want)) {
			strbuf_addf(&p->msg, "up to date (the pre-commit "
				    "framework runs it as %s)", name);
			return 1;
		}
		p->target = p->s.legacy.buf;
		describe_update(&p->msg, l, bin);
		strbuf_addf(&p->msg, " (the pre-commit framework runs it as "
			    "%s)", name);
		return 1;
	case HOOK_OURS_NEWER:
		strbuf_addf(&p->msg, "left as it is: %s was written by a newer "
			    "ahd-replay (template %d)", name, l->version);
		return 1;
	case HOOK_OURS_EDITED:
		if (!force) {
			strbuf_addf(&p->refuse, "'%s' carries the ahd-replay "
				    "marker but is not one of its hooks (edited "
				    "by hand?); --force replaces it",
				    p->s.legacy.buf);
			return 1;
		}
		p->target = p->s.legacy.buf;
		strbuf_addf(&p->msg, "replaced the edited %s (the pre-commit "
			    "framework runs it)", name);
		return 1;
	default:
		return 0;
	}
}

void hook_plan_decide(struct hook_plan *p, const char *bin, int force)
{
	const struct strbuf *want = &p->want;
	struct hook_file *h = &p->s.h;
	const char *prev_name = hook_base_name(p->s.prev.buf);
	const char *mgr;

	switch (h->kind) {
	case HOOK_MISSING:
		p->target = p->s.hook.buf;
		strbuf_addstr(&p->msg, "installed");
		if (p->s.p.kind != HOOK_MISSING)
			strbuf_addf(&p->msg, "; %s, left by an earlier install, "
				    "runs first", prev_name);
		return;
	case HOOK_OURS:
		if (up_to_date(h, want)) {
			strbuf_addstr(&p->msg, "up to date");
			return;
		}
		p->target = p->s.hook.buf;
		describe_update(&p->msg, h, bin);
		return;
	case HOOK_OURS_NEWER:
		strbuf_addf(&p->msg, "left as it is: written by a newer "
			    "ahd-replay (template %d)", h->version);
		return;
	case HOOK_OURS_EDITED:
		if (!force) {
			strbuf_addf(&p->refuse, "'%s' carries the ahd-replay "
				    "marker but is not one of its hooks (edited "
				    "by hand?); --force replaces it",
				    p->s.hook.buf);
			return;
		}
		p->target = p->s.hook.buf;
		strbuf_addstr(&p->msg, "replaced the edited copy");
		return;
	case HOOK_NOT_FILE:
		strbuf_addf(&p->refuse, "'%s' is not a file", p->s.hook.buf);
		return;
	case HOOK_FOREIGN:
		break;
	}

	if (h->manager == MANAGER_PRE_COMMIT &&
	    plan_legacy(p, want, bin, force))
		return;
	if (p->s.p.kind != HOOK_MISSING) {
		if (!force) {
			strbuf_addf(&p->refuse, "'%s' is not ahd-replay's and "
				    "'%s' is taken, so it cannot be moved aside; "
				    "move one of them away, or use --force to "
				    "discard '%s'", p->s.hook.buf, p->s.prev.buf,
				    prev_name);
			return;
		}
		p->discard_prev = 1;
	}
	p->move_aside = 1;
	p->target = p->s.hook.buf;
	p->remove_old = h->manager == MANAGER_LEFTHOOK &&
			p->s.o.kind == HOOK_OURS;
	mgr = hook_manager_name(h->manager);
	strbuf_addf(&p->msg, "installed; the hook that was there (%s%s) "
		    "is kept as %s and runs first, under its own name",
		    mgr ? mgr : "", mgr ? "'s" :
		    h->symlink ? "a symbolic link" : "a file", prev_name);
	if (p->discard_prev)
		strbuf_addf(&p->msg, "; the old %s was discarded", prev_name);
}

int hook_plan_apply(struct hook_plan *p)
{
	const struct strbuf *want = &p->want;
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	if (p->discard_prev && unlink(p->s.prev.buf)) {
		error("cannot remove '%s': %s", p->s.prev.buf, strerror(errno));
		goto out;
	}
	if (p->move_aside && rename(p->s.hook.buf, p->s.prev.buf)) {
		error("cannot rename '%s' to '%s': %s", p->s.hook.buf,
		      p->s.prev.buf, strerror(errno));
		goto out;
	}
	if (hook_write(p->target, want->buf, want->len, &err)) {
		error("%s", err.buf);
		/* put the hook that was there back */
		if (p->move_aside && rename(p->s.prev.buf, p->s.hook.buf))
			error("cannot rename '%s' back to '%s': %s",
			      p->s.prev.buf, p->s.hook.buf, strerror(errno));
		goto out;
	}
	if (p->remove_old && unlink(p->s.old.buf))
		warning("cannot remove '%s': %s", p->s.old.buf,
			strerror(errno));
	ret = 0;
out:
	strbuf_release(&err);
	return ret;
}

/*
 * Should hook type be planned?  pre-merge-commit only on request, or to
 * keep a copy of ours (or the pre-commit framework's .legacy one) up to
 * date.
 */
static int wanted(const struct hook_plan *p, int pre_merge_commit)
{
	return strcmp(p->type, "pre-merge-commit") || pre_merge_commit ||
	       p->s.h.kind == HOOK_OURS ||
	       (p->s.h.manager == MANAGER_PRE_COMMIT &&
		p->s.l.kind == HOOK_OURS);
}

/*
 * git-lfs is in use: a pre-push of ours with nothing to run first runs
 * git-lfs's (hooklfs.h), written as its previous hook.  A hook moved
 * aside, or one left there, is what runs first instead.
 */
static void plan_lfs(struct hook_plan *p)
{
	if (strcmp(p->type, "pre-push") || p->refuse.len || p->move_aside ||
	    p->s.p.kind != HOOK_MISSING ||
	    (p->s.h.kind != HOOK_MISSING && p->s.h.kind != HOOK_OURS))
		return;
	hook_lfs_render(&p->lfs, p->type);
	strbuf_addf(&p->msg, "; git-lfs's pre-push (git lfs pre-push) is "
		    "written as %s and runs first",
		    hook_base_name(p->s.prev.buf));
}

int hook_plans_decide(struct hook_plan *plans, size_t *nr, const char *dir,
		      const char *bin, int pre_merge_commit, int force,
		      int lfs)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int refused = 0;

	*nr = 0;
	for (i = 0; hook_types[i]; i++) {
		struct hook_plan *p = &plans[*nr];

		hook_plan_release(p);
		hook_plan_init(p, hook_types[i]);
		if (hook_slots_read(&p->s, dir, p->type, &err) ||
		    (wanted(p, pre_merge_commit) &&
		     hook_render(&p->want, p->type, HOOK_TEMPLATE_VERSION, bin,
				 &err))) {
			refused = error("%s", err.buf);
			break;
		}
		if (!wanted(p, pre_merge_commit))
			continue;
		hook_plan_decide(p, bin, force);
		if (lfs)
			plan_lfs(p);
		if (p->refuse.len) {
			error("%s: %s", p->type, p->refuse.buf);
			refused = 1;
		}
		(*nr)++;
	}
	strbuf_release(&err);
	return refused;
}

int hook_plans_apply(struct hook_plan *plans, size_t nr, const char *dir,
		     int quiet)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int writes = 0, ret = 0;

	for (i = 0; i < nr; i++)
		writes += plans[i].target || plans[i].lfs.len;
	if (writes && mkdir_p(dir, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		struct hook_plan *p = &plans[i];

		if (p->target && hook_plan_apply(p)) {
			ret = -1;
			continue;
		}
		if (p->lfs.len &&
		    hook_write(p->s.prev.buf, p->lfs.buf, p->lfs.len, &err)) {
			ret = error("%s", err.buf);
			strbuf_reset(&err);
			continue;
		}
		if (!quiet)
			printf("%s: %s\n", p->type, p->msg.buf);
	}
out:
	strbuf_release(&err);
	return ret;
}

/*
 * Remove ours from one slot; returns 1 if it was removed, and sets
 * *left when a copy of ours stays.  With `replaced`, the caller renames
 * another file over it instead, so that the hook is never missing.
 */
static int remove_ours(const struct hook_file *hf, const char *path,
		       const char *type, int replaced, int *left, int quiet)
{
	switch (hf->kind) {
	case HOOK_OURS:
		if (!replaced && unlink(path)) {
			error("cannot remove '%s': %s", path, strerror(errno));
			*left = 1;
			return 0;
		}
		if (!quiet)
			printf("%s: removed %s\n", type, path);
		return 1;
	case HOOK_OURS_NEWER:
		error("%s: left '%s': it was written by a newer ahd-replay "
		      "(template %d); use that version's uninstall-hooks",
		      type, path, hf->version);
		*left = 1;
		return 0;
	case HOOK_OURS_EDITED:
		error("%s: left '%s': it carries the ahd-replay marker but was "
		      "edited; delete it by hand if you no longer want it",
		      type, path);
		*left = 1;
		return 0;
	default:
		return 0;
	}
}

int hook_uninstall_dir(const char *dir, int *found, int quiet)
{
	struct hook_slots s;
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int left = 0;

	hook_slots_init(&s);
	for (i = 0; hook_types[i]; i++) {
		const char *type = hook_types[i], *freed = NULL;

		if (hook_slots_read(&s, dir, type, &err)) {
			error("%s", err.buf);
			strbuf_reset(&err);
			left = 1;
			continue;
		}
		if (remove_ours(&s.h, s.hook.buf, type,
				s.p.kind != HOOK_MISSING, &left, quiet))
			freed = s.hook.buf;
		if (remove_ours(&s.l, s.legacy.buf, type,
				!freed && s.p.kind != HOOK_MISSING, &left,
				quiet) &&
		    !freed)
			freed = s.legacy.buf;
		if (remove_ours(&s.o, s.old.buf, type, 0, &left, quiet) &&
		    !freed)
			freed = s.old.buf;
		if (freed)
			*found = 1;
		if (s.p.kind == HOOK_MISSING)
			continue;
		*found = 1;
		if (!freed && s.h.kind == HOOK_MISSING)
			freed = s.hook.buf;
		if (!freed) {
			error("%s: left '%s': '%s' is no longer ahd-replay's, so "
			      "there is nowhere to put it back; rename it by hand",
			      type, s.prev.buf, s.hook.buf);
			left = 1;
			continue;
		}
		if (rename(s.prev.buf, freed)) {
			error("cannot rename '%s' to '%s': %s", s.prev.buf,
			      freed, strerror(errno));
			left = 1;
			continue;
		}
		if (!quiet)
			printf("%s: restored %s as %s\n", type,
			       hook_base_name(s.prev.buf),
			       hook_base_name(freed));
	}
	hook_slots_release(&s);
	strbuf_release(&err);
	return left ? -1 : 0;
}

void hook_plan_init(struct hook_plan *p, const char *type)
{
	memset(p, 0, sizeof(*p));
	p->type = type;
	hook_slots_init(&p->s);
	strbuf_init(&p->want, 0);
	strbuf_init(&p->lfs, 0);
	strbuf_init(&p->msg, 0);
	strbuf_init(&p->refuse, 0);
}

void hook_plan_release(struct hook_plan *p)
{
	hook_slots_release(&p->s);
	strbuf_release(&p->want);
	strbuf_release(&p->lfs);
	strbuf_release(&p->msg);
	strbuf_release(&p->refuse);
}
