/*
 * ahd_commit and git_dirty without running git.
 *
 * git_dirty must be exactly "`git status --porcelain` prints something".
 * libgit2's status list comes close but differs from git in ways that
 * change the answer (each one observed with git 2.39 and libgit2 1.5):
 *
 *  - git hides files marked skip-worktree even when they are missing,
 *    but in a sparse checkout treats those present on disk as ordinary
 *    tracked files (clear_skip_worktree_from_present_files());
 *  - libgit2 1.5 neither opens a repository with extensions.worktreeConfig
 *    in format version 1 nor reads config.worktree, where
 *    `git sparse-checkout` keeps core.sparseCheckout;
 *  - git lists an untracked nested repository ("?? dir/") even when it
 *    holds no commit or no file, or is a .git file pointing elsewhere;
 *  - submodules: git reads submodule.<name>.ignore from the repository's
 *    configuration before .gitmodules, lets it override
 *    diff.ignoreSubmodules, never hides a staged submodule commit, stops
 *    looking at untracked content in submodules under
 *    status.showUntrackedFiles=no, and asks each submodule with its own
 *    settings (a nested `git status`).
 *
 * So the two halves of a status are computed here with libgit2 diffs,
 * HEAD to index and index to work tree, with submodules taken out, and
 * submodules are judged by git's rules (wt-status.c, diff-lib.c
 * match_stat_with_submodule(), submodule.c is_submodule_modified()),
 * recursively.  t/t1401-capture-gitstate.sh compares the answer with
 * real git in every state listed there.
 */
#include "config.h"
#include "gitstate.h"
#include "repo.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a repository's status shows, as git's parent status sees it. */
enum {
	DIRT_MODIFIED = (1 << 0),	/* any change but untracked files */
	DIRT_UNTRACKED = (1 << 1),	/* untracked files or directories */
};

/* submodule.<name>.ignore and diff.ignoreSubmodules values. */
enum sm_ignore {
	SM_IGNORE_UNSET = -1,
	SM_IGNORE_NONE,
	SM_IGNORE_UNTRACKED,
	SM_IGNORE_DIRTY,
	SM_IGNORE_ALL,
};

/* Submodules inside submodules this deep are refused, not followed. */
#define MAX_SUBMODULE_DEPTH 32

struct dirt {
	git_repository *repo;	/* borrowed */
	git_index *index;	/* owned */
	git_config *cfg;	/* owned, a snapshot */
	git_config *gitmodules;	/* owned, NULL without .gitmodules */
	const char *workdir;	/* borrowed from repo, ends in '/' */
	int untracked;		/* list untracked files (-uno if 0) */
	int sparse_present;	/* skip-worktree files on disk count */
	int filemode;		/* core.fileMode */
	int first_only;		/* stop at the first change */
	int depth;
	unsigned bits;		/* DIRT_* found so far */
};

static int repo_dirt(unsigned *out, git_repository *repo, int no_untracked,
		     int first_only, int depth, struct strbuf *err);

static int done(const struct dirt *d)
{
	if (d->first_only)
		return d->bits != 0;
	return d->bits == (DIRT_MODIFIED | DIRT_UNTRACKED);
}

/* git_parse_maybe_bool(): 1, 0, or -1 when v is not a boolean. */
static int parse_bool(const char *v)
{
	char *end;
	long n;

	if (!*v)
		return 0;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on"))
		return 1;
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off"))
		return 0;
	n = strtol(v, &end, 10);
	if (end != v && !*end)
		return n != 0;
	return -1;
}

static enum sm_ignore parse_ignore(const char *v)
{
	if (!strcmp(v, "none"))
		return SM_IGNORE_NONE;
	if (!strcmp(v, "untracked"))
		return SM_IGNORE_UNTRACKED;
	if (!strcmp(v, "dirty"))
		return SM_IGNORE_DIRTY;
	if (!strcmp(v, "all"))
		return SM_IGNORE_ALL;
	return SM_IGNORE_UNSET;
}

/*
 * status.showUntrackedFiles: "no", "normal" or "all", and (git 2.46 on)
 * a boolean, false meaning "no" and true "normal".  Unset is "normal";
 * anything else makes git status fail, and us too.
 */
