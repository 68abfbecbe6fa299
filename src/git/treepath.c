/*
 * Following symlinks inside a tree or the index (see treepath.h).
 *
 * The walk keeps two parts: `cur`, the directory reached so far (no link
 * in it, every component a directory of the tree), and `rest`, what is
 * left to walk.  Each component is copied once and looked up in its own
 * directory's tree, so a path costs time linear in its length (and no
 * walk goes deeper than PATH_MAX, the deepest a checkout can write).  A link found at cur/comp puts its target in front of
 * rest and the walk goes on from cur, the link's directory: ".." then
 * climbs from where the link's target really is, as the kernel does.
 */
#include "config.h"
#include "treepath.h"
#include "checkout.h"
#include "lfs.h"
#include "repo.h"
#include "usage.h"

#include <limits.h>
#include <string.h>
#include <strings.h>

/* A link target longer than this cannot be a path (PATH_MAX). */
#define LINK_MAX 4096

enum entry_kind { E_NONE, E_DIR, E_FILE, E_LINK, E_GITLINK };

/*
 * What name is in the directory: dir is its tree (tree mode), path the
 * directory and name joined (index mode, where only files are listed).
 */
static enum entry_kind lookup(git_tree *dir, git_index *index,
			      const char *path, const char *name,
			      git_oid *id, unsigned *mode)
{
	if (!dir) {
		const git_index_entry *e = git_index_get_bypath(index, path, 0);
		struct strbuf sub = STRBUF_INIT;
		size_t pos;
		int found;

		if (e) {
			git_oid_cpy(id, &e->id);
			*mode = e->mode;
			if (e->mode == GIT_FILEMODE_LINK)
				return E_LINK;
			return e->mode == GIT_FILEMODE_COMMIT ? E_GITLINK :
			       E_FILE;
		}
		/* The index lists files only: a directory is a prefix. */
		strbuf_addf(&sub, "%s/", path);
		found = !git_index_find_prefix(&pos, index, sub.buf);
		strbuf_release(&sub);
		return found ? E_DIR : E_NONE;
	} else {
		const git_tree_entry *e = git_tree_entry_byname(dir, name);

		if (!e)
			return E_NONE;
		git_oid_cpy(id, git_tree_entry_id(e));
		*mode = git_tree_entry_filemode(e);
		switch (git_tree_entry_type(e)) {
		case GIT_OBJECT_TREE:
			return E_DIR;
		case GIT_OBJECT_COMMIT:
			return E_GITLINK;
		default:
			return *mode == GIT_FILEMODE_LINK ? E_LINK : E_FILE;
		}
	}
}

/*
 * Take the first component of what is left of rest (from *pos) into
 * comp, and move *pos past it: each component is copied once, so a long
 * path costs time linear in its length.
 */
static void take_component(struct strbuf *comp, const struct strbuf *rest,
			   size_t *pos)
{
	const char *p = rest->buf + *pos;
	size_t left = rest->len - *pos;
	const char *slash = memchr(p, '/', left);
	size_t n = slash ? (size_t)(slash - p) : left;

	strbuf_reset(comp);
	strbuf_add(comp, p, n);
	*pos += slash ? n + 1 : n;
}

static void fail(struct treepath *out, enum treepath_status status,
		 const char *path, const char *why)
{
	out->status = status;
	strbuf_reset(&out->path);
	strbuf_addstr(&out->path, path);
	strbuf_addstr(&out->why, why);
}

/*
 * In a tree, the trees of the directories the walk is in, the top first
 * (borrowed) and the others owned: each component is looked up in its
 * own directory, not from the top again.
 */
struct dir_stack {
	git_tree **v;
	size_t nr, alloc;
};

/* Enter the directory cand, whose tree is id. */
static int dir_push(struct treepath *out, git_repository *repo,
		    struct dir_stack *d, const git_oid *id, const char *cand)
{
	git_tree *sub = NULL;

	if (git_tree_lookup(&sub, repo, id) < 0) {
		fail(out, TREEPATH_NOT_FOUND, cand, "");
		strbuf_addf(&out->why, "cannot read the directory %s: %s",
			    cand, lg2_message());
		return -1;
	}
	ALLOC_GROW(d->v, d->nr + 1, d->alloc);
	d->v[d->nr++] = sub;
	return 0;
}

/*
 * cand becomes the directory reached (its first curlen bytes) with comp
 * appended.  Returns 1 when the walk ends there (out says why): a ".git"
 * component, or a path no checkout can write.
 */
