/*
 * ahd-replay verify: re-hash the inputs that sidecars pin.
 *
 * For each sidecar: load and check it, find the root, resolve the token
 * and brief paths (re-rooting CI paths, keeping inside the root), hash
 * the token structured and the brief raw then structured, as the
 * reference's verify-replay does, and compare.  The text output keeps the
 * reference's shape line for line; our additions (notes, the markdown
 * block warning, the summary) come after the checks.
 */
#include "config.h"
#include "attribution.h"
#include "builtin.h"
#include "digest.h"
#include "hashfile.h"
#include "input.h"
#include "inputs.h"
#include "jsonout.h"
#include "parse-options.h"
#include "render.h"
#include "repo.h"
#include "root.h"
#include "sidecar.h"
#include "signature.h"
#include "usage.h"
#include "utf8.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char verify_usage[] =
	"usage: ahd-replay verify [--all] [--format=text|json|github] [--quiet] [--root=<dir>] [--at=<rev>] [--allow-outside-root] [--trusted-keys=<dir>] [--require-signature] [<report>|<sidecar>|<dir>...]\n"
	"\n"
	"    --all                 every *.replay.json in the repository (the\n"
	"                          default without operands)\n"
	"    --format=<f>          text (default), json, or github annotations\n"
	"    --quiet               print only failures and the summary\n"
	"    --root=<dir>          recorded paths are relative to <dir>\n"
	"    --at=<rev>            read tokens and briefs as they are at <rev>\n"
	"    --allow-outside-root  let recorded paths leave the root\n"
	"    --trusted-keys=<dir>  check <sidecar>.sig files against the *.pub\n"
	"                          keys in <dir> (default: git config\n"
	"                          ahd-replay.trustedKeys)\n"
	"    --require-signature   an unsigned sidecar fails too\n"
	"\n"
	"Exit status: 0 when every report's inputs are intact, 1 when an input\n"
	"drifted or is missing or a signature check failed, 2 on usage errors\n"
	"and unusable input.\n";


struct verify_opts {
	int all;
	int quiet;
	int allow_outside;
	int require_signature;
	enum output_format format;
	const char *root;
	const char *at;
	const char *trusted_keys;
};

enum verdict { INTACT, DRIFTED, ERRORED, UNTRUSTED };

struct check {
	const char *field;	/* "token" or "brief" */
	int ok;
	int error;		/* cannot tell: counts as an error, not drift */
	const char *expected;
	struct strbuf actual;	/* empty: none */
	struct strbuf reason;
	struct strbuf note;	/* re-rooting */
	struct strbuf rel;	/* the input relative to the root, if found */
};

struct report {
	struct strbuf report;	/* as shown */
	struct strbuf sidecar_path;
	struct strbuf markdown;	/* the report file to compare, if any */
	struct sidecar sc;
	int loaded;
	struct strbuf root;
	int root_origin;
	struct check checks[2];
	int nr_checks;
	struct strbuf error;	/* the sidecar itself is unusable */
	struct sig_result sig;
	struct strbuf notes;	/* "  note: ..." lines */
	struct strbuf md_warning;
	long md_line;
	enum verdict verdict;
};

struct at_commit {
	git_repository *repo;
	git_commit *commit;
	git_tree *tree;
	struct strbuf prefix;
	struct strbuf workdir;
	char short_id[GIT_OID_HEXSZ + 1];
};

/*
 * Memos for a whole run: many reports share a directory (so a root) and
 * a token or brief (so a hash, and when it drifted, a history search).
 * Keys are directories, files' real paths (or blob ids with --at) with
 * the hash mode, and start commit, path and recorded hash.
 */
struct memo {
	char *key;
	int mode;
	int ret;		/* hash_text()'s or attribute_drift()'s answer */
	char hex[HASH_HEX_MAX];
	char *text;		/* a hash's error, a root's path, a search's
				   message or error */
	int origin;		/* for roots */
};

/* --at: the commit opened once per root, or why it could not be. */
struct at_memo {
	char *root;
	struct at_commit at;
	struct strbuf err;
};

struct memos {
	struct memo *roots;
	size_t nr_roots, alloc_roots;
	struct memo *hashes;
	size_t nr_hashes, alloc_hashes;
	struct at_memo *ats;
	size_t nr_ats, alloc_ats;
	struct memo *searches;
	size_t nr_searches, alloc_searches;
};

static void at_release(struct at_commit *at);

static struct memo *memo_find(struct memo *list, size_t nr, const char *key,
			      int mode)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (list[i].mode == mode && !strcmp(list[i].key, key))
			return &list[i];
	return NULL;
}

static void memos_release(struct memos *m)
{
	size_t i;

	for (i = 0; i < m->nr_roots; i++) {
		free(m->roots[i].key);
		free(m->roots[i].text);
	}
	for (i = 0; i < m->nr_hashes; i++) {
		free(m->hashes[i].key);
		free(m->hashes[i].text);
	}
	for (i = 0; i < m->nr_searches; i++) {
		free(m->searches[i].key);
		free(m->searches[i].text);
	}
	for (i = 0; i < m->nr_ats; i++) {
		free(m->ats[i].root);
		at_release(&m->ats[i].at);
		strbuf_release(&m->ats[i].err);
	}
	free(m->roots);
	free(m->hashes);
	free(m->ats);
	free(m->searches);
}

static void check_init(struct check *c, const char *field,
		       const char *expected)
{
	memset(c, 0, sizeof(*c));
	c->field = field;
	c->expected = expected;
	strbuf_init(&c->actual, 0);
	strbuf_init(&c->reason, 0);
	strbuf_init(&c->note, 0);
	strbuf_init(&c->rel, 0);
}

static void check_release(struct check *c)
{
	strbuf_release(&c->actual);
	strbuf_release(&c->reason);
	strbuf_release(&c->note);
	strbuf_release(&c->rel);
}

