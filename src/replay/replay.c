#include "config.h"
#include "replay-int.h"
#include "fs/write.h"
#include "git/attribution.h"
#include "hash/hashfile.h"
#include "json/jsonout.h"
#include "quote.h"
#include "fs/readfile.h"
#include "record/render.h"
#include "root/root.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"
#include "verify/verify.h"
#include "fs/path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- where things are ------------------------------------------------- */

/* path relative to dir, when path is dir or below it. */
static int relative_to(struct strbuf *out, const char *path, const char *dir)
{
	const char *below = path_inside(path, dir);

	if (!below)
		return -1;
	strbuf_addstr(out, below);
	return 0;
}

/*
 * Is the file at abs a record of a layout of its work tree's
 * .ahd-replay.yml?  Sets rp->layout (NULL: no) and returns 0, or -1
 * when the file is malformed, with each problem in err.
 */
static int find_layout(struct replay *rp, const char *abs, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, top = STRBUF_INIT;
	char *real = realpath(abs, NULL);
	const char *rel;
	int ret = 0;

	if (!real)
		goto out;	/* the sidecar search says why */
	path_dirname(&dir, real);
	if (!repo_worktree_of(&top, dir.buf))
		goto out;
	if (rcfile_load(&rp->rc, top.buf, err)) {
		ret = -1;
		goto out;
	}
	rel = path_inside(real, top.buf);
	if (rel && *rel)
		rp->layout = rcfile_layout_for(&rp->rc, rel);
out:
	free(real);
	strbuf_release(&dir);
	strbuf_release(&top);
	return ret;
}

/*
 * The report and its sidecar (or a layout's record), the repository
 * holding them, and the root the recorded paths are relative to, seen
 * from the work tree's top (which the worktree reproduces).
 */
static int locate(struct replay *rp, const char *operand, struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT, side = STRBUF_INIT;
	struct strbuf dir = STRBUF_INIT, root = STRBUF_INIT;
	char *real = NULL;
	int ret = -1;

	if (path_absolute(&abs, operand, err) || find_layout(rp, abs.buf, err) ||
	    layout_report_ambiguous(rp->layout, abs.buf, err))
		goto out;
	if (rp->layout && rp->layout->sidecar)
		layout_sidecar_for(&side, rp->layout, abs.buf);
	else if (rp->layout || ends_with(abs.buf, ".replay.json"))
		strbuf_addbuf(&side, &abs);
	else
		sidecar_path_for(&side, abs.buf);
	real = realpath(side.buf, NULL);
	if (!real) {
		strbuf_addf(err, "no replay sidecar found at %s: %s", side.buf,
			    strerror(errno));
		goto out;
	}
	if (rp->layout ? record_from_layout(&rp->rec, rp->layout, real, err) ||
			 layout_record_command(&rp->recorded_argv, rp->layout,
					       real, err) < 0 :
	    sidecar_load(&rp->sc, real, err))
		goto out;
	if (!rp->layout)
		record_from_sidecar(&rp->rec, &rp->sc, real, NULL);
	path_dirname(&dir, real);
	if (repo_open(&rp->repo, dir.buf, 0, err) < 0)
		goto out;
	if (!rp->repo.git || !rp->repo.workdir.len) {
		strbuf_addf(err, "%s is not in a git work tree: a replay needs "
			    "the repository's history", operand);
		goto out;
	}
	if (relative_to(&rp->sidecar, real, rp->repo.workdir.buf)) {
		strbuf_addf(err, "%s is outside the work tree %s", real,
			    rp->repo.workdir.buf);
		goto out;
	}
	if (rp->layout && rp->layout->sidecar) {
		free(real);
		real = realpath(abs.buf, NULL);
		if (!real || relative_to(&rp->report, real,
					 rp->repo.workdir.buf)) {
			strbuf_addf(err, "%s is outside the work tree %s",
				    abs.buf, rp->repo.workdir.buf);
			goto out;
		}
	} else if (rp->layout)
		strbuf_addbuf(&rp->report, &rp->sidecar);
	else
		sidecar_report_for(&rp->report, rp->sidecar.buf);
	if (root_find(&root, dir.buf, NULL, err) < 0)
		goto out;
	if (relative_to(&rp->prefix, root.buf, rp->repo.workdir.buf)) {
		strbuf_addf(err, "the root %s is outside the work tree %s",
			    root.buf, rp->repo.workdir.buf);
		goto out;
	}
	if (rp->prefix.len)
		strbuf_addch(&rp->prefix, '/');
	ret = 0;
out:
	free(real);
	strbuf_release(&abs);
	strbuf_release(&side);
	strbuf_release(&dir);
	strbuf_release(&root);
	return ret;
}