static int read_show_untracked(struct dirt *d, struct strbuf *err)
{
	git_config_entry *entry = NULL;
	const char *v;
	int rc, ret = -1;

	rc = repo_config_entry(&entry, d->cfg, "status.showUntrackedFiles", err);
	if (rc <= 0) {
		d->untracked = 1;
		ret = rc;
		goto out;
	}
	v = entry->value;
	if (!v) {
		strbuf_addstr(err, "status.showUntrackedFiles has no value "
			      "(git status fails the same way)");
		goto out;
	}
	switch (parse_bool(v)) {
	case 0:
		v = "no";
		break;
	case 1:
		v = "normal";
		break;
	}
	if (!strcmp(v, "no"))
		d->untracked = 0;
	else if (!strcmp(v, "normal") || !strcmp(v, "all"))
		d->untracked = 1;
	else {
		strbuf_addf(err, "invalid status.showUntrackedFiles '%s' "
			    "(git status fails the same way)", entry->value);
		goto out;
	}
	ret = 0;
out:
	git_config_entry_free(entry);
	return ret;
}

static int dirt_open(struct dirt *d, git_repository *repo, int no_untracked,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int sparse, expect_outside, ret = -1;

	d->repo = repo;
	d->workdir = git_repository_workdir(repo);
	if (!d->workdir) {
		strbuf_addstr(err, "no work tree");
		goto out;
	}
	if (git_repository_index(&d->index, repo) < 0) {
		strbuf_addf(err, "cannot read the index: %s", lg2_message());
		goto out;
	}
	if (git_repository_config_snapshot(&d->cfg, repo) < 0) {
		strbuf_addf(err, "cannot read the git configuration: %s",
			    lg2_message());
		goto out;
	}
	if (read_show_untracked(d, err))
		goto out;
	if (no_untracked)
		d->untracked = 0;
	if (repo_config_bool(&d->filemode, d->cfg, "core.fileMode", 1, err) ||
	    repo_config_bool(&sparse, d->cfg, "core.sparseCheckout", 0, err) ||
	    repo_config_bool(&expect_outside, d->cfg,
			"sparse.expectFilesOutsideOfPatterns", 0, err))
		goto out;
	d->sparse_present = sparse && !expect_outside;
	/*
	 * git reads .gitmodules from the work tree (from the index or HEAD
	 * only when the file is missing, a sparse checkout's case, which
	 * we read as no .gitmodules).
	 */
	strbuf_addf(&path, "%s.gitmodules", d->workdir);
	if (!lstat(path.buf, &st) && S_ISREG(st.st_mode) &&
	    git_config_open_ondisk(&d->gitmodules, path.buf) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path.buf,
			    lg2_message());
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

static void dirt_release(struct dirt *d)
{
	git_config_free(d->gitmodules);
	git_config_free(d->cfg);
	git_index_free(d->index);
	d->gitmodules = NULL;
	d->cfg = NULL;
	d->index = NULL;
}

static const git_index_entry *index_entry(const struct dirt *d,
					  const char *path)
{
	return git_index_get_bypath(d->index, path, 0);
}

/* Whether git leaves the entry out of the work tree comparison. */
static int skipped(const struct dirt *d, const git_index_entry *e)
{
	struct strbuf full = STRBUF_INIT;
	struct stat st;
	int ret;

	if (!(e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE))
		return 0;
	if (!d->sparse_present)
		return 1;
	strbuf_addf(&full, "%s%s", d->workdir, e->path);
	ret = lstat(full.buf, &st) != 0;
	strbuf_release(&full);
	return ret;
}

/*
 * A skip-worktree file present in a sparse checkout, which libgit2
 * skips and git compares like any other: type, executable bit, and
 * content after the clean filters.
 */
static int compare_present(struct dirt *d, const git_index_entry *e,
			   struct strbuf *err)
{
	struct strbuf full = STRBUF_INIT, target = STRBUF_INIT;
	struct stat st;
	git_oid oid;
	int ret = -1;

	strbuf_addf(&full, "%s%s", d->workdir, e->path);
	if (lstat(full.buf, &st)) {
		ret = 0;
		goto out;
	}
	if (e->mode == GIT_FILEMODE_LINK && S_ISLNK(st.st_mode)) {
		ssize_t n;

		strbuf_grow(&target, (size_t)st.st_size + 1);
		n = readlink(full.buf, target.buf, target.alloc - 1);
		if (n < 0) {
			strbuf_addf(err, "cannot read link '%s'", full.buf);
			goto out;
		}
		strbuf_setlen(&target, (size_t)n);
		if (git_odb_hash(&oid, target.buf, target.len,
				 GIT_OBJECT_BLOB) < 0)
			goto fail;
	} else if ((e->mode == GIT_FILEMODE_BLOB ||
		    e->mode == GIT_FILEMODE_BLOB_EXECUTABLE) &&
		   S_ISREG(st.st_mode)) {
		if (d->filemode &&
		    !(e->mode & 0100) != !(st.st_mode & 0100)) {
			d->bits |= DIRT_MODIFIED;
			ret = 0;
			goto out;
		}
		if (git_repository_hashfile(&oid, d->repo, e->path,
					    GIT_OBJECT_BLOB, NULL) < 0)
			goto fail;
	} else {
		/* another type than the index says */
		d->bits |= DIRT_MODIFIED;
		ret = 0;
		goto out;
	}
	if (!git_oid_equal(&oid, &e->id))
		d->bits |= DIRT_MODIFIED;
	ret = 0;
	goto out;
fail:
	strbuf_addf(err, "cannot hash '%s': %s", e->path, lg2_message());
out:
	strbuf_release(&target);
	strbuf_release(&full);
	return ret;
}

/* HEAD to index: anything staged, submodule commits included. */
static int index_side(struct dirt *d, struct strbuf *err)
{
	git_diff_options opts;
	git_diff *diff = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid oid;
	int rc, ret = -1;

	rc = git_reference_name_to_id(&oid, d->repo, "HEAD");
	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH)
		git_error_clear();	/* unborn: diff against nothing */
	else if (rc < 0 || git_commit_lookup(&commit, d->repo, &oid) < 0 ||
		 git_commit_tree(&tree, commit) < 0) {
		strbuf_addf(err, "cannot read HEAD's tree: %s", lg2_message());
		goto out;
	}
	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) < 0)
		goto fail;
	/*
	 * wt-status.c compares HEAD and the index with "dirty" whatever
	 * the configuration says, so that a staged submodule always shows.
	 */
	opts.ignore_submodules = GIT_SUBMODULE_IGNORE_DIRTY;
	if (git_diff_tree_to_index(&diff, d->repo, tree, d->index, &opts) < 0)
		goto fail;
	if (git_diff_num_deltas(diff) || git_index_has_conflicts(d->index))
		d->bits |= DIRT_MODIFIED;
	ret = 0;
	goto out;
