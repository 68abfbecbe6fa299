/*
 * What `ahd-replay hook <type>` runs (see hookrun.h).
 *
 * pre-commit judges the index git is committing (GIT_INDEX_FILE when
 * set: index.lock during `git commit -a`, a temporary index during
 * `git commit <paths>`) against HEAD; pre-push judges each pushed tip
 * against what the remote already has (hookpush.h).
 */
#include "config.h"
#include "hookrun.h"
#include "hookcheck.h"
#include "hookpush.h"
#include "hooks.h"
#include "git/hooksdir.h"
#include "advice.h"
#include "git/repo.h"
#include "git/revrange.h"
#include "git/snapshot.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char ways_forward[] =
	"Ways forward:\n"
	"  - keep the old input under a new name for the old reports, and point new runs at the new one;\n"
	"  - re-run the affected evals, if they can be re-run, so that their sidecars record the new inputs;\n"
	"  - or go ahead anyway: %s\n";

/* For reports that had drifted before: their evals may not re-run. */
static const char repair_old[] =
	"To repair a report that had drifted already:\n"
	"  - `ahd-replay verify --explain <report>` names the commit that last had the\n"
	"    input it records, and what changed since;\n"
	"  - `git show <commit>:<path>` is that version: keep it under a new name\n"
	"    and point the sidecar's path at it (an edit that leaves the report no\n"
	"    worse than it was is not refused);\n"
	"  - or restore the input where the sidecar records it.\n";

struct hook_ctx {
	struct repo r;
	const char *workdir;	/* r's, absolute and symlink-free */
	int strict;
};
#define HOOK_CTX_INIT { REPO_INIT, NULL, 0 }

static int open_repo(struct hook_ctx *h)
{
	struct strbuf err = STRBUF_INIT;
	int rc, ret = -1;

	rc = repo_open(&h->r, ".", 0, &err);
	if (rc) {
		error("cannot open the repository: %s",
		      rc > 0 ? "not in a git repository" : err.buf);
		notice("nothing was checked; to go ahead anyway: "
		       "AHD_REPLAY_SKIP=1");
		goto out;
	}
	if (!h->r.workdir.len) {
		error("the repository has no work tree");
		goto out;
	}
	h->workdir = h->r.workdir.buf;
	/* unset (-1): the judged state's .ahd-replay.yml says (hookcheck.h) */
	if (repo_config_bool_at(&h->strict, &h->r, "ahd-replay.strict", -1,
				&err)) {
		warning("%s; old drift is not refused", err.buf);
		h->strict = 0;
	}
	/* git does not re-hash every object it reads; neither do we */
	snapshot_trust_object_ids();
	ret = 0;
out:
	strbuf_release(&err);
	return ret;
}

/*
 * How to go ahead without the check.  `--no-verify` skips every hook of
 * the type, so not when install-hooks chained the hook that was there
 * before (git-lfs's pre-push, which uploads the objects, say).
 */
static void bypass(struct strbuf *out, const char *type, const char *what)
{
	struct hooks_dir hd = HOOKS_DIR_INIT;
	struct strbuf prev = STRBUF_INIT, err = STRBUF_INIT;
	int chained = 0;

	if (!hooks_dir_resolve(&hd, &err)) {
		strbuf_addf(&prev, "%s/%s" HOOK_PREV_SUFFIX, hd.path.buf, type);
		chained = !access(prev.buf, X_OK);
	}
	if (chained)
		strbuf_addf(out, "AHD_REPLAY_SKIP=1 git %s (not --no-verify: "
			    "it would also skip the chained hook that ran "
			    "before this check)", what);
	else
		strbuf_addf(out, "AHD_REPLAY_SKIP=1 git %s, or git %s "
			    "--no-verify", what, what);
	hooks_dir_release(&hd);
	strbuf_release(&prev);
	strbuf_release(&err);
}

/*
 * Print the findings about what (a commit, a pushed ref) and how to go
 * on; at is the pushed commit (NULL for a commit: the work tree shows
 * it), for the hint that shows the drift.  Returns 1 when they refuse
 * it, else 0.
 */