/*
 * ahd_commit (a layout's record: the commit at its layout's commit
 * pointer) as a commit of this repository; 1 when there is none.
 */
static int find_commit(struct replay *rp, struct strbuf *err)
{
	const char *hex = rp->rec.commit;
	const char *what = rp->layout ? "the record's commit" : "ahd_commit";
	struct strbuf detail = STRBUF_INIT;
	size_t len = hex ? strlen(hex) : 0;
	size_t i;
	int ret = 1;

	if (rp->layout && (!hex || !*hex)) {
		strbuf_addf(err, "the record names no commit%s%s, so the "
			    "version the run used is unknown and it cannot be "
			    "re-issued (its inputs can still be verified)",
			    rp->layout->commit ? " at " : " (its layout has "
			    "no commit pointer)", rp->layout->commit ?
			    rp->layout->commit : "");
		return 1;
	}
	if (!hex || !*hex) {
		strbuf_addstr(err, "the sidecar records no ahd_commit, so the "
			      "version the run used is unknown and it cannot be "
			      "re-issued (its inputs can still be verified)");
		return 1;
	}
	for (i = 0; i < len; i++)
		if (!strchr("0123456789abcdef", hex[i]))
			break;
	/*
	 * The full id only, as the schema pins it: an abbreviation names
	 * whatever commit of this repository happens to share it.
	 */
	if (len != COMMIT_HEX_MAX - 1 || i < len) {
		strbuf_addf(err, "%s is not a commit id (40 lowercase hex "
			    "digits)", rp->layout ? what :
			    "the sidecar's ahd_commit");
		return 1;
	}
	switch (commit_find(&rp->repo, hex, &detail)) {
	case COMMIT_MISSING_SHALLOW:
		strbuf_addf(err, "%s %s is not in this shallow clone; "
			    "fetch the history first (git fetch --unshallow)",
			    what, hex);
		break;
	case COMMIT_MISSING:
		strbuf_addf(err, "%s %s is not in this repository (%s)",
			    what, hex, detail.buf);
		break;
	case COMMIT_NOT_COMMIT:
		strbuf_addf(err, "%s %s is a %s of this repository, "
			    "not a commit", what, hex, detail.buf);
		break;
	case COMMIT_FOUND:
		memcpy(rp->commit, hex, sizeof(rp->commit));
		ret = 0;
		break;
	}
	strbuf_release(&detail);
	return ret;
}

/*
 * The default worktree: <commondir>/ahd-replay-worktrees/<report>-<id>,
 * numbered when taken, so `git worktree list` shows where it is and a
 * removal of the git directory takes it along.
 */
static int default_worktree(struct strbuf *out, const struct replay *rp,
			    struct strbuf *err)
{
	const char *base = strrchr(rp->report.buf, '/');
	struct strbuf stem = STRBUF_INIT;
	char hex[13];
	int i, ret = -1;