static void report_init(struct report *r)
{
	struct sidecar sc = SIDECAR_INIT;

	memset(r, 0, sizeof(*r));
	strbuf_init(&r->report, 0);
	strbuf_init(&r->sidecar_path, 0);
	strbuf_init(&r->markdown, 0);
	r->sc = sc;
	strbuf_init(&r->root, 0);
	strbuf_init(&r->error, 0);
	sig_result_init(&r->sig);
	strbuf_init(&r->notes, 0);
	strbuf_init(&r->md_warning, 0);
}

static void report_release(struct report *r)
{
	int i;

	strbuf_release(&r->report);
	strbuf_release(&r->sidecar_path);
	strbuf_release(&r->markdown);
	sidecar_release(&r->sc);
	strbuf_release(&r->root);
	for (i = 0; i < r->nr_checks; i++)
		check_release(&r->checks[i]);
	strbuf_release(&r->error);
	sig_result_release(&r->sig);
	strbuf_release(&r->notes);
	strbuf_release(&r->md_warning);
}

/* --- which sidecars ------------------------------------------------------ */

struct path_list {
	char **items;
	size_t nr, alloc;
};

static void path_list_add(struct path_list *l, const char *p)
{
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr++] = xstrdup(p);
}

static void path_list_release(struct path_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Every *.replay.json below dir, not descending into .git or node_modules. */
static int find_sidecars(struct path_list *out, const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;

	if (depth > 64)
		return 0;	/* a directory loop we were not told about */
	d = opendir(dir);
	if (!d)
		return error("cannot read directory '%s': %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git") ||
		    !strcmp(de->d_name, "node_modules"))
			continue;
		if (!strcmp(dir, "."))
			strbuf_addstr(&path, de->d_name);
		else
			strbuf_addf(&path, "%s/%s", dir, de->d_name);
		/* lstat: symlinked directories are not followed. */
		if (!lstat(path.buf, &st)) {
			if (S_ISDIR(st.st_mode))
				find_sidecars(out, path.buf, depth + 1);
			else if (has_suffix(de->d_name, ".replay.json"))
				path_list_add(out, path.buf);
		}
		strbuf_release(&path);
	}
	closedir(d);
	return 0;
}

/* The repository's top (or the current directory) for --all. */
static void default_scope(struct strbuf *out)
{
	struct strbuf wt = STRBUF_INIT;
	char *rcwd;

	if (repo_worktree_of(&wt, ".")) {
		rcwd = realpath(".", NULL);
		/* Show paths relative to the current directory when we can. */
		if (rcwd && !strcmp(wt.buf, rcwd))
			strbuf_addstr(out, ".");
		else
			strbuf_addbuf(out, &wt);
		free(rcwd);
	} else
		strbuf_addstr(out, ".");
	strbuf_release(&wt);
}

/* --- checking -------------------------------------------------------- */

/* hash_input() could not find or read the input; the check says why. */
#define INPUT_FAILED (-100)

/*
 * Resolve one input and hash it in `mode`, through the memo.  Returns 0
 * with the hash in hex, INPUT_FAILED with the check filled in (the input
 * could not be found or read), or hash_text()'s error with its reason in
 * err.  shown receives the path as the reference would show it.
 */
static int hash_input(struct memos *memos, struct check *c,
		      const char *recorded, const char *root,
		      const struct input_tree *tree, int allow_outside,
		      enum hash_mode mode, char *hex, struct strbuf *err,
		      struct strbuf *shown)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT, rerr = STRBUF_INIT;
	struct memo *m;
	int ret = INPUT_FAILED;

	input_resolve(&in, root, recorded, tree, allow_outside);
	if (!c->note.len && in.rerooted)
		strbuf_addf(&c->note, "%s path re-rooted: %s -> %s", c->field,
			    recorded, in.rel.buf);
	strbuf_reset(shown);
	strbuf_addbuf(shown, &in.shown);
	strbuf_reset(&c->rel);
	strbuf_addbuf(&c->rel, &in.rel);
	switch (in.status) {
	case INPUT_OK:
		break;
	case INPUT_NOT_FOUND:
		/* The reference's words, with its absolute path. */
		strbuf_addf(&c->reason, "%s file not found at %s", c->field,
			    in.shown.buf);
		goto out;
	case INPUT_OUTSIDE:
		c->error = 1;
		strbuf_addf(&c->reason, "%s path %s is outside the root %s "
			    "(%s; --allow-outside-root to allow)", c->field,
			    recorded, root, in.why.buf);
		goto out;
	default:
		c->error = 1;
		strbuf_addf(&c->reason, "cannot use the %s path %s: %s",
			    c->field, recorded, in.why.buf);
		goto out;
	}
	if (tree) {
		struct strbuf p = STRBUF_INIT;
		char oid[GIT_OID_HEXSZ + 1];
		git_oid id;
		unsigned mode;

		strbuf_addf(&p, "%s%s", tree->prefix, in.rel.buf);
		if (!input_tree_blob(tree, p.buf, &id, &mode)) {
			git_oid_tostr(oid, sizeof(oid), &id);
			strbuf_addf(&key, "blob:%s", oid);
		}
		strbuf_release(&p);
	} else
		strbuf_addbuf(&key, &in.file);
	m = key.len ? memo_find(memos->hashes, memos->nr_hashes, key.buf,
				mode) : NULL;
	if (m) {
		ret = m->ret;
		memcpy(hex, m->hex, HASH_HEX_MAX);
		if (m->text)
			strbuf_addstr(err, m->text);
		goto out;
	}
	if (input_read(&raw, &in, tree, mode == HASH_RAW ? 0 :
		       HASH_DEFAULT_MAX_SIZE, &rerr)) {
		c->error = 1;
		strbuf_addf(&c->reason, "failed to read %s at %s: %s", c->field,
			    in.shown.buf, rerr.buf);
		goto out;
	}
	utf8_repair(&text, raw.buf, raw.len);
	ret = hash_text(hex, text.buf, text.len, mode, err);
	if (key.len) {
		ALLOC_GROW(memos->hashes, memos->nr_hashes + 1,
			   memos->alloc_hashes);
		m = &memos->hashes[memos->nr_hashes++];
		memset(m, 0, sizeof(*m));
		m->key = strbuf_detach(&key, NULL);
		m->mode = mode;
		m->ret = ret;
		memcpy(m->hex, hex, HASH_HEX_MAX);
		m->text = ret ? xstrdup(err->buf) : NULL;
	}