static int report(const struct hook_check_result *res, const char *what,
		  const char *type, const char *verb, const char *at)
{
	struct strbuf skip = STRBUF_INIT;

	if (!res->problems && !res->warnings)
		return 0;
	if (res->problems)
		notice("%s makes published reports drift:\n", what);
	else
		warning("reports that had drifted already (not refused; "
			"ahd-replay.strict refuses them):\n");
	fputs(res->text.buf, stderr);
	if (res->stale) {
		fputc('\n', stderr);
		fputs(repair_old, stderr);
	}
	if (res->problems) {
		bypass(&skip, type, verb);
		fputc('\n', stderr);
		fprintf(stderr, ways_forward, skip.buf);
		fputc('\n', stderr);
		advise_once(ADVICE_EXPLAIN_DRIFT, "to see what changed in each "
			    "drifted input since the version its report "
			    "records:\n  ahd-replay verify --explain%s%.12s",
			    at ? " --at=" : "", at ? at : "");
	}
	strbuf_release(&skip);
	return res->problems ? 1 : 0;
}

int hook_run_pre_commit(const char *type)
{
	struct hook_ctx h = HOOK_CTX_INIT;
	struct hook_check_result res = HOOK_CHECK_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct snapshot head = SNAPSHOT_INIT, staged = SNAPSHOT_INIT;
	struct hook_state base = { &head, "HEAD", 1 };
	struct hook_state next = { &staged, "staged", 1 };
	int ret = 2;

	if (open_repo(&h))
		goto out;
	/* The index being committed, not the work tree. */
	if (snapshot_index(&staged, &h.r, &err) ||
	    snapshot_head(&head, &h.r, &err) ||
	    hook_check_run(h.workdir, &base, &next, h.strict, &res, &err)) {
		error("%s", err.buf);
		goto out;
	}
	ret = report(&res, "this commit", type, "commit", NULL);
out:
	hook_check_result_release(&res);
	strbuf_release(&err);
	snapshot_release(&head);
	snapshot_release(&staged);
	repo_release(&h.r);
	return ret;
}

/*
 * Judge one pushed commit, tip (hex), going to ref_name where the
 * destination had remote_hex.  Returns 1 when it must be refused, 0 when
 * not, -1 on errors.
 */
static int judge_push(struct hook_ctx *h, const struct hook_push_dest *dest,
		      const char *ref_name, const char *tip,
		      const char *remote_hex)
{
	struct hook_check_result res = HOOK_CHECK_RESULT_INIT;
	struct strbuf err = STRBUF_INIT, what = STRBUF_INIT;
	struct strbuf desc = STRBUF_INIT;
	struct snapshot pushed = SNAPSHOT_INIT, remote = SNAPSHOT_INIT;
	struct hook_state base = { &remote, "remote", 0 };
	struct hook_state next = { &pushed, "pushed", 0 };
	char base_id[SNAPSHOT_HEX_MAX];
	int ret = -1;

	if (snapshot_at(&pushed, &h->r, tip, &err) ||
	    (hook_push_base(base_id, &h->r, dest, tip, remote_hex, &desc) &&
	     snapshot_at(&remote, &h->r, base_id, &err))) {
		error("cannot read %s: %s", ref_name,
		      err.len ? err.buf : "not a commit");
		goto out;
	}
	if (hook_check_run(h->workdir, &base, &next, h->strict, &res, &err)) {
		error("%s", err.buf);
		goto out;
	}
	strbuf_addf(&what, "pushing %s (judged against %s)", ref_name,
		    desc.buf);
	ret = report(&res, what.buf, "pre-push", "push", tip);
out:
	hook_check_result_release(&res);
	strbuf_release(&err);
	strbuf_release(&what);
	strbuf_release(&desc);
	snapshot_release(&pushed);
	snapshot_release(&remote);
	return ret;
}

/*
 * Run by the pre-commit framework, which names the range: the
 * destination had from, to is pushed.
 */
static int judge_range(struct hook_ctx *h, const struct hook_push_dest *dest,
		       const char *from, const char *to)
{
	char from_id[SNAPSHOT_HEX_MAX], to_id[SNAPSHOT_HEX_MAX];
	struct strbuf err = STRBUF_INIT;
	int rc;

	rc = revrange_resolve(from_id, &h->r, from, &err);
	if (!rc)
		rc = revrange_commit(to_id, &h->r, to, &err);
	if (rc < 0)
		error("cannot resolve %s..%s: %s", from, to, err.buf);
	strbuf_release(&err);
	if (rc)
		return rc < 0 ? -1 : 0;	/* a tag of a tree: nothing to judge */
	return judge_push(h, dest, to, to_id, from_id);
}