	base = base ? base + 1 : rp->report.buf;
	strbuf_addstr(&stem, base);
	if (ends_with(stem.buf, ".md"))
		strbuf_setlen(&stem, stem.len - 3);
	else if (rp->layout && ends_with(stem.buf, ".json"))
		strbuf_setlen(&stem, stem.len - 5);
	snprintf(hex, sizeof(hex), "%.12s", rp->commit);
	strbuf_addf(out, "%s/ahd-replay-worktrees", rp->repo.commondir.buf);
	if (mkdir(out->buf, 0777) && errno != EEXIST) {
		strbuf_addf(err, "cannot create %s: %s", out->buf,
			    strerror(errno));
		goto out;
	}
	strbuf_addf(out, "/%s-%s", stem.buf, hex);
	for (i = 2; i < 1000 && !access(out->buf, F_OK); i++) {
		char *at = strrchr(out->buf, '/');

		strbuf_setlen(out, (size_t)(at - out->buf));
		strbuf_addf(out, "/%s-%s-%d", stem.buf, hex, i);
	}
	ret = 0;
out:
	strbuf_release(&stem);
	return ret;
}

/* --- inputs ------------------------------------------------------------ */

/*
 * Is the directory dir (absolute, perhaps not there yet) inside the
 * worktree once symlinks are followed?  The checkout holds the commit's
 * symlinks, which a hostile commit can point anywhere: nothing may be
 * written, or made, through one that leaves the worktree.
 */
static int dir_inside_worktree(const struct replay *rp, const char *dir)
{
	struct strbuf probe = STRBUF_INIT;
	char *real = NULL;
	int inside = 0;

	strbuf_addstr(&probe, dir);
	/* the deepest part that exists; what mkdir_p makes below is ours */
	while (probe.len > rp->wt.path.len && !(real = realpath(probe.buf, NULL))) {
		char *slash = strrchr(probe.buf, '/');

		if (errno != ENOENT || !slash)
			break;
		strbuf_setlen(&probe, (size_t)(slash - probe.buf));
	}
	if (!real)
		real = realpath(probe.buf, NULL);
	inside = real && path_is_within(real, rp->wt.path.buf);
	free(real);
	strbuf_release(&probe);
	return inside;
}

/* replay-int.h */
int replay_put_path(const struct replay *rp, const char *path,
		    const char *buf, size_t len, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	int ret = -1;

	path_dirname(&dir, path);
	if (!dir_inside_worktree(rp, dir.buf)) {
		strbuf_addstr(err, "refusing to write ");
		strbuf_add_printable(err, path);
		strbuf_addstr(err, ": a symlink of the commit leads out of "
			      "the worktree");
		goto out;
	}
	if (mkdir_p(dir.buf, err))
		goto out;
	/*
	 * A symlink of the commit at path itself is replaced, never
	 * followed: the recorded bytes belong at path, not at whatever
	 * other file of the commit it names.
	 */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && unlink(path)) {
		strbuf_addstr(err, "cannot replace the symlink ");
		strbuf_add_printable(err, path);
		strbuf_addf(err, ": %s", strerror(errno));
		goto out;
	}
	ret = write_file_beneath(rp->wt.path.buf, path, buf, len, 0644, err);
out:
	strbuf_release(&dir);
	return ret;
}

/* Write bytes at root-relative rel inside the worktree's root. */
static int put_file(const struct replay *rp, const char *rel, const char *buf,
		    size_t len, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", rp->root.buf, rel);
	ret = replay_put_path(rp, path.buf, buf, len, err);
	strbuf_release(&path);
	return ret;
}

/*
 * Verify the sidecar against the worktree's root: which inputs hold the
 * recorded hash there, and where each input lies.
 */
static void check_against(struct replay *rp,
			  const struct replay_options *opts, const char *root,
			  struct verify_report *r)
{
	struct verify_options vo;
	struct sig_keyring keyring = SIG_KEYRING_INIT;
	struct verify_run run;
	struct strbuf side = STRBUF_INIT, report = STRBUF_INIT;