out:
	resolved_input_release(&in);
	strbuf_release(&raw);
	strbuf_release(&text);
	strbuf_release(&key);
	strbuf_release(&rerr);
	return ret;
}

static void check_token(struct memos *memos, struct check *c,
			const struct sidecar *sc, const char *root,
			const struct input_tree *tree, int allow_outside)
{
	struct strbuf err = STRBUF_INIT, shown = STRBUF_INIT;
	char hex[HASH_HEX_MAX];
	int ret;

	check_init(c, "token", sc->token.hash);
	ret = hash_input(memos, c, sc->token.path, root, tree, allow_outside,
			 HASH_STRUCTURED, hex, &err, &shown);
	if (ret == INPUT_FAILED)
		;	/* the check says why */
	else if (ret == HASH_EUNSUPPORTED) {
		c->error = 1;
		strbuf_addf(&c->reason, "cannot re-hash the token at %s as the "
			    "reference does: %s", shown.buf, err.buf);
	} else if (ret == HASH_EIO) {
		c->error = 1;
		strbuf_addf(&c->reason, "cannot re-hash the token at %s: %s",
			    shown.buf, err.buf);
	} else if (ret) {
		strbuf_addf(&c->reason, "failed to parse token at %s: %s",
			    shown.buf, err.buf);
	} else {
		strbuf_addstr(&c->actual, hex);
		c->ok = !strcmp(hex, sc->token.hash);
		if (!c->ok)
			strbuf_addstr(&c->reason, "token contents have changed "
				      "since the run; re-hash differs");
	}
	strbuf_release(&err);
	strbuf_release(&shown);
}

static void check_brief(struct memos *memos, struct check *c,
			const struct sidecar *sc, const char *root,
			const struct input_tree *tree, int allow_outside)
{
	struct strbuf err = STRBUF_INIT, shown = STRBUF_INIT;
	char hex[HASH_HEX_MAX];
	int ret;

	check_init(c, "brief", sc->brief.hash);
	/* Raw first, then structured: the reference's order. */
	ret = hash_input(memos, c, sc->brief.path, root, tree, allow_outside,
			 HASH_RAW, hex, &err, &shown);
	if (ret)
		goto out;
	if (!strcmp(hex, sc->brief.hash)) {
		c->ok = 1;
		strbuf_addstr(&c->actual, hex);
		goto out;
	}
	ret = hash_input(memos, c, sc->brief.path, root, tree, allow_outside,
			 HASH_STRUCTURED, hex, &err, &shown);
	if (ret == INPUT_FAILED)
		;
	else if (ret == HASH_EUNSUPPORTED || ret == HASH_EIO) {
		c->error = 1;
		strbuf_addf(&c->reason, "the brief's raw hash does not match "
			    "and its structured hash cannot be computed as the "
			    "reference does: %s", err.buf);
	} else if (ret) {
		strbuf_addf(&c->reason, "brief is not valid YAML and the "
			    "raw-bytes hash does not match: %s", err.buf);
	} else {
		strbuf_addstr(&c->actual, hex);
		c->ok = !strcmp(hex, sc->brief.hash);
		if (!c->ok)
			strbuf_addstr(&c->reason, "brief contents have changed "
				      "since the run (neither raw-bytes nor "
				      "canonical-YAML hash matches)");
	}
out:
	strbuf_release(&err);
	strbuf_release(&shown);
}

/*
 * The report's ```yaml ahd-replay block must be what render produces for
 * the sidecar; the JSON is authoritative, so a difference is a warning.
 */
static void check_markdown(struct report *r)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT, err = STRBUF_INIT;
	size_t begin, end, i = 0, line;
	const char *a, *b, *p;

	if (!r->markdown.len || access(r->markdown.buf, F_OK) ||
	    read_file_limited(&text, r->markdown.buf, HASH_DEFAULT_MAX_SIZE,
			      &err) ||
	    render_find_block(text.buf, text.len, &begin, &end))
		goto out;
	render_markdown(&want, &r->sc);
	{
		/* Compare with LF line breaks, whatever the report uses. */
		size_t from = begin, to = begin;

		for (; from < end; from++)
			if (!(text.buf[from] == '\r' && from + 1 < end &&
			      text.buf[from + 1] == '\n'))
				text.buf[to++] = text.buf[from];
		memmove(text.buf + to, text.buf + end, text.len - end + 1);
		text.len -= end - to;
		end = to;
	}
	if (end - begin == want.len && !memcmp(text.buf + begin, want.buf,
					       want.len))
		goto out;
	a = text.buf + begin;
	b = want.buf;
	while (i < end - begin && i < want.len && a[i] == b[i])
		i++;
	/* Back to the start of the differing line; count lines before it. */
	while (i > 0 && a[i - 1] != '\n')
		i--;
	line = 1;
	for (p = text.buf; p < a + i; p++)
		line += *p == '\n';
	r->md_line = (long)line;
	{
		const char *ea = memchr(a + i, '\n', end - begin - i);
		const char *eb = i <= want.len ?
			memchr(b + i, '\n', want.len - i) : NULL;
		size_t na = ea ? (size_t)(ea - a - i) : end - begin - i;
		size_t nb = i <= want.len ? (eb ? (size_t)(eb - b - i) :
					     want.len - i) : 0;

		strbuf_addf(&r->md_warning, "the replay block in %s differs "
			    "from the sidecar at line %zu: it has '%.*s', the "
			    "sidecar renders '%.*s' (the JSON is authoritative)",
			    r->markdown.buf, line, (int)(na > 80 ? 80 : na),
			    a + i, (int)(nb > 80 ? 80 : nb), b + i);
	}