/*
 * One line git sent: judge the commit it pushes.  Returns as
 * judge_push(); a deletion, or a tag of something else than a commit,
 * has nothing to judge.
 */
static int judge_line(struct hook_ctx *h, const struct hook_push_dest *dest,
		      const char *local_ref, const char *local_hex,
		      const char *remote_ref, const char *remote_hex)
{
	char tip[SNAPSHOT_HEX_MAX];
	struct strbuf err = STRBUF_INIT;
	int rc;

	if (hook_push_id_is_zero(local_hex))
		return 0;
	/* Annotated tags: judge what they point to. */
	rc = revrange_commit(tip, &h->r, local_hex, &err);
	if (rc < 0)
		error("cannot read %s: %s", local_ref, err.buf);
	strbuf_release(&err);
	if (rc)
		return rc < 0 ? -1 : 0;
	return judge_push(h, dest, remote_ref, tip, remote_hex);
}

/*
 * Judge every line on in; *lines counts git's.  Returns 1 when one must
 * be refused, -1 when one could not be judged, else 0.
 */
static int judge_lines(struct hook_ctx *h, const struct hook_push_dest *dest,
		       FILE *in, int *lines)
{
	struct strbuf line = STRBUF_INIT;
	int refused = 0, c;

	/* Read every line: git may send several refs. */
	for (;;) {
		char local_ref[4096], local_hex[80], remote_ref[4096],
		     remote_hex[80];
		int r;

		strbuf_reset(&line);
		while ((c = getc(in)) != EOF && c != '\n')
			strbuf_addch(&line, c);
		if (!line.len && c == EOF)
			break;
		if (sscanf(line.buf, "%4095s %79s %4095s %79s", local_ref,
			   local_hex, remote_ref, remote_hex) != 4) {
			warning("ignoring a line git did not send: '%s'",
				line.buf);
			continue;
		}
		(*lines)++;
		r = judge_line(h, dest, local_ref, local_hex, remote_ref,
			       remote_hex);
		if (r < 0)
			refused = -1;
		else if (r && refused >= 0)
			refused = 1;
	}
	strbuf_release(&line);
	return refused;
}

/* No lines: HEAD is what would be pushed. */
static int judge_head(struct hook_ctx *h, const struct hook_push_dest *dest)
{
	char head[SNAPSHOT_HEX_MAX];
	struct strbuf err = STRBUF_INIT;
	int rc;

	warning("no refs on standard input; checking HEAD");
	rc = revrange_head(head, &h->r, &err);
	if (rc < 0)
		error("cannot read HEAD: %s", err.buf);
	strbuf_release(&err);
	if (rc)
		return rc < 0 ? -1 : 0;	/* an unborn branch: nothing */
	return judge_push(h, dest, "HEAD", head, "0");
}

int hook_run_pre_push(const char *remote, const char *url, FILE *in)
{
	struct hook_push_dest dest = HOOK_PUSH_DEST_INIT;
	struct hook_ctx h = HOOK_CTX_INIT;
	const char *from = getenv("PRE_COMMIT_FROM_REF");
	const char *to = getenv("PRE_COMMIT_TO_REF");
	const char *name = getenv("PRE_COMMIT_REMOTE_NAME");
	int ret = 2, refused, lines = 0;

	if (open_repo(&h))
		goto out;
	/* the pre-commit framework passes no arguments but says where */
	if (!remote && name && *name) {
		remote = name;
		url = getenv("PRE_COMMIT_REMOTE_URL");
	}
	hook_push_dest_find(&dest, &h.r, remote, url);
	if (from && *from && to && *to)
		refused = judge_range(&h, &dest, from, to);
	else {
		refused = judge_lines(&h, &dest, in, &lines);
		if (!lines)
			refused = judge_head(&h, &dest);
	}
	ret = refused < 0 ? 2 : refused;
out:
	hook_push_dest_release(&dest);
	repo_release(&h.r);
	return ret;
}