	memset(&vo, 0, sizeof(vo));
	vo.allow_outside = opts->allow_outside;
	vo.root = root;
	strbuf_addf(&side, "%s/%s", rp->repo.workdir.buf, rp->sidecar.buf);
	/* AHD's report is found from its sidecar, as verify finds it */
	strbuf_addf(&report, "%s/%s", rp->repo.workdir.buf, rp->layout ?
		    rp->report.buf : rp->sidecar.buf);
	verify_run_init(&run, &vo, &keyring);
	verify_report_init(r, report.buf, side.buf);
	r->layout = rp->layout;
	verify_one(&run, r);
	verify_run_release(&run);
	sig_keyring_release(&keyring);
	strbuf_release(&side);
	strbuf_release(&report);
}

static void check_worktree(struct replay *rp,
			   const struct replay_options *opts,
			   struct verify_report *r)
{
	check_against(rp, opts, rp->root.buf, r);
}

/*
 * Which inputs the user's work tree no longer holds as recorded: for
 * those, the worktree's copy is the one history kept, and saying so
 * tells the user why the replay differs from their checkout.
 */
static void note_user_drift(struct replay *rp,
			    const struct replay_options *opts)
{
	struct verify_report r;
	struct strbuf root = STRBUF_INIT;
	int i;

	strbuf_addf(&root, "%s/%s", rp->repo.workdir.buf, rp->prefix.buf);
	if (rp->prefix.len)
		strbuf_setlen(&root, root.len - 1);
	check_against(rp, opts, root.buf, &r);
	for (i = 0; i < r.nr_checks && i < rp->nr_materials; i++)
		rp->materials[i].user_changed = !r.checks[i].ok;
	verify_report_release(&r);
	strbuf_release(&root);
}

static int find_version(struct replay *rp, struct replay_material *m,
			struct attribution_version *v, struct strbuf *err)
{
	enum attribution_hash how = m->mode == PIN_STRUCTURED ?
		ATTRIBUTE_STRUCTURED : m->mode == PIN_RAW ? ATTRIBUTE_RAW :
		ATTRIBUTE_RAW_OR_STRUCTURED;
	struct strbuf path = STRBUF_INIT;
	char head[COMMIT_HEX_MAX];
	int ret;

	strbuf_addf(&path, "%s%s", rp->prefix.buf, m->path.buf);
	/* nearest the run first: ahd_commit's history, then the branch's */
	ret = attribution_find(v, &rp->repo, rp->commit, path.buf,
			       m->recorded, how, err);
	if (!ret && !commit_head(head, &rp->repo, NULL) &&
	    strcmp(head, rp->commit))
		ret = attribution_find(v, &rp->repo, head, path.buf,
				       m->recorded, how, err);
	strbuf_release(&path);
	return ret;
}

static int use_override(struct replay *rp, struct replay_material *m,
			const char *file, struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT;
	char hex[HASH_HEX_MAX];
	int ret = -1;

	if (read_file_limited(&raw, file, HASH_DEFAULT_MAX_SIZE, err)) {
		strbuf_addf(err, " (--override=%s=%s)", m->kind, file);
		goto out;
	}
	utf8_repair(&text, raw.buf, raw.len);
	/* the hash the reference records for the kind: tokens structured */
	if (hash_text(hex, text.buf, text.len, strcmp(m->kind, "token") ?
		      HASH_RAW : HASH_STRUCTURED, err)) {
		strbuf_addf(err, " (--override=%s=%s)", m->kind, file);
		goto out;
	}
	if (put_file(rp, m->path.buf, raw.buf, raw.len, err))
		goto out;
	strbuf_reset(&m->sha256);
	strbuf_addstr(&m->sha256, hex);
	m->source = MATERIAL_OVERRIDE;
	ret = 0;
out:
	strbuf_release(&raw);
	strbuf_release(&text);
	return ret;
}

/* Restore one input that the worktree does not hold as recorded. */
static int restore(struct replay *rp, struct replay_material *m,
		   struct strbuf *err)
{
	struct attribution_version v = ATTRIBUTION_VERSION_INIT;
	int ret;

