/*
 * Paths of the index that a checkout did not write as files (checkedout.h).
 */
#include "config.h"
#include "checkedout.h"
#include "fs/path.h"
#include "repo.h"

#include <string.h>
#include <sys/stat.h>

/*
 * The entry for rel or, with dir set, the sparse-directory entry
 * "rel/" of a sparse index; NULL when there is none.
 */
static const git_index_entry *entry_for(git_index *idx, struct strbuf *sb,
					const char *rel, size_t len, int dir)
{
	strbuf_reset(sb);
	strbuf_add(sb, rel, len);
	if (dir)
		strbuf_addch(sb, '/');
	return git_index_get_bypath(idx, sb->buf, 0);
}

static enum checkedout state_in(struct repo *r, const char *rel,
				const char *file)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	git_index *idx = NULL;
	const git_index_entry *e;
	enum checkedout ret = CHECKEDOUT_AS_WRITTEN;
	const char *p;
	int symlinks = 1;
	struct stat st;

	if (git_repository_index(&idx, r->git) < 0)
		goto out;
	/* the file itself, then each directory on the way */
	for (p = rel + strlen(rel); ; p--) {
		if (p == rel + strlen(rel) || *p == '/') {
			size_t n = (size_t)(p - rel);

			e = entry_for(idx, &sb, rel, n, 0);
			if (!e && p != rel + strlen(rel))
				e = entry_for(idx, &sb, rel, n, 1);
			if (e && (e->flags_extended &
				  GIT_INDEX_ENTRY_SKIP_WORKTREE)) {
				ret = CHECKEDOUT_SPARSE;
				goto out;
			}
			if (e && S_ISLNK(e->mode) &&
			    !repo_config_bool_at(&symlinks, r, "core.symlinks",
						 1, &err) &&
			    !symlinks && !lstat(file, &st) &&
			    !S_ISLNK(st.st_mode)) {
				ret = CHECKEDOUT_LINK_AS_FILE;
				goto out;
			}
		}
		if (p == rel)
			break;
	}
out:
	git_error_clear();
	git_index_free(idx);
	strbuf_release(&sb);
	strbuf_release(&err);
	return ret;
}

enum checkedout checkedout_state(const char *root, const char *rel)
{
	struct repo r = REPO_INIT;
	struct strbuf err = STRBUF_INIT, abs = STRBUF_INIT;
	enum checkedout ret = CHECKEDOUT_AS_WRITTEN;
	const char *in;

	if (repo_open(&r, root, 0, &err) || !r.workdir.len)
		goto out;
	path_resolve(&abs, root, rel);
	in = path_inside(abs.buf, r.workdir.buf);
	if (in && *in)
		ret = state_in(&r, in, abs.buf);
out:
	git_error_clear();
	repo_release(&r);
	strbuf_release(&err);
	strbuf_release(&abs);
	return ret;
}

const char *checkedout_reason(enum checkedout state)
{
	switch (state) {
	case CHECKEDOUT_SPARSE:
		return "not checked out (outside the sparse checkout); not "
			"verified";
	case CHECKEDOUT_LINK_AS_FILE:
		return "a symlink in the index, checked out as a text file "
			"holding its target (core.symlinks=false); not "
			"verified";
	default:
		return "";
	}
}
