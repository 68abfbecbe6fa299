#include "config.h"
#include "inputpath.h"
#include "hash/hashfile.h"
#include "git/lfs.h"
#include "fs/readfile.h"
#include "root.h"
#include "git/treepath.h"
#include "usage.h"
#include "fs/path.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void resolved_input_release(struct resolved_input *in)
{
	strbuf_release(&in->shown);
	strbuf_release(&in->rel);
	strbuf_release(&in->file);
	strbuf_release(&in->why);
}

enum kind { K_NONE, K_FILE, K_OTHER, K_LOOP, K_OUTSIDE, K_GITDIR };

/*
 * What rel (relative to root) names: in the work tree the real path must
 * stay inside the root; in a commit tree symlinks are not followed.
 */
static enum kind probe(const char *root, const char *rel,
		       const struct input_tree *tree, int allow_outside,
		       struct strbuf *file)
{
	struct strbuf path = STRBUF_INIT;
	enum kind k;

	if (tree) {
		struct treepath tp = TREEPATH_INIT;
		size_t pl = strlen(tree->prefix);

		/* Symlinks stored in the tree are followed, as a checkout would. */
		strbuf_addf(&path, "%s%s", tree->prefix, rel);
		treepath_resolve(&tp, tree->repo, tree->index ? NULL : tree->tree,
				 tree->index, path.buf);
		switch (tp.status) {
		case TREEPATH_OK:
			k = K_FILE;
			/* like realpath() in the work tree: stay in the root */
			if (strncmp(tp.path.buf, tree->prefix, pl) &&
			    !allow_outside)
				k = K_OUTSIDE;
			break;
		case TREEPATH_NOT_FOUND:
			k = K_NONE;
			break;
		case TREEPATH_LOOP:
			k = K_LOOP;
			break;
		case TREEPATH_OUTSIDE:
			k = K_OUTSIDE;
			break;
		default:
			k = K_OTHER;
		}
		if (file) {
			strbuf_reset(file);
			strbuf_addbuf(file, &tp.path);
		}
		treepath_release(&tp);
	} else {
		char *real;
		struct stat st;

		strbuf_addf(&path, "%s/%s", root, rel);
		real = realpath(path.buf, NULL);
		if (!real)
			k = errno == ELOOP ? K_LOOP : K_NONE;
		else if (!allow_outside && !path_is_within(real, root))
			k = K_OUTSIDE;
		else if (!allow_outside && path_in_git_dir(real + strlen(root)))
			k = K_GITDIR;	/* no symlink needed: say what it is */
		else if (stat(real, &st) || !S_ISREG(st.st_mode))
			k = K_OTHER;
		else
			k = K_FILE;
		if (file) {
			strbuf_reset(file);
			strbuf_addstr(file, real ? real : path.buf);
		}
		free(real);
	}
	strbuf_release(&path);
	return k;
}

static void set_status(struct resolved_input *out, enum kind k)
{
	switch (k) {
	case K_FILE:
		out->status = INPUT_OK;
		break;
	case K_NONE:
		out->status = INPUT_NOT_FOUND;
		break;
	case K_LOOP:
		out->status = INPUT_LOOP;
		strbuf_addstr(&out->why, "symlink loop");
		break;
	case K_OUTSIDE:
		out->status = INPUT_OUTSIDE;
		strbuf_addstr(&out->why, "a symlink leads out of the root");
		break;
	case K_GITDIR:
		out->status = INPUT_OUTSIDE;
		strbuf_addstr(&out->why, "inside a .git directory");
		break;
	case K_OTHER:
		out->status = INPUT_BAD;
		strbuf_addstr(&out->why, "not a regular file");
		break;
	}
}

const char *reroot_start(const char *recorded, const char *root)
{
	size_t len = strlen(recorded), need = strlen(root) + 2;
	size_t room = PATH_MAX > need ? PATH_MAX - need : 0;

	if (!len)
		return recorded;
	if (len - 1 > room)
		return recorded + (len - 1 - room);
	return recorded + 1;
}