	ret = find_version(rp, m, &v, err);
	if (ret < 0)
		goto out;
	if (!ret) {
		/* the path comes from the sidecar: escaped for the terminal */
		strbuf_addstr(&m->why, "no version of ");
		strbuf_add_printable(&m->why, m->path.buf);
		strbuf_addf(&m->why, " in this repository's history has the "
			    "recorded hash%s", v.truncated ? " (the history is "
			    "truncated: a shallow clone)" : "");
		m->source = MATERIAL_MISSING;
		ret = 0;
		goto out;
	}
	if (put_file(rp, m->path.buf, v.content.buf, v.content.len, err)) {
		ret = -1;
		goto out;
	}
	/* the version found has the recorded hash; confirm_inputs() checks */
	strbuf_addstr(&m->sha256, m->recorded);
	m->source = MATERIAL_HISTORY;
	memcpy(m->commit, v.commit, sizeof(m->commit));
	commit_describe(&m->commit_text, &rp->repo, v.commit);
	ret = 0;
out:
	attribution_version_release(&v);
	return ret;
}

static void material_init(struct replay_material *m,
			  const struct pinned_input *in)
{
	memset(m, 0, sizeof(*m));
	m->kind = in->name;
	m->recorded = in->hash;
	m->mode = in->mode;
	strbuf_init(&m->path, 0);
	strbuf_init(&m->sha256, 0);
	strbuf_init(&m->commit_text, 0);
	strbuf_init(&m->why, 0);
}

/*
 * Where the input lies relative to the root: as the worktree resolves
 * it, else as the user's work tree does (a file added after ahd_commit).
 */
static int material_path(struct replay *rp, struct replay_material *m,
			 const struct verify_check *c, const char *recorded,
			 const struct replay_options *opts, struct strbuf *err)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	struct strbuf root = STRBUF_INIT;
	int ret = 0;

	if (c->rel.len) {
		strbuf_addbuf(&m->path, &c->rel);
		return 0;
	}
	strbuf_addf(&root, "%s/%s", rp->repo.workdir.buf, rp->prefix.buf);
	if (root.buf[root.len - 1] == '/' && root.len > 1)
		strbuf_setlen(&root, root.len - 1);
	input_resolve(&in, root.buf, recorded, NULL, opts->allow_outside);
	if (in.rel.len)
		strbuf_addbuf(&m->path, &in.rel);
	else {
		const struct strbuf *why = c->reason.len ? &c->reason : &in.why;

		strbuf_addf(err, "cannot tell where the %s ", m->kind);
		strbuf_add_printable(err, recorded);
		strbuf_addstr(err, " lies in the repository: ");
		quote_escape(err, why->buf, why->len);
		ret = -1;
	}
	resolved_input_release(&in);
	strbuf_release(&root);
	return ret;
}

/*
 * Put every input into the state the run read; returns 1 when one
 * cannot be, in exact mode (or without an override for it).
 */
static int restore_inputs(struct replay *rp, const struct replay_options *opts,
			  struct strbuf *err)
{
	struct verify_report r;
	int i, ret = 0;

	check_worktree(rp, opts, &r);
	if (!r.error.len && (size_t)r.nr_checks != rp->rec.nr)
		strbuf_addstr(&r.error, "the record changed while it was read");
	if (r.error.len) {
		quote_escape(err, r.error.buf, r.error.len);
		verify_report_release(&r);
		return -1;
	}
	rp->materials = xcalloc(rp->rec.nr ? rp->rec.nr : 1,
				sizeof(*rp->materials));
	for (i = 0; i < r.nr_checks && ret >= 0; i++) {
		const struct verify_check *c = &r.checks[i];
		struct replay_material *m = &rp->materials[rp->nr_materials++];
		/* overrides are AHD's: replay_prepare() refuses others */
		const char *override = rp->layout ? NULL :
			opts->override[strcmp(c->field, "token") != 0];

		/* the verify report goes; the record's strings stay */
		material_init(m, &rp->rec.inputs[i]);
		if (material_path(rp, m, c, rp->rec.inputs[i].path, opts,
				  err)) {
			ret = -1;
			break;
		}
		if (override)
			ret = use_override(rp, m, override, err);
		else if (c->ok) {
			m->source = MATERIAL_AT_COMMIT;
			strbuf_addstr(&m->sha256, c->expected);
		} else if (c->error) {
			strbuf_addf(err, "%s: ", c->field);
			quote_escape(err, c->reason.buf, c->reason.len);
			ret = -1;
		} else
			ret = restore(rp, m, err);
	}
	verify_report_release(&r);
	if (ret < 0)
		return -1;
	for (i = 0; i < rp->nr_materials; i++)
		if (rp->materials[i].source == MATERIAL_MISSING) {
			strbuf_addf(err, "cannot restore the %s: %s",
				    rp->materials[i].kind,
				    rp->materials[i].why.buf);
			if (opts->mode == REPLAY_EXACT)
				strbuf_addstr(err, "; exact mode never uses "
					      "other bytes (--mode=with-overrides "
					      "--override=<input>=<file> to "
					      "supply them)");
			return 1;
		}
	return 0;
}