out:
	strbuf_release(&text);
	strbuf_release(&want);
	strbuf_release(&err);
}

static int open_at(struct at_commit *at, const char *root, const char *rev,
		   struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	git_object *obj = NULL;
	char *real_wd = NULL;
	int ret = -1;

	if (repo_open_git(&at->repo, root, 0, &why) ||
	    !git_repository_workdir(at->repo)) {
		strbuf_addf(err, "--at needs a git work tree around %s: %s", root,
			    why.len ? why.buf : "not a repository");
		goto out;
	}
	if (git_revparse_single(&obj, at->repo, rev) < 0 ||
	    git_object_peel((git_object **)&at->commit, obj,
			    GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&at->tree, at->commit) < 0) {
		strbuf_addf(err, "cannot resolve '%s' to a commit: %s", rev,
			    lg2_message());
		goto out;
	}
	git_oid_tostr(at->short_id, 13, git_commit_id(at->commit));
	real_wd = realpath(git_repository_workdir(at->repo), NULL);
	if (!real_wd) {
		strbuf_addf(err, "cannot resolve the work tree: %s",
			    strerror(errno));
		goto out;
	}
	strbuf_addstr(&at->workdir, real_wd);
	if (strcmp(root, real_wd)) {
		size_t n = strlen(real_wd);

		if (strncmp(root, real_wd, n) || root[n] != '/') {
			strbuf_addf(err, "the root %s is not inside the "
				    "repository %s", root, real_wd);
			goto out;
		}
		strbuf_addf(&at->prefix, "%s/", root + n + 1);
	}
	ret = 0;
out:
	free(real_wd);
	git_object_free(obj);
	strbuf_release(&why);
	return ret;
}

static void at_release(struct at_commit *at)
{
	git_tree_free(at->tree);
	git_commit_free(at->commit);
	git_repository_free(at->repo);
	strbuf_release(&at->prefix);
	strbuf_release(&at->workdir);
	memset(at, 0, sizeof(*at));
}

/*
 * The commit --at names, as seen from root: opened and resolved once
 * for all the reports under that root.  NULL with the reason in err.
 */
static const struct at_commit *memo_at(struct memos *m, const char *root,
				       const char *rev, struct strbuf *err)
{
	struct at_memo *am;
	size_t i;

	for (i = 0; i < m->nr_ats; i++)
		if (!strcmp(m->ats[i].root, root))
			break;
	if (i == m->nr_ats) {
		ALLOC_GROW(m->ats, m->nr_ats + 1, m->alloc_ats);
		am = &m->ats[m->nr_ats++];
		memset(am, 0, sizeof(*am));
		am->root = xstrdup(root);
		strbuf_init(&am->at.prefix, 0);
		strbuf_init(&am->at.workdir, 0);
		strbuf_init(&am->err, 0);
		if (open_at(&am->at, root, rev, &am->err))
			at_release(&am->at);
	}
	am = &m->ats[i];
	if (am->err.len) {
		strbuf_addbuf(err, &am->err);
		return NULL;
	}
	return &am->at;
}

/* Roots by directory, so a thousand reports do not walk up a thousand times. */
static int find_root(struct memos *memos, struct strbuf *out, const char *dir,
		     const char *given, struct strbuf *err)
{
	struct memo *m = memo_find(memos->roots, memos->nr_roots, dir, 0);
	int origin;

	if (!m) {
		struct strbuf root = STRBUF_INIT;

		origin = root_find(&root, dir, given, err);
		if (origin < 0) {
			strbuf_release(&root);
			return -1;
		}
		ALLOC_GROW(memos->roots, memos->nr_roots + 1,
			   memos->alloc_roots);
		m = &memos->roots[memos->nr_roots++];
		memset(m, 0, sizeof(*m));
		m->key = xstrdup(dir);
		m->text = strbuf_detach(&root, NULL);
		m->origin = origin;
	}
	strbuf_addstr(out, m->text);
	return m->origin;
}

/*
 * For each input that drifted, say which commit last had the recorded
 * content and which changed it.  Quietly does nothing outside a work tree.
 */
static int needs_attribution(const struct check *c)
{
	return !c->ok && !c->error && c->rel.len;
}

/*
 * The history search for a drifted input, done once for all the reports
 * that pin the same file with the same hash.
 */
static const struct memo *search_drift(struct memos *memos,
				       git_repository *repo,
				       const git_oid *start, const char *path,
				       const struct check *c)
{
	struct strbuf key = STRBUF_INIT, msg = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	struct memo *m;

	git_oid_tostr(hex, sizeof(hex), start);
	strbuf_addf(&key, "%s\n%s\n%s\n%s\n%s", git_repository_path(repo),
		    hex, path, c->expected, c->field);
	m = memo_find(memos->searches, memos->nr_searches, key.buf, 0);
	if (m) {
		strbuf_release(&key);
		return m;
	}
	ALLOC_GROW(memos->searches, memos->nr_searches + 1,
		   memos->alloc_searches);
	m = &memos->searches[memos->nr_searches++];
	memset(m, 0, sizeof(*m));
	m->key = strbuf_detach(&key, NULL);
	m->ret = attribute_drift(&msg, repo, start, path, c->expected,
				 !strcmp(c->field, "brief") ?
				 ATTRIBUTE_RAW_OR_STRUCTURED :
				 ATTRIBUTE_STRUCTURED, c->field, &err);
	m->text = strbuf_detach(m->ret ? &err : &msg, NULL);
	strbuf_release(&msg);
	strbuf_release(&err);
	return m;
}