fail:
	strbuf_addf(err, "cannot compare HEAD with the index: %s",
		    lg2_message());
out:
	git_diff_free(diff);
	git_tree_free(tree);
	git_commit_free(commit);
	return ret;
}

/*
 * Whether the directory at path (absolute) holds a repository of its
 * own, as git's is_nonbare_repository_dir() decides: its ".git" is a
 * repository or a file pointing to one.  A ".git" that libgit2 cannot
 * open for another reason (an extension it does not know, an owner)
 * still counts, as git only looks at the layout.
 */
static int is_nested_repo(const char *path)
{
	struct strbuf dotgit = STRBUF_INIT, err = STRBUF_INIT;
	git_repository *repo = NULL;
	struct stat st;
	int rc, ret = 0;

	strbuf_addf(&dotgit, "%s/.git", path);
	if (lstat(dotgit.buf, &st))
		goto out;
	rc = repo_open_git(&repo, path, REPO_EXACT | REPO_PATHS_ONLY, &err);
	if (rc < 0) {
		git_error_clear();
		ret = 1;
	} else if (!rc)
		ret = !git_repository_is_bare(repo);
out:
	git_repository_free(repo);
	strbuf_release(&dotgit);
	strbuf_release(&err);
	return ret;
}

/*
 * libgit2 leaves out an untracked directory that holds nothing but
 * (nested) repositories without files git would list, where git lists
 * it.  When everything else is clean, look for such a directory: an
 * untracked, unignored one that is a repository or holds one below
 * other such directories.  rel is the directory relative to the work
 * tree, "" or ending in '/'.  Returns 0 (setting DIRT_UNTRACKED when
 * found) or -1.
 */
static int find_nested_repo(struct dirt *d, struct strbuf *rel,
			    struct strbuf *err)
{
	struct strbuf full = STRBUF_INIT;
	size_t base = rel->len;
	DIR *dir = NULL;
	struct dirent *de;
	int ret = -1;