/*
 * The check that what was written is what the sidecar pins: every input
 * not overridden must now verify intact in the worktree.
 */
static int confirm_inputs(struct replay *rp, const struct replay_options *opts,
			  struct strbuf *err)
{
	struct verify_report r;
	int i, ret = 0;

	check_worktree(rp, opts, &r);
	for (i = 0; i < r.nr_checks && !ret; i++)
		if (rp->materials[i].source != MATERIAL_OVERRIDE &&
		    !r.checks[i].ok) {
			strbuf_addf(err, "the restored %s does not verify: ",
				    r.checks[i].field);
			quote_escape(err, r.checks[i].reason.buf,
				     r.checks[i].reason.len);
			ret = -1;
		}
	if (!ret && r.error.len) {
		quote_escape(err, r.error.buf, r.error.len);
		ret = -1;
	}
	verify_report_release(&r);
	return ret;
}

static int file_inside(const char *path, const char *dir)
{
	char *real = realpath(path, NULL);
	int inside = real && path_is_within(real, dir);

	free(real);
	return inside;
}

/* The report and its sidecar, at their places in the worktree. */
static int copy_report(struct replay *rp, struct strbuf *err)
{
	const char *files[2];
	int i, ret = 0;

	files[0] = rp->sidecar.buf;
	files[1] = rp->report.buf;
	/* a layout's record without a sidecar is its own report */
	for (i = 0; i < (rp->layout && !rp->layout->sidecar ? 1 : 2) && !ret;
	     i++) {
		struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
		struct strbuf buf = STRBUF_INIT;

		strbuf_addf(&src, "%s/%s", rp->repo.workdir.buf, files[i]);
		strbuf_addf(&dst, "%s/%s", rp->wt.path.buf, files[i]);
		if (i && access(src.buf, F_OK))
			;	/* a sidecar without its report */
		else if (!file_inside(src.buf, rp->repo.workdir.buf)) {
			strbuf_addf(err, "%s leads out of the work tree %s",
				    files[i], rp->repo.workdir.buf);
			ret = -1;
		} else if (read_file_limited(&buf, src.buf, HASH_DEFAULT_MAX_SIZE,
					   err) ||
			 replay_put_path(rp, dst.buf, buf.buf, buf.len, err))
			ret = -1;
		strbuf_release(&src);
		strbuf_release(&dst);
		strbuf_release(&buf);
	}
	return ret;
}