/* at is --at's commit, or NULL to start from HEAD. */
static void attribute(struct memos *memos, struct report *r,
		      const struct at_commit *at)
{
	git_repository *opened = NULL, *repo;
	git_oid start;
	struct strbuf prefix = STRBUF_INIT;
	char *wd = NULL;
	int i;

	for (i = 0; i < r->nr_checks; i++)
		if (needs_attribution(&r->checks[i]))
			break;
	if (i == r->nr_checks)
		return;
	if (at) {
		repo = at->repo;
		git_oid_cpy(&start, git_commit_id(at->commit));
		strbuf_addbuf(&prefix, &at->prefix);
	} else {
		if (repo_open_git(&opened, r->root.buf, 0, NULL) ||
		    !git_repository_workdir(opened) ||
		    git_reference_name_to_id(&start, opened, "HEAD") < 0)
			goto out;
		repo = opened;
		wd = realpath(git_repository_workdir(repo), NULL);
		if (!wd)
			goto out;
		if (strcmp(wd, r->root.buf)) {
			size_t n = strlen(wd);

			if (strncmp(r->root.buf, wd, n) ||
			    r->root.buf[n] != '/')
				goto out;
			strbuf_addf(&prefix, "%s/", r->root.buf + n + 1);
		}
	}
	for (i = 0; i < r->nr_checks; i++) {
		const struct check *c = &r->checks[i];
		struct strbuf path = STRBUF_INIT;
		const struct memo *m;

		if (!needs_attribution(c))
			continue;
		strbuf_addf(&path, "%s%s", prefix.buf, c->rel.buf);
		m = search_drift(memos, repo, &start, path.buf, c);
		if (!m->ret)
			strbuf_addf(&r->notes, "  note: %s\n", m->text);
		else
			strbuf_addf(&r->notes, "  note: %s: cannot search the "
				    "history: %s\n", c->field, m->text);
		strbuf_release(&path);
	}
out:
	free(wd);
	strbuf_release(&prefix);
	git_repository_free(opened);
}

/* A signature that fails, or none when one is required. */
static int signature_failed(const struct report *r,
			    const struct verify_opts *opts)
{
	return r->sig.status != SIG_OK &&
		(r->sig.status != SIG_UNSIGNED || opts->require_signature);
}

static void check_signature(struct report *r, const struct sig_keyring *kr,
			    const struct verify_opts *opts)
{
	switch (sig_check_sidecar(&r->sig, kr, r->sidecar_path.buf)) {
	case SIG_UNSIGNED:
		if (opts->require_signature)
			strbuf_addf(&r->sig.reason, "no signature at %s "
				    "(--require-signature)",
				    r->sig.sig_path.buf);
		break;
	case SIG_UNKNOWN_KEY:
		if (!kr->nr)
			strbuf_addstr(&r->sig.reason, " (no trusted keys: "
				      "--trusted-keys or ahd-replay.trustedKeys)");
		break;
	default:
		break;
	}
}

static void verify_one(struct memos *memos, struct report *r,
		       const struct sig_keyring *kr,
		       const struct verify_opts *opts)
{
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	const struct at_commit *at = NULL;
	struct input_tree tree, *tp = NULL;
	const char *slash;
	int i;

	if (access(r->sidecar_path.buf, F_OK)) {
		strbuf_addf(&r->error, "no replay sidecar found at %s",
			    r->sidecar_path.buf);
		goto out;
	}
	if (sidecar_load(&r->sc, r->sidecar_path.buf, &err)) {
		strbuf_addf(&r->error, "%s", err.buf);
		goto out;
	}
	r->loaded = 1;
	check_signature(r, kr, opts);
	if (r->sc.unknown.len)
		strbuf_addf(&r->notes, "  note: ignoring unknown fields in "
			    "the sidecar: %s\n", r->sc.unknown.buf);

	slash = strrchr(r->report.buf, '/');
	if (slash)
		strbuf_add(&dir, r->report.buf, (size_t)(slash - r->report.buf) +
			   (slash == r->report.buf));
	else
		strbuf_addstr(&dir, ".");
	strbuf_reset(&err);
	r->root_origin = find_root(memos, &r->root, dir.buf, opts->root, &err);
	if (r->root_origin < 0) {
		strbuf_addbuf(&r->error, &err);
		goto out;
	}
	if (opts->at) {
		strbuf_reset(&err);
		at = memo_at(memos, r->root.buf, opts->at, &err);
		if (!at) {
			strbuf_addbuf(&r->error, &err);
			goto out;
		}
		tree.repo = at->repo;
		tree.tree = at->tree;
		tree.index = NULL;
		tree.prefix = at->prefix.buf;
		tp = &tree;
		strbuf_addf(&r->notes, "  note: inputs read at commit %s (%s)\n",
			    at->short_id, opts->at);
	}

	check_token(memos, &r->checks[r->nr_checks++], &r->sc, r->root.buf,
		    tp, opts->allow_outside);
	if (r->sc.brief.path)
		check_brief(memos, &r->checks[r->nr_checks++], &r->sc,
			    r->root.buf, tp, opts->allow_outside);
	for (i = 0; i < r->nr_checks; i++)
		if (r->checks[i].note.len)
			strbuf_addf(&r->notes, "  note: %s\n",
				    r->checks[i].note.buf);
	attribute(memos, r, at);
	check_markdown(r);
out:
	r->verdict = INTACT;
	if (r->error.len)
		r->verdict = ERRORED;
	for (i = 0; i < r->nr_checks; i++) {
		if (r->checks[i].error)
			r->verdict = ERRORED;
		else if (!r->checks[i].ok && r->verdict == INTACT)
			r->verdict = DRIFTED;
	}
	/* An untrusted sidecar's hashes mean nothing, drifted or not. */
	if (r->loaded && signature_failed(r, opts) && r->verdict != ERRORED)
		r->verdict = UNTRUSTED;
	strbuf_release(&dir);
	strbuf_release(&err);
}