	strbuf_addf(&full, "%s%s", d->workdir, rel->buf);
	dir = opendir(full.buf);
	if (!dir) {
		/* git skips what it cannot read, and so do we */
		ret = 0;
		goto out;
	}
	while (!done(d) && (de = readdir(dir))) {
		struct stat st;
		size_t pos;
		int ignored, tracked;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git"))
			continue;
#ifdef DT_DIR
		/* only directories matter; spare the lstat of the rest */
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
#endif
		strbuf_setlen(rel, base);
		strbuf_addstr(rel, de->d_name);
		strbuf_reset(&full);
		strbuf_addf(&full, "%s%s", d->workdir, rel->buf);
		if (lstat(full.buf, &st) || !S_ISDIR(st.st_mode))
			continue;
		/* a gitlink is a submodule, judged elsewhere */
		if (index_entry(d, rel->buf))
			continue;
		strbuf_addch(rel, '/');
		tracked = !git_index_find_prefix(&pos, d->index, rel->buf);
		git_error_clear();
		if (!tracked) {
			if (git_ignore_path_is_ignored(&ignored, d->repo,
						       rel->buf) < 0) {
				strbuf_addf(err, "cannot read ignore rules: %s",
					    lg2_message());
				goto out;
			}
			if (ignored)
				continue;
			if (is_nested_repo(full.buf)) {
				d->bits |= DIRT_UNTRACKED;
				break;
			}
		}
		if (find_nested_repo(d, rel, err))
			goto out;
	}
	ret = 0;
out:
	if (dir)
		closedir(dir);
	strbuf_setlen(rel, base);
	strbuf_release(&full);
	return ret;
}

/* Index to work tree, submodules left for submodule_side(). */
static int worktree_side(struct dirt *d, struct strbuf *err)
{
	git_diff_options opts;
	git_diff *diff = NULL;
	size_t i, n;
	int ret = -1;

	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) < 0)
		goto fail;
	/*
	 * Not RECURSE_UNTRACKED_DIRS: "dir/" says as much as its files.
	 * Submodules are left to submodules(); telling libgit2 to ignore
	 * them also keeps it from reading their configuration, where
	 * libgit2 1.5 leaks the match data of every regex that misses.
	 */
	if (d->untracked)
		opts.flags |= GIT_DIFF_INCLUDE_UNTRACKED;
	opts.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
	if (git_diff_index_to_workdir(&diff, d->repo, d->index, &opts) < 0)
		goto fail;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n && !done(d); i++) {
		const git_diff_delta *delta = git_diff_get_delta(diff, i);
		const char *path = delta->old_file.path ?
				   delta->old_file.path : delta->new_file.path;
		const git_index_entry *e = index_entry(d, path);

		if (e && (e->mode == GIT_FILEMODE_COMMIT || skipped(d, e)))
			continue;
		if (delta->status == GIT_DELTA_UNTRACKED && !e)
			d->bits |= DIRT_UNTRACKED;
		else if (delta->status != GIT_DELTA_UNMODIFIED &&
			 delta->status != GIT_DELTA_IGNORED)
			d->bits |= DIRT_MODIFIED;
	}
	n = d->sparse_present ? git_index_entrycount(d->index) : 0;
	for (i = 0; i < n && !done(d); i++) {
		const git_index_entry *e = git_index_get_byindex(d->index, i);

		if (e && git_index_entry_stage(e) == 0 &&
		    e->mode != GIT_FILEMODE_COMMIT &&
		    (e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) &&
		    compare_present(d, e, err))
			goto out;
	}
	ret = 0;
	goto out;
fail:
	strbuf_addf(err, "cannot compare the index with the work tree: %s",
		    lg2_message());
out:
	git_diff_free(diff);
	return ret;
}

/*
 * The name .gitmodules gives the submodule at path, as git's
 * submodule_from_path() finds it; NULL when none does.  The caller frees
 * the result.
 */
static char *submodule_name(const struct dirt *d, const char *path,
			    struct strbuf *err, int *failed)
{
	git_config_iterator *it = NULL;
	git_config_entry *entry;
	char *name = NULL;
	int rc;