void input_resolve(struct resolved_input *out, const char *root,
		   const char *recorded, const struct input_tree *tree,
		   int allow_outside)
{
	struct strbuf probe_path = STRBUF_INIT, found = STRBUF_INIT;
	struct strbuf list = STRBUF_INIT;
	const char *p;
	int matches = 0;

	path_resolve(&out->shown, root, recorded);
	if (recorded[0] != '/' || path_is_within(out->shown.buf, root)) {
		const char *rel = out->shown.buf + strlen(root);

		if (!path_is_within(out->shown.buf, root)) {
			if (!allow_outside || tree) {
				out->status = INPUT_OUTSIDE;
				strbuf_addstr(&out->why, "the path leaves the root");
				goto out;
			}
			strbuf_addbuf(&out->file, &out->shown);
			out->status = probe("/", out->shown.buf + 1, NULL, 1,
					    &out->file) == K_FILE ?
				      INPUT_OK : INPUT_NOT_FOUND;
			goto out;
		}
		while (*rel == '/')
			rel++;
		strbuf_addstr(&out->rel, rel);
		set_status(out, probe(root, rel, tree, allow_outside,
				      &out->file));
		goto out;
	}

	/*
	 * An absolute path outside the root, as CI runners record them:
	 * look for suffixes of it under the root.  More than one match is
	 * ambiguous; we do not guess.
	 */
	for (p = strchr(reroot_start(recorded, root), '/'); p;
	     p = strchr(p + 1, '/')) {
		const char *cand = p + 1;

		if (!*cand)
			continue;
		/* Most suffixes name nothing: one lstat() says so. */
		if (!tree) {
			struct stat st;

			strbuf_reset(&probe_path);
			strbuf_addf(&probe_path, "%s/%s", root, cand);
			if (lstat(probe_path.buf, &st))
				continue;
		}
		if (probe(root, cand, tree, 0, NULL) == K_FILE) {
			if (!matches++)
				strbuf_addstr(&found, cand);
			strbuf_addf(&list, "%s%s", list.len ? ", " : "", cand);
		}
	}
	if (matches == 1) {
		out->rerooted = 1;
		strbuf_addbuf(&out->rel, &found);
		set_status(out, probe(root, found.buf, tree, 0, &out->file));
		goto out;
	}
	if (matches > 1) {
		strbuf_addf(&out->why, "several files under the root match "
			    "the recorded path: %s", list.buf);
		out->status = INPUT_AMBIGUOUS;
		goto out;
	}
	/*
	 * No suffix matches.  A file there is outside the root: refused
	 * unless allowed (a sidecar from a pull request must not make CI
	 * read /etc/shadow).  Nothing there: not found, as the reference
	 * says.
	 */
	if (!tree && probe("/", recorded + 1, NULL, 1, &out->file) != K_NONE) {
		if (allow_outside) {
			out->status = INPUT_OK;
			goto out;
		}
		out->status = INPUT_OUTSIDE;
		strbuf_addstr(&out->why, "an absolute path outside the root");
		goto out;
	}
	out->status = INPUT_NOT_FOUND;
out:
	strbuf_release(&probe_path);
	strbuf_release(&found);
	strbuf_release(&list);
}

/*
 * A work tree file that is a git-lfs pointer was never checked out (a CI
 * checkout without LFS): its content is the object, read as a checkout
 * would write it, or an error when it is not here.  The file is buf's
 * bytes from start on.
 */
static int worktree_pointer(struct strbuf *buf, size_t start,
			    const char *file, size_t max, struct strbuf *err)
{
	struct strbuf content = STRBUF_INIT, rel = STRBUF_INIT;
	struct lfs_pointer ptr;
	int ret = 0;

	switch (lfs_read_file(&content, &rel, &ptr, file, buf->buf + start,
			      buf->len - start, max, err)) {
	case LFS_SMUDGED:
		strbuf_setlen(buf, start);
		strbuf_addbuf(buf, &content);
		break;
	case LFS_ABSENT:
		strbuf_addstr(err, "not checked out: ");
		lfs_absent_reason(err, rel.buf, &ptr);
		ret = -1;
		break;
	case LFS_ERROR:
		ret = -1;
		break;
	}
	strbuf_release(&content);
	strbuf_release(&rel);
	return ret;
}

int input_read(struct strbuf *buf, const struct resolved_input *in,
	       const struct input_tree *tree, size_t max, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	size_t start = buf->len;
	int ret;

	if (!tree) {
		switch (read_file_limited(buf, in->file.buf, max, err)) {
		case 0:
			break;
		case INPUT_ETOOBIG:
			return INPUT_READ_TOOBIG;
		default:
			return -1;
		}
		return worktree_pointer(buf, start, in->file.buf, max, err);
	}
	strbuf_addf(&path, "%s%s", tree->prefix, in->rel.buf);
	ret = input_tree_read(buf, tree, path.buf, max, err);
	if (ret == INPUT_TREE_TOOBIG) {
		strbuf_addstr(err, "larger than the limit of ");
		format_size(err, max);
		strbuf_addstr(err, " for structured inputs");
		ret = INPUT_READ_TOOBIG;
	}
	strbuf_release(&path);
	return ret;
}

int input_hash_raw(char *out, const struct resolved_input *in,
		   const struct input_tree *tree, struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT;
	struct stat st;
	int ret = -1;

	if (!tree && !stat(in->file.buf, &st) && st.st_size >= LFS_POINTER_MAX)
		return hash_file(out, in->file.buf, HASH_RAW, 0, err) ? -1 : 0;
	if (!input_read(&raw, in, tree, 0, err) &&
	    !hash_raw_bytes(out, raw.buf, raw.len, err))
		ret = 0;
	strbuf_release(&raw);
	return ret;
}