/* --- output ---------------------------------------------------------- */

/*
 * One report in the reference's layout.  *printed counts the reports
 * shown so far, so that a blank line separates them (and nothing leads).
 */
static void print_text(const struct report *r, const struct verify_opts *opts,
		       int *printed)
{
	const struct sidecar *sc = &r->sc;
	int i;

	if (!r->loaded) {
		error("%s: %s", r->sidecar_path.buf, r->error.buf);
		return;
	}
	if (opts->quiet && r->verdict == INTACT)
		return;
	if ((*printed)++)
		putchar('\n');
	printf("ahd verify-replay \xc2\xb7 %s\n", r->report.buf);
	printf("replay: %s\n", r->sidecar_path.buf);
	printf("  kind: %s\n", sc->kind);
	printf("  ahd_version: %s\n", sc->ahd_version);
	if (sc->ahd_commit && *sc->ahd_commit)
		printf("  ahd_commit: %s%s\n", sc->ahd_commit,
		       sc->git_dirty == 1 ? " (dirty)" : "");
	printf("  invoked_at: %s\n\n", sc->invoked_at);
	for (i = 0; i < r->nr_checks; i++) {
		const struct check *c = &r->checks[i];

		if (c->ok) {
			printf("  ok    %s hash matches\n", c->field);
			continue;
		}
		printf("  FAIL  %s: %s\n", c->field, c->reason.buf);
		printf("        expected %s\n", c->expected);
		printf("        actual   %s\n",
		       c->actual.len ? c->actual.buf : "<none>");
	}
	if (signature_failed(r, opts))
		printf("  FAIL  signature: %s\n", r->sig.reason.buf);
	else if (r->sig.status == SIG_OK)
		printf("  ok    signature by %s verifies\n", r->sig.key_id.buf);
	if (r->error.len)
		printf("  FAIL  %s\n", r->error.buf);
	printf("\n");
	if (r->notes.len || r->md_warning.len) {
		fputs(r->notes.buf, stdout);
		if (r->md_warning.len)
			printf("  warning: %s\n", r->md_warning.buf);
		printf("\n");
	}
	printf("verdict: %s\n", r->verdict == INTACT ?
	       "replay inputs intact" : r->verdict == DRIFTED ?
	       "drift detected" : r->verdict == UNTRUSTED ?
	       "signature check failed" : "could not verify");
}

static void print_github(const struct report *r,
			 const struct verify_opts *opts)
{
	struct strbuf line = STRBUF_INIT;
	const char *file = r->loaded ? r->report.buf : r->sidecar_path.buf;
	int i;

	if (r->error.len) {
		strbuf_addstr(&line, "::error file=");
		strbuf_add_gh_escaped(&line, r->sidecar_path.buf, 1);
		strbuf_addstr(&line, ",title=replay sidecar::");
		strbuf_add_gh_escaped(&line, r->error.buf, 0);
		puts(line.buf);
		strbuf_reset(&line);
	}
	for (i = 0; i < r->nr_checks; i++) {
		const struct check *c = &r->checks[i];

		if (c->ok)
			continue;
		strbuf_addstr(&line, "::error file=");
		strbuf_add_gh_escaped(&line, file, 1);
		strbuf_addf(&line, ",title=replay %s %s::", c->field,
			    c->error ? "unverifiable" : "drift");
		strbuf_addf(&line, "%s: ", c->field);
		strbuf_add_gh_escaped(&line, c->reason.buf, 0);
		strbuf_addf(&line, " (expected %s, actual %s)", c->expected,
			    c->actual.len ? c->actual.buf : "none");
		puts(line.buf);
		strbuf_reset(&line);
	}
	if (r->loaded && signature_failed(r, opts)) {
		strbuf_addstr(&line, "::error file=");
		strbuf_add_gh_escaped(&line, r->sidecar_path.buf, 1);
		strbuf_addstr(&line, ",title=replay signature::signature: ");
		strbuf_add_gh_escaped(&line, r->sig.reason.buf, 0);
		puts(line.buf);
		strbuf_reset(&line);
	}
	if (r->md_warning.len) {
		strbuf_addstr(&line, "::warning file=");
		strbuf_add_gh_escaped(&line, r->markdown.buf, 1);
		strbuf_addf(&line, ",line=%ld,title=replay block::", r->md_line);
		strbuf_add_gh_escaped(&line, r->md_warning.buf, 0);
		puts(line.buf);
	}
	strbuf_release(&line);
}

static json_t *json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/*
 * The signature check as an integrity event: what was checked, the
 * outcome, and whether it counts against the report.
 */
static json_t *signature_event_json(const struct report *r,
				    const struct verify_opts *opts)
{
	const struct sig_result *s = &r->sig;
	json_t *e = json_object();

	json_object_set_new(e, "type", json_string("signature"));
	json_object_set_new(e, "status",
			    json_string(sig_status_name(s->status)));
	json_object_set_new(e, "ok", json_boolean(!signature_failed(r, opts)));
	json_object_set_new(e, "signature", json_string(s->sig_path.buf));
	json_object_set_new(e, "key_id", s->key_id.len ?
			    json_string(s->key_id.buf) : json_null());
	json_object_set_new(e, "expected", s->expected.len ?
			    json_string(s->expected.buf) : json_null());
	json_object_set_new(e, "actual", s->actual.len ?
			    json_string(s->actual.buf) : json_null());
	json_object_set_new(e, "reason", s->reason.len ?
			    json_string(s->reason.buf) : json_null());
	return e;
}