int replay_prepare(struct replay *rp, const char *report,
		   const struct replay_options *opts, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = locate(rp, report, err) ? -1 : find_commit(rp, err);
	if (ret)
		goto out;
	if (rp->layout && (opts->override[0] || opts->override[1])) {
		strbuf_addstr(err, "--override replaces AHD's token or brief; "
			      "a record of a layout is replayed with its "
			      "recorded inputs only");
		ret = -1;
		goto out;
	}
	if (!rp->layout && rp->sc.git_dirty == 1)
		strbuf_addstr(&rp->notes, "note: the run was made with "
			      "uncommitted changes (git_dirty: true); its inputs "
			      "are restored by their hashes, other files are as "
			      "ahd_commit has them\n");
	if (opts->worktree)
		strbuf_addstr(&path, opts->worktree);
	else if (default_worktree(&path, rp, err)) {
		ret = -1;
		goto out;
	}
	if (worktree_add_detached(&rp->wt, &rp->repo, path.buf, rp->commit,
				  err)) {
		ret = -1;
		goto out;
	}
	strbuf_addbuf(&rp->root, &rp->wt.path);
	if (rp->prefix.len) {
		strbuf_addch(&rp->root, '/');
		strbuf_add(&rp->root, rp->prefix.buf, rp->prefix.len - 1);
	}
	ret = copy_report(rp, err) ? -1 : restore_inputs(rp, opts, err);
	if (!ret)
		ret = confirm_inputs(rp, opts, err);
	if (!ret)
		note_user_drift(rp, opts);
	if (!ret && (replay_reroot_argv(rp, err) ||
		     replay_write_receipt(rp, opts, err)))
		ret = -1;
	if (ret && !opts->keep)
		worktree_remove(&rp->wt, NULL);
	worktree_unguard();
	if (ret && opts->keep)
		strbuf_addf(&rp->notes, "note: the worktree is kept at %s "
			    "(--keep)\n", rp->wt.path.buf);
out:
	strbuf_release(&path);
	return ret;
}

int replay_compare(const struct replay *rp, struct sidecar_diff *d,
		   struct diff_side *a, struct diff_side *b,
		   struct strbuf *err)
{
	struct strbuf orig = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int ret = -1;

	/* only AHD's sidecar has a field stability table to compare under */
	if (rp->layout)
		return 0;
	strbuf_addf(&orig, "%s/%s", rp->repo.workdir.buf, rp->sidecar.buf);
	strbuf_addf(&now, "%s/%s", rp->wt.path.buf, rp->sidecar.buf);
	/* the copy replay_prepare() put there, untouched: nothing written */
	if (read_file_limited(&x, orig.buf, HASH_DEFAULT_MAX_SIZE, err) ||
	    read_file_limited(&y, now.buf, HASH_DEFAULT_MAX_SIZE, err))
		goto out;
	if (x.len == y.len && !memcmp(x.buf, y.buf, x.len)) {
		ret = 0;
		goto out;
	}
	if (sidecar_load(&a->sc, orig.buf, err) ||
	    sidecar_load(&b->sc, now.buf, err))
		goto out;
	strbuf_addstr(&a->name, rp->sidecar.buf);
	strbuf_addf(&b->name, "%s (re-issued)", rp->sidecar.buf);
	diff_side_resolve(a, rp->root.buf, NULL);
	diff_side_resolve(b, rp->root.buf, NULL);
	sidecar_diff_compute(d, a, b);
	ret = 1;
out:
	strbuf_release(&orig);
	strbuf_release(&now);
	strbuf_release(&x);
	strbuf_release(&y);
	return ret;
}

void replay_release(struct replay *rp)
{
	int i;

	for (i = 0; i < rp->nr_materials; i++) {
		strbuf_release(&rp->materials[i].path);
		strbuf_release(&rp->materials[i].sha256);
		strbuf_release(&rp->materials[i].commit_text);
		strbuf_release(&rp->materials[i].why);
	}
	free(rp->materials);
	rcfile_release(&rp->rc);
	record_release(&rp->rec);
	jval_decref(rp->recorded_argv);
	worktree_release(&rp->wt);
	repo_release(&rp->repo);
	sidecar_release(&rp->sc);
	strbuf_release(&rp->report);
	strbuf_release(&rp->sidecar);
	strbuf_release(&rp->prefix);
	strbuf_release(&rp->root);
	strbuf_release(&rp->notes);
	strbuf_release(&rp->receipt_text);
	jval_decref(rp->argv);
	jval_decref(rp->receipt);
}