	*failed = 0;
	if (!d->gitmodules)
		return NULL;
	/* all entries: libgit2 1.5 leaks a glob iterator's match data */
	if (git_config_iterator_new(&it, d->gitmodules) < 0) {
		strbuf_addf(err, "cannot read .gitmodules: %s", lg2_message());
		*failed = 1;
		return NULL;
	}
	/* the last section naming the path wins, as in git */
	while (!(rc = git_config_next(&entry, it))) {
		size_t len = strlen(entry->name);

		if (len <= 10 + 5 || strncmp(entry->name, "submodule.", 10) ||
		    strcmp(entry->name + len - 5, ".path") ||
		    !entry->value || strcmp(entry->value, path))
			continue;
		free(name);
		/* "submodule." name ".path" */
		name = xmemdupz(entry->name + 10, len - 10 - 5);
	}
	if (rc != GIT_ITEROVER) {
		strbuf_addf(err, "cannot read .gitmodules: %s", lg2_message());
		*failed = 1;
		free(name);
		name = NULL;
	}
	git_config_iterator_free(it);
	return name;
}

/*
 * The flags git's diff of the work tree applies to the submodule at
 * path: diff.ignoreSubmodules or "none" as the base (nothing under
 * -uno, which only stops untracked files from counting), then
 * submodule.<name>.ignore from the configuration, else from .gitmodules,
 * replacing the base wholesale.  Returns 0 and *ignore, *no_untracked,
 * or -1 for a value git dies on.
 */
static int submodule_ignore(const struct dirt *d, const char *path,
			    enum sm_ignore *ignore, int *no_untracked,
			    struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	git_config_entry *entry = NULL;
	char *name = NULL;
	enum sm_ignore v = SM_IGNORE_NONE, sub = SM_IGNORE_UNSET;
	int rc, failed, ret = -1;

	rc = repo_config_entry(&entry, d->cfg, "diff.ignoreSubmodules", err);
	if (rc < 0)
		goto out;
	if (rc) {
		v = entry->value ? parse_ignore(entry->value) :
		    SM_IGNORE_UNSET;
		if (v == SM_IGNORE_UNSET) {
			strbuf_addf(err, "invalid diff.ignoreSubmodules '%s' "
				    "(git status fails the same way)",
				    entry->value ? entry->value : "");
			goto out;
		}
	}
	*no_untracked = !d->untracked || v == SM_IGNORE_UNTRACKED;

	name = submodule_name(d, path, err, &failed);
	if (failed)
		goto out;
	if (name) {
		strbuf_addf(&key, "submodule.%s.ignore", name);
		git_config_entry_free(entry);
		entry = NULL;
		rc = repo_config_entry(&entry, d->cfg, key.buf, err);
		if (rc < 0)
			goto out;
		if (rc) {
			sub = entry->value ? parse_ignore(entry->value) :
			      SM_IGNORE_UNSET;
			if (sub == SM_IGNORE_UNSET) {
				strbuf_addf(err, "invalid %s '%s' (git status "
					    "fails the same way)", key.buf,
					    entry->value ? entry->value : "");
				goto out;
			}
		} else {
			git_config_entry_free(entry);
			entry = NULL;
			/* git warns about a bad value here and ignores it */
			rc = repo_config_entry(&entry, d->gitmodules, key.buf, err);
			if (rc < 0)
				goto out;
			if (rc && entry->value)
				sub = parse_ignore(entry->value);
		}
	}
	if (sub != SM_IGNORE_UNSET) {
		v = sub;
		*no_untracked = v == SM_IGNORE_UNTRACKED;
	}
	*ignore = v;
	ret = 0;
out:
	git_config_entry_free(entry);
	strbuf_release(&key);
	free(name);
	return ret;
}

/* One gitlink of the index, as match_stat_with_submodule() judges it. */
static int submodule_side(struct dirt *d, const git_index_entry *e,
			  struct strbuf *err)
{
	struct strbuf full = STRBUF_INIT, open_err = STRBUF_INIT;
	git_repository *sub = NULL;
	enum sm_ignore ignore;
	struct stat st;
	git_oid head;
	unsigned bits = 0;
	int no_untracked, rc, ret = -1;