static json_t *report_json(const struct report *r,
			   const struct verify_opts *opts)
{
	static const char *const verdicts[] = {
		"intact", "drift", "error", "untrusted",
	};
	json_t *o = json_object(), *checks = json_array();
	json_t *events = json_array();
	int i;

	json_object_set_new(o, "report", json_string(r->report.buf));
	json_object_set_new(o, "sidecar", json_string(r->sidecar_path.buf));
	json_object_set_new(o, "status", json_string(verdicts[r->verdict]));
	json_object_set_new(o, "error", r->error.len ?
			    json_string(r->error.buf) : json_null());
	if (r->loaded) {
		json_object_set_new(o, "root", json_string(r->root.buf));
		json_object_set_new(o, "root_from", json_string(
			root_origin_name(r->root_origin)));
		json_object_set_new(o, "kind", json_string(r->sc.kind));
		json_object_set_new(o, "ahd_version",
				    json_string(r->sc.ahd_version));
		json_object_set_new(o, "ahd_commit",
				    json_str_or_null(r->sc.ahd_commit));
		json_object_set_new(o, "git_dirty", r->sc.git_dirty < 0 ?
				    json_null() : json_boolean(r->sc.git_dirty));
		json_object_set_new(o, "invoked_at",
				    json_string(r->sc.invoked_at));
	}
	for (i = 0; i < r->nr_checks; i++) {
		const struct check *c = &r->checks[i];
		json_t *cj = json_object();

		json_object_set_new(cj, "field", json_string(c->field));
		json_object_set_new(cj, "ok", json_boolean(c->ok));
		json_object_set_new(cj, "error", json_boolean(c->error));
		json_object_set_new(cj, "expected", json_string(c->expected));
		json_object_set_new(cj, "actual", c->actual.len ?
				    json_string(c->actual.buf) : json_null());
		json_object_set_new(cj, "reason", c->reason.len ?
				    json_string(c->reason.buf) : json_null());
		json_object_set_new(cj, "note", c->note.len ?
				    json_string(c->note.buf) : json_null());
		json_array_append_new(checks, cj);
	}
	json_object_set_new(o, "checks", checks);
	if (r->loaded)
		json_array_append_new(events, signature_event_json(r, opts));
	json_object_set_new(o, "integrity_events", events);
	json_object_set_new(o, "unknown_fields", r->sc.unknown.len ?
			    json_string(r->sc.unknown.buf) : json_null());
	json_object_set_new(o, "markdown_warning", r->md_warning.len ?
			    json_string(r->md_warning.buf) : json_null());
	return o;
}

/* --- driver ---------------------------------------------------------- */