static int add_component(struct treepath *out, const char *path,
			 struct strbuf *cand, const struct strbuf *comp,
			 size_t curlen)
{
	/* git refuses such entries; a link may still point there */
	if (!strcasecmp(comp->buf, ".git")) {
		fail(out, TREEPATH_OUTSIDE, path, "a symlink leads into the "
		     "git directory");
		return 1;
	}
	if (curlen)
		strbuf_addch(cand, '/');
	strbuf_addbuf(cand, comp);
	/*
	 * A checkout cannot write a path this long (PATH_MAX), so nothing
	 * is there; it also bounds the walk in a tree that nests
	 * directories deeper than any checkout.
	 */
	if (cand->len >= PATH_MAX) {
		fail(out, TREEPATH_NOT_FOUND, cand->buf, "a path longer than a "
		     "checkout can write");
		return 1;
	}
	return 0;
}

/*
 * The link at cand (its blob id): its target goes in front of what is
 * left of rest (from *pos), which the walk goes on with from the link's
 * directory.  comp is scratch space.  Returns 0 to go on, 1 when the
 * walk ends here (out says why), -1 when the link cannot be read.
 */
static int follow_link(struct treepath *out, git_repository *repo,
		       const git_oid *id, const char *cand,
		       struct strbuf *rest, size_t *pos, struct strbuf *comp)
{
	git_blob *b = NULL;
	const char *t;
	size_t n;
	int ret = 1;

	if (git_blob_lookup(&b, repo, id) < 0) {
		fail(out, TREEPATH_NOT_FOUND, cand, "");
		strbuf_addf(&out->why, "cannot read the symlink %s: %s", cand,
			    lg2_message());
		return -1;
	}
	t = git_blob_rawcontent(b);
	n = (size_t)git_blob_rawsize(b);
	if (!n || n > LINK_MAX || memchr(t, '\0', n)) {
		fail(out, TREEPATH_NOT_FOUND, cand, "a symlink whose target is "
		     "no path");
		goto out;
	}
	if (*t == '/') {
		fail(out, TREEPATH_OUTSIDE, cand, "a symlink to an absolute "
		     "path leaves the repository");
		goto out;
	}
	strbuf_reset(comp);
	strbuf_add(comp, t, n);
	if (*pos < rest->len) {
		strbuf_addch(comp, '/');
		strbuf_add(comp, rest->buf + *pos, rest->len - *pos);
	}
	strbuf_reset(rest);
	strbuf_addbuf(rest, comp);
	*pos = 0;
	ret = 0;
out:
	git_blob_free(b);
	return ret;
}

int treepath_resolve(struct treepath *out, git_repository *repo,
		     git_tree *tree, git_index *index, const char *path)
{
	struct strbuf rest = STRBUF_INIT, comp = STRBUF_INIT;
	/*
	 * cand is cur (the directory reached, its first curlen bytes) with
	 * the component looked at appended: cur is never copied again.
	 */
	struct strbuf cand = STRBUF_INIT;
	size_t curlen = 0;
	struct dir_stack dirs = { NULL, 0, 0 };
	size_t pos = 0, i;
	int hops = 0, ret = 0, rc;

	out->status = TREEPATH_OK;
	strbuf_addstr(&rest, path);
	if (tree) {
		ALLOC_GROW(dirs.v, 1, dirs.alloc);
		dirs.v[dirs.nr++] = tree;
	}
	for (;;) {
		git_oid id;
		unsigned mode = 0;
		enum entry_kind k;

		strbuf_setlen(&cand, curlen);
		if (pos >= rest.len) {
			/* The path named a directory (or the top). */
			fail(out, TREEPATH_NOT_FILE, cand.buf,
			     "not a regular file");
			break;
		}
		take_component(&comp, &rest, &pos);
		if (!comp.len || !strcmp(comp.buf, "."))
			continue;
		if (!strcmp(comp.buf, "..")) {
			char *slash = strrchr(cand.buf, '/');

			if (!curlen) {
				fail(out, TREEPATH_OUTSIDE, path, "a symlink "
				     "leads out of the repository");
				break;
			}
			curlen = slash ? (size_t)(slash - cand.buf) : 0;
			if (tree)
				git_tree_free(dirs.v[--dirs.nr]);
			continue;
		}
		if (add_component(out, path, &cand, &comp, curlen))
			break;
		k = lookup(tree ? dirs.v[dirs.nr - 1] : NULL, index, cand.buf,
			   comp.buf, &id, &mode);
		if (k == E_NONE || (k == E_FILE && pos < rest.len)) {
			fail(out, TREEPATH_NOT_FOUND, cand.buf, k == E_NONE ?
			     "not found" : "not a directory");
			break;
		}
		if (k == E_DIR) {
			if (tree && dir_push(out, repo, &dirs, &id, cand.buf)) {
				ret = -1;
				break;
			}
			curlen = cand.len;
			continue;
		}
		if (k == E_GITLINK) {
			fail(out, TREEPATH_NOT_FILE, cand.buf, "a submodule");
			break;
		}
		if (k == E_FILE) {
			strbuf_reset(&out->path);
			strbuf_addbuf(&out->path, &cand);
			git_oid_cpy(&out->id, &id);
			out->mode = mode;
			break;
		}
		/* A link: its target goes in front of what is left. */
		if (++hops > TREEPATH_MAX_HOPS) {
			fail(out, TREEPATH_LOOP, cand.buf, "too many levels of "
			     "symlinks (a symlink loop)");
			break;
		}
		ALLOC_GROW(out->links, out->nr_links + 1, out->alloc_links);
		out->links[out->nr_links++] = xstrdup(cand.buf);
		rc = follow_link(out, repo, &id, cand.buf, &rest, &pos, &comp);
		if (rc) {
			ret = rc < 0 ? -1 : 0;
			break;
		}
	}
	for (i = 1; i < dirs.nr; i++)
		git_tree_free(dirs.v[i]);
	free(dirs.v);
	strbuf_release(&rest);
	strbuf_release(&comp);
	strbuf_release(&cand);
	return ret;
}