	if (submodule_ignore(d, e->path, &ignore, &no_untracked, err))
		goto out;
	if (ignore == SM_IGNORE_ALL) {
		ret = 0;
		goto out;
	}
	strbuf_addf(&full, "%s%s", d->workdir, e->path);
	/* gone, or no longer a directory */
	if (lstat(full.buf, &st) || !S_ISDIR(st.st_mode)) {
		d->bits |= DIRT_MODIFIED;
		ret = 0;
		goto out;
	}
	rc = repo_open_git(&sub, full.buf, REPO_EXACT, &open_err);
	if (rc > 0) {
		/* not checked out: git takes it as matching */
		ret = 0;
		goto out;
	}
	if (rc < 0) {
		strbuf_addf(err, "cannot open submodule '%s': %s", e->path,
			    open_err.buf);
		goto out;
	}
	/* new commits; an unborn HEAD counts as matching */
	rc = git_reference_name_to_id(&head, sub, "HEAD");
	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH)
		git_error_clear();
	else if (rc < 0) {
		strbuf_addf(err, "cannot read HEAD of submodule '%s': %s",
			    e->path, lg2_message());
		goto out;
	} else if (!git_oid_equal(&head, &e->id))
		d->bits |= DIRT_MODIFIED;
	if (ignore == SM_IGNORE_DIRTY || done(d)) {
		ret = 0;
		goto out;
	}
	if (git_repository_is_bare(sub)) {
		ret = 0;
		goto out;
	}
	if (d->depth + 1 >= MAX_SUBMODULE_DEPTH) {
		strbuf_addf(err, "submodules nested more than %d deep",
			    MAX_SUBMODULE_DEPTH);
		goto out;
	}
	if (repo_dirt(&bits, sub, no_untracked, 0, d->depth + 1, err)) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addbuf(&why, err);
		strbuf_reset(err);
		strbuf_addf(err, "submodule '%s': %s", e->path, why.buf);
		strbuf_release(&why);
		goto out;
	}
	d->bits |= bits;
	ret = 0;
out:
	git_repository_free(sub);
	strbuf_release(&full);
	strbuf_release(&open_err);
	return ret;
}

static int submodules(struct dirt *d, struct strbuf *err)
{
	size_t i, n = git_index_entrycount(d->index);

	for (i = 0; i < n && !done(d); i++) {
		const git_index_entry *e = git_index_get_byindex(d->index, i);

		if (!e || e->mode != GIT_FILEMODE_COMMIT ||
		    git_index_entry_stage(e) != 0 || skipped(d, e))
			continue;
		if (submodule_side(d, e, err))
			return -1;
	}
	return 0;
}

/*
 * What `git status` finds in repo (a work tree): DIRT_* bits in *out.
 * no_untracked is -uno; first_only stops at the first change.
 */
static int repo_dirt(unsigned *out, git_repository *repo, int no_untracked,
		     int first_only, int depth, struct strbuf *err)
{
	struct dirt d = { 0 };
	struct strbuf rel = STRBUF_INIT;
	int ret = -1;

	d.first_only = first_only;
	d.depth = depth;
	if (dirt_open(&d, repo, no_untracked, err))
		goto out;
	if (index_side(&d, err))
		goto out;
	if (!done(&d) && worktree_side(&d, err))
		goto out;
	if (!done(&d) && submodules(&d, err))
		goto out;
	if (!(d.bits & DIRT_UNTRACKED) && d.untracked && !done(&d) &&
	    find_nested_repo(&d, &rel, err))
		goto out;
	*out = d.bits;
	ret = 0;
out:
	strbuf_release(&rel);
	dirt_release(&d);
	return ret;
}

int gitstate_read(struct gitstate *out, const char *dir, struct strbuf *err)
{
	struct repo repo = REPO_INIT;
	git_oid oid;
	unsigned bits;
	int rc, ret = -1;

	out->commit[0] = '\0';
	out->dirty = -1;
	rc = repo_open(&repo, dir, 0, err);
	if (rc) {
		ret = rc > 0 ? 0 : -1;
		goto out;
	}
	/*
	 * `git status` refuses to run without a work tree, so the
	 * reference has no answer there; record neither, as on an unborn
	 * branch.
	 */
	rc = repo.workdir.len ? git_repository_head_unborn(repo.git) : 1;
	if (rc < 0) {
		strbuf_addf(err, "cannot read HEAD: %s", lg2_message());
		goto out;
	}
	if (rc == 1) {
		ret = 0;
		goto out;
	}
	/* rev-parse HEAD prints what HEAD resolves to, unpeeled. */
	if (git_reference_name_to_id(&oid, repo.git, "HEAD") < 0) {
		strbuf_addf(err, "cannot resolve HEAD: %s", lg2_message());
		goto out;
	}
	if (repo_dirt(&bits, repo.git, 0, 1, 0, err))
		goto out;
	git_oid_tostr(out->commit, sizeof(out->commit), &oid);
	out->dirty = bits != 0;
	ret = 0;
out:
	repo_release(&repo);
	return ret;
}