static const struct option verify_options[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "format", required_argument, NULL, 'f' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "root", required_argument, NULL, 'r' },
	{ "at", required_argument, NULL, 't' },
	{ "allow-outside-root", no_argument, NULL, 'o' },
	{ "trusted-keys", required_argument, NULL, 'k' },
	{ "require-signature", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void parse_verify_options(struct verify_opts *opts, int *argc,
				 char ***argv)
{
	int c;

	reset_getopt();
	while ((c = getopt_long(*argc, *argv, "+hq", verify_options,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			opts->all = 1;
			break;
		case 'f':
			opts->format = parse_output_format(optarg, 1, verify_usage);
			break;
		case 'q':
			opts->quiet = 1;
			break;
		case 'r':
			opts->root = optarg;
			break;
		case 't':
			opts->at = optarg;
			break;
		case 'o':
			opts->allow_outside = 1;
			break;
		case 'k':
			opts->trusted_keys = optarg;
			break;
		case 's':
			opts->require_signature = 1;
			break;
		case 'h':
			usage_help(verify_usage);
		default:
			usage_error(verify_usage, "unknown option '%s'",
				    (*argv)[optind - 1]);
		}
	}
	*argc -= optind;
	*argv += optind;
}

/* The report a sidecar belongs to: X.replay.json -> X.md. */
static void report_for(struct strbuf *out, const char *sidecar)
{
	strbuf_add(out, sidecar, strlen(sidecar) - strlen(".replay.json"));
	strbuf_addstr(out, ".md");
}

/* A sidecar found on disk is shown by its report when that exists. */
static void add_found(struct path_list *reports, struct path_list *sidecars,
		      const char *sidecar)
{
	struct strbuf md = STRBUF_INIT;

	report_for(&md, sidecar);
	path_list_add(sidecars, sidecar);
	path_list_add(reports, access(md.buf, F_OK) ? sidecar : md.buf);
	strbuf_release(&md);
}

/*
 * Turn operands into (report shown, sidecar) pairs.  Without operands,
 * or with --all, every sidecar of the repository: the --root directory
 * when given, else the work tree around the current directory.
 */
static int collect(struct path_list *reports, struct path_list *sidecars,
		   int argc, char **argv, int all, const char *root)
{
	struct strbuf scope = STRBUF_INIT;
	int i, ret = 0;

	if (!argc || all) {
		struct path_list found = { NULL, 0, 0 };
		size_t k;

		if (root)
			strbuf_addstr(&scope, root);
		else
			default_scope(&scope);
		if (!found.nr && access(scope.buf, F_OK))
			ret = error("cannot read '%s': %s", scope.buf,
				    strerror(errno));
		if (find_sidecars(&found, scope.buf, 0))
			ret = -1;
		if (found.nr)
			qsort(found.items, found.nr, sizeof(*found.items),
			      cmp_str);
		for (k = 0; k < found.nr; k++)
			add_found(reports, sidecars, found.items[k]);
		path_list_release(&found);
	}
	for (i = 0; i < argc; i++) {
		struct stat st;
		struct strbuf sc = STRBUF_INIT;

		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			struct path_list found = { NULL, 0, 0 };
			size_t k;

			if (find_sidecars(&found, argv[i], 0))
				ret = -1;
			if (found.nr)
				qsort(found.items, found.nr,
				      sizeof(*found.items), cmp_str);
			for (k = 0; k < found.nr; k++)
				add_found(reports, sidecars, found.items[k]);
			path_list_release(&found);
			continue;
		}
		sidecar_path_for(&sc, argv[i]);
		path_list_add(sidecars, sc.buf);
		path_list_add(reports, argv[i]);
		strbuf_release(&sc);
	}
	strbuf_release(&scope);
	return ret;
}

/*
 * The trusted keys: --trusted-keys, else ahd-replay.trustedKeys from the
 * git configuration (a relative path is taken from the work tree's top,
 * so the setting works from any subdirectory).  Neither is no keys.
 */
static int load_trusted_keys(struct sig_keyring *kr, const char *dir)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf value = GIT_BUF_INIT;
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int rc, ret = -1;

	if (dir) {
		strbuf_addstr(&path, dir);
	} else {
		/*
		 * A repository libgit2 cannot open leaves the user's own
		 * configuration; with no keys, signed sidecars still fail.
		 */
		repo_open_git(&repo, ".", 0, NULL);
		if ((repo ? git_repository_config_snapshot(&cfg, repo) :
		     git_config_open_default(&cfg)) < 0)
			goto git_error;
		rc = git_config_get_path(&value, cfg, "ahd-replay.trustedKeys");
		if (rc == GIT_ENOTFOUND) {
			ret = 0;
			goto out;
		}
		if (rc < 0)
			goto git_error;
		if (value.ptr[0] != '/' && repo && git_repository_workdir(repo))
			strbuf_addstr(&path, git_repository_workdir(repo));
		strbuf_addstr(&path, value.ptr);
	}
	if (sig_keyring_load_dir(kr, path.buf, &err)) {
		error("%s", err.buf);
		goto out;
	}
	ret = 0;
	goto out;
git_error:
	error("cannot read ahd-replay.trustedKeys: %s", lg2_message());
out:
	git_buf_dispose(&value);
	git_config_free(cfg);
	git_repository_free(repo);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts opts = { 0, 0, 0, 0, FORMAT_TEXT, NULL, NULL, NULL };
	struct sig_keyring keyring = SIG_KEYRING_INIT;
	struct path_list reports = { NULL, 0, 0 }, sidecars = { NULL, 0, 0 };
	struct memos memos;
	json_t *doc = NULL, *list = NULL;
	size_t i, intact = 0, drifted = 0, errors = 0, untrusted = 0;
	int status = 0, printed = 0;

	memset(&memos, 0, sizeof(memos));
	parse_verify_options(&opts, &argc, &argv);
	if (collect(&reports, &sidecars, argc, argv, opts.all, opts.root) ||
	    load_trusted_keys(&keyring, opts.trusted_keys))
		status = 2;
	if (!sidecars.nr && !status)
		fprintf(stderr, "ahd-replay: no replay sidecars found\n");
	if (opts.format == FORMAT_JSON) {
		doc = json_object();
		list = json_array();
	}
	for (i = 0; i < sidecars.nr; i++) {
		struct report r;

		report_init(&r);
		strbuf_addstr(&r.sidecar_path, sidecars.items[i]);
		strbuf_addstr(&r.report, reports.items[i]);
		if (has_suffix(reports.items[i], ".replay.json"))
			report_for(&r.markdown, reports.items[i]);
		else
			strbuf_addstr(&r.markdown, reports.items[i]);
		verify_one(&memos, &r, &keyring, &opts);
		if (r.verdict == INTACT)
			intact++;
		else if (r.verdict == DRIFTED)
			drifted++;
		else if (r.verdict == UNTRUSTED)
			untrusted++;
		else
			errors++;
		if (opts.format == FORMAT_TEXT) {
			print_text(&r, &opts, &printed);		} else if (opts.format == FORMAT_GITHUB)
			print_github(&r, &opts);
		else
			json_array_append_new(list, report_json(&r, &opts));
		report_release(&r);
	}
	if (errors)
		status = 2;
	else if ((drifted || untrusted) && status < 1)
		status = 1;
	if (opts.format == FORMAT_JSON) {
		json_t *summary = json_object();

		json_object_set_new(doc, "version", json_integer(1));
		json_object_set_new(doc, "reports", list);
		json_object_set_new(summary, "reports", json_integer((json_int_t)sidecars.nr));
		json_object_set_new(summary, "intact", json_integer((json_int_t)intact));
		json_object_set_new(summary, "drifted", json_integer((json_int_t)drifted));
		json_object_set_new(summary, "errors", json_integer((json_int_t)errors));
		json_object_set_new(summary, "untrusted", json_integer((json_int_t)untrusted));
		json_object_set_new(doc, "summary", summary);
		json_object_set_new(doc, "exit_status", json_integer(status));
		jsonout_print(doc);
		json_decref(doc);
	} else if (sidecars.nr > 1 || !sidecars.nr) {
		if (opts.format == FORMAT_TEXT && printed)
			putchar('\n');
		/* Fixed words, for the scripts that read this line. */
		printf("%zu reports: %zu intact, %zu drifted, %zu errors",
		       sidecars.nr, intact, drifted, errors);
		/* Only when present, so the line stays as it was for scripts. */
		if (untrusted)
			printf(", %zu untrusted", untrusted);
		putchar('\n');
	}
	path_list_release(&reports);
	path_list_release(&sidecars);
	memos_release(&memos);
	sig_keyring_release(&keyring);
	return finish_stdout(status);
}