void treepath_release(struct treepath *tp)
{
	size_t i;

	for (i = 0; i < tp->nr_links; i++)
		free(tp->links[i]);
	free(tp->links);
	tp->links = NULL;
	tp->nr_links = tp->alloc_links = 0;
	strbuf_release(&tp->path);
	strbuf_release(&tp->why);
}

int treepath_uses(const struct treepath *tp, const char *path)
{
	size_t i;

	if (!strcmp(tp->path.buf, path))
		return 1;
	for (i = 0; i < tp->nr_links; i++)
		if (!strcmp(tp->links[i], path))
			return 1;
	return 0;
}

/*
 * The bytes a checkout writes for blob, found at path (where the
 * symlinks led: its attributes count): a git-lfs pointer read through
 * with the attributes of commit (NULL: of the index), other content at
 * most max bytes (0: no limit).  Returns 0, INPUT_TREE_TOOBIG, or -1
 * with a reason in err.
 */
static int checkout_blob(struct strbuf *out, git_repository *repo,
			 git_blob *blob, const git_oid *commit,
			 const char *path, size_t max, struct strbuf *err)
{
	const void *data = git_blob_rawcontent(blob);
	size_t len = (size_t)git_blob_rawsize(blob);
	struct lfs_pointer ptr;

	switch (lfs_read(out, &ptr, repo, commit, path, data, len, max, err)) {
	case LFS_SMUDGED:
		return 0;
	case LFS_ABSENT:
		lfs_absent_reason(err, path, &ptr);
		return -1;
	case LFS_CONTENT:
		break;
	default:
		return -1;
	}
	/* end of line, ident: as a checkout writes it (checkout.h) */
	switch (checkout_bytes(out, repo, blob, path, commit, max, err)) {
	case 0:
		return 0;
	case CHECKOUT_TOOBIG:
		return INPUT_TREE_TOOBIG;
	default:
		return -1;
	}
}

int treepath_read(struct strbuf *out, struct treepath *tp,
		  git_repository *repo, git_tree *tree, const git_oid *commit,
		  const char *path, struct strbuf *err)
{
	git_blob *blob = NULL;
	int ret;

	if (treepath_resolve(tp, repo, tree, NULL, path) < 0) {
		strbuf_addbuf(err, &tp->why);
		return -1;
	}
	if (tp->status != TREEPATH_OK)
		return 1;
	if (git_blob_lookup(&blob, repo, &tp->id) < 0) {
		/* as `git show <commit>:<path>` fails: not there */
		tp->status = TREEPATH_NOT_FOUND;
		strbuf_addf(&tp->why, "cannot read %s: %s", tp->path.buf,
			    lg2_message());
		return 1;
	}
	ret = checkout_blob(out, repo, blob, commit, tp->path.buf, 0, err);
	git_blob_free(blob);
	return ret;
}

int input_tree_blob(const struct input_tree *t, const char *path,
		    git_oid *out, unsigned *mode)
{
	struct treepath tp = TREEPATH_INIT;
	int ret = -1;

	treepath_resolve(&tp, t->repo, t->index ? NULL : t->tree, t->index,
			 path);
	if (tp.status == TREEPATH_OK) {
		git_oid_cpy(out, &tp.id);
		*mode = tp.mode;
		ret = 0;
	}
	treepath_release(&tp);
	return ret;
}

int input_tree_read(struct strbuf *out, const struct input_tree *t,
		    const char *path, size_t max, struct strbuf *err)
{
	struct treepath tp = TREEPATH_INIT;
	git_blob *blob = NULL;
	int ret = -1;

	treepath_resolve(&tp, t->repo, t->index ? NULL : t->tree, t->index,
			 path);
	if (tp.status != TREEPATH_OK ||
	    git_blob_lookup(&blob, t->repo, &tp.id) < 0) {
		strbuf_addf(err, "cannot read '%s' at the commit: %s", path,
			    lg2_message());
		goto out;
	}
	ret = checkout_blob(out, t->repo, blob, t->index ? NULL : t->commit,
			    tp.path.buf, max, err);
out:
	git_blob_free(blob);
	treepath_release(&tp);
	return ret;
}
