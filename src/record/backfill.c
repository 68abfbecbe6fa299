/*
 * Backfilling sidecars (see backfill.h).
 */
#include "config.h"
#include "backfill.h"
#include "datetime.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "fs/readfile.h"
#include "git/repo.h"
#include "sidecar.h"
#include "strutil.h"
#include "git/commitfiles.h"
#include "usage.h"
#include "utf8.h"
#include "fs/path.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One report to consider; takes path. */
static void add_item(struct backfill *out, char *path)
{
	struct backfill_item *it;

	ALLOC_GROW(out->items, out->nr + 1, out->alloc);
	it = &out->items[out->nr++];
	memset(it, 0, sizeof(*it));
	strbuf_init(&it->reason, 0);
	it->path = path;
}

/*
 * The reference's walkMarkdown(): entries in byte order (as Node lists
 * them), directories followed through symlinks, files ending in ".md".
 */
static void walk_markdown(struct backfill *out, const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;

	if (depth > 64 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	for (i = 0; i < nr; i++) {
		struct strbuf full = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&full, "%s/%s", dir, names[i]);
		if (!stat(full.buf, &st)) {
			if (S_ISDIR(st.st_mode))
				walk_markdown(out, full.buf, depth + 1);
			else if (ends_with(names[i], ".md"))
				add_item(out, strbuf_detach(&full, NULL));
		}
		strbuf_release(&full);
		free(names[i]);
	}
	free(names);
}

/*
 * The file at path in the commit, as a checkout writes it (symlinks in
 * the tree followed, git-lfs pointers read through).  0 with its text in
 * out, 1 when there is none, -1 when it cannot be used (why says so).
 */
static int read_at(const struct commit_files *at, const char *path,
		   struct strbuf *out, struct strbuf *why)
{
	struct strbuf raw = STRBUF_INIT;
	int ret = commit_files_read(&raw, at, path, why);

	/* git show decodes as UTF-8, invalid bytes becoming U+FFFD. */
	if (!ret)
		utf8_repair(out, raw.buf, raw.len);
	strbuf_release(&raw);
	return ret;
}

/* JSON.parse(package.json).version ?? "unknown", kept as a JSON value. */
static struct jval *version_at(const struct commit_files *at)
{
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct jval *pkg, *v = NULL;

	strbuf_addstr(&path, "package.json");
	if (read_at(at, path.buf, &text, &why) || !text.len)
		goto out;
	pkg = jval_loadb(text.buf, text.len, JVAL_DECODE_ANY |
			 JVAL_DECODE_INT_AS_REAL | JVAL_ALLOW_NUL, NULL);
	if (jval_is_object(pkg))
		v = jval_incref(jval_object_get(pkg, "version"));
	jval_decref(pkg);
out:
	strbuf_release(&text);
	strbuf_release(&path);
	strbuf_release(&why);
	if (!v || jval_is_null(v)) {
		jval_decref(v);
		v = jval_string("unknown");
	}
	return v;
}

/*
 * The models and conditions of a report's header as the reference's
 * backfill records them: no request ids; a critique has no conditions,
 * any other run both.
 */
static void header_arrays(const struct report_header *h, struct jval *models,
			  struct jval *conditions)
{
	size_t i;

	for (i = 0; i < h->nr_models; i++) {
		struct jval *m = jval_object();

		jval_object_set_new(m, "id", jval_string(h->models[i].id));
		jval_object_set_new(m, "provider",
				    jval_string(h->models[i].provider));
		jval_object_set_new(m, "provider_request_ids", jval_array());
		jval_array_append_new(models, m);
	}
	if (strcmp(h->kind, "critique")) {
		jval_array_append_new(conditions, jval_string("raw"));
		jval_array_append_new(conditions, jval_string("compiled"));
	}
}

/*
 * The brief's hash at the commit: structured when it parses as YAML, raw
 * bytes otherwise (the reference's order).  Returns 1 with the hash when
 * the brief is there, 0 when it is absent or empty (recorded as null),
 * -1 with it->reason set.
 */
static int hash_brief(struct backfill_item *it, const struct commit_files *at,
		      char hash[HASH_HEX_MAX])
{
	const char *hex = at->hex;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	int r, ret = 0;

	r = read_at(at, it->h.brief, &text, &why);
	if (!r && text.len) {
		r = hash_text(hash, text.buf, text.len, HASH_STRUCTURED, &err);
		if (r == HASH_EUNSUPPORTED) {
			strbuf_addf(&it->reason, "brief at %.12s:%s cannot be "
				    "hashed as the reference does: %s", hex,
				    it->h.brief, err.buf);
			ret = -1;
		} else if (r && digest_buffer_hex(hash, text.buf, text.len)) {
			strbuf_addstr(&it->reason, "cannot compute SHA-256");
			ret = -1;
		} else {
			ret = 1;
		}
	} else if (r < 0) {
		strbuf_addf(&it->reason, "brief at commit %.12s: %s", hex,
			    why.buf);
		ret = -1;
	}
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&why);
	return ret;
}

/* The token's structured hash at the commit; -1 with it->reason set. */
static int hash_token(struct backfill_item *it, const struct commit_files *at,
		      const char *path, char hash[HASH_HEX_MAX])
{
	const char *hex = at->hex;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	int r, ret = -1;

	r = read_at(at, path, &text, &why);
	if (r || !text.len) {
		/* An empty file reads as "" and counts as absent, as there. */
		if (r < 0)
			strbuf_addf(&it->reason, "token at commit %.12s: %s",
				    hex, why.buf);
		else
			strbuf_addf(&it->reason, "token file %s not present "
				    "at commit %.12s", path, hex);
		goto out;
	}
	r = hash_text(hash, text.buf, text.len, HASH_STRUCTURED, &err);
	if (r) {
		strbuf_addf(&it->reason, r == HASH_EUNSUPPORTED ?
			    "token at %.12s:%s cannot be hashed as the "
			    "reference does: %s" :
			    "token at %.12s:%s did not parse as YAML: %s",
			    hex, path, err.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&why);
	return ret;
}

/* FNV-1a: keys differ in their ids, any hash spreads them. */
static size_t key_hash(const char *k, size_t len)
{
	size_t h = 14695981039346656037ull & (size_t)-1;

	while (len--)
		h = (h ^ (unsigned char)*k++) * 1099511628211ull;
	return h;
}

/* The slot of key in m (whose size is a power of two): its entry or NULL. */
static struct backfill_kept **memo_slot(const struct backfill_memo *m,
					const char *key, size_t len)
{
	size_t j = key_hash(key, len) & (m->size - 1);

	while (m->table[j] && (m->table[j]->len != len ||
			       memcmp(m->table[j]->key, key, len)))
		j = (j + 1) & (m->size - 1);
	return &m->table[j];
}

static void memo_grow(struct backfill_memo *m)
{
	struct backfill_kept **old = m->table;
	size_t i, old_size = m->size;

	m->size = old_size ? 2 * old_size : 64;
	m->table = xcalloc(m->size, sizeof(*m->table));
	for (i = 0; i < old_size; i++)
		if (old[i])
			*memo_slot(m, old[i]->key, old[i]->len) = old[i];
	free(old);
}

static void memo_release(struct backfill_memo *m)
{
	size_t i;

	for (i = 0; i < m->size; i++)
		if (m->table[i]) {
			free(m->table[i]->key);
			jval_decref(m->table[i]->version);
			free(m->table[i]);
		}
	free(m->table);
	memset(m, 0, sizeof(*m));
}

/*
 * The key of path at the commit into key (kind, then
 * commit_files_key()), and what is kept for it, or NULL: nothing yet,
 * or no key (path leads to no file; key is left empty then).
 */
static struct backfill_kept *memo_find(struct backfill *bf,
				       struct strbuf *key, char kind,
				       const struct commit_files *at,
				       const char *path)
{
	strbuf_addch(key, kind);
	if (commit_files_key(key, at, path)) {
		strbuf_reset(key);
		return NULL;
	}
	return bf->memo.size ? *memo_slot(&bf->memo, key->buf, key->len) :
		NULL;
}

/* Keep ret and hash (NULL: none) for key, from memo_find(). */
static struct backfill_kept *memo_add(struct backfill *bf,
				      const struct strbuf *key, int ret,
				      const char *hash)
{
	struct backfill_memo *m = &bf->memo;
	struct backfill_kept **slot;

	if ((m->nr + 1) * 2 > m->size)
		memo_grow(m);
	slot = memo_slot(m, key->buf, key->len);
	*slot = xcalloc(1, sizeof(**slot));
	(*slot)->key = xmemdupz(key->buf, key->len);
	(*slot)->len = key->len;
	(*slot)->ret = ret;
	if (hash)
		memcpy((*slot)->hash, hash, HASH_HEX_MAX);
	m->nr++;
	return *slot;
}

/* version_at(), once per version of package.json. */
static struct jval *version_kept(struct backfill *bf,
				 const struct commit_files *at)
{
	struct strbuf key = STRBUF_INIT;
	struct backfill_kept *e = memo_find(bf, &key, 'V', at,
					    "package.json");
	struct jval *v;

	if (e) {
		v = jval_incref(e->version);
	} else {
		v = version_at(at);
		if (key.len)
			memo_add(bf, &key, 0, NULL)->version = jval_incref(v);
	}
	strbuf_release(&key);
	return v;
}

/*
 * hash_token() of path, or with brief hash_brief(), once per version of
 * the file: only what hashed is kept (a failure is found again, its
 * commit named).
 */
static int hash_kept(struct backfill *bf, struct backfill_item *it,
		     const struct commit_files *at, const char *path,
		     int brief, char hash[HASH_HEX_MAX])
{
	struct strbuf key = STRBUF_INIT;
	struct backfill_kept *e = memo_find(bf, &key, brief ? 'B' : 'T', at,
					    path);
	int ret;

	if (e) {
		memcpy(hash, e->hash, HASH_HEX_MAX);
		ret = e->ret;
	} else {
		ret = brief ? hash_brief(it, at, hash) :
			hash_token(it, at, path, hash);
		if (ret >= 0 && key.len)
			memo_add(bf, &key, ret, hash);
	}
	strbuf_release(&key);
	return ret;
}

/* What the reference's ReplaySchema checks before it writes. */
static int validate_record(struct backfill_item *it,
			   const struct sidecar_record *rec)
{
	const struct report_header *h = &it->h;

	if (!jval_is_string(rec->ahd_version) ||
	    !jval_string_length(rec->ahd_version)) {
		strbuf_addstr(&it->reason, "built replay does not validate: "
			      "/ahd_version: must be a non-empty string");
		return -1;
	}
	if (!h->has_n || !isfinite(h->n) || h->n <= 0 || h->n != floor(h->n)) {
		strbuf_addstr(&it->reason, "built replay does not validate: "
			      "/sampling/n: must be an integer > 0");
		return -1;
	}
	if (datetime_parse(h->run_at, strlen(h->run_at), DATETIME_ZOD, NULL,
			   NULL)) {
		strbuf_addstr(&it->reason, "built replay does not validate: "
			      "/invoked_at: invoked_at must be an ISO-8601 "
			      "datetime string.");
		return -1;
	}
	return 0;
}

int backfill_build(struct backfill *bf, struct backfill_item *it,
		   struct strbuf *out)
{
	struct report_header *h = &it->h;
	struct commit_files at = COMMIT_FILES_INIT;
	struct strbuf token_path = STRBUF_INIT, why = STRBUF_INIT;
	char hash[HASH_HEX_MAX], bhash[HASH_HEX_MAX];
	struct jval *version = NULL, *models = jval_array();
	struct jval *conditions = jval_array();
	struct sidecar_record rec;
	int ret = -1, brief = 0;

	if (commit_files_open(&at, &bf->repo, it->answer.hex, &why)) {
		strbuf_addf(&it->reason, "cannot read commit %s: %s",
			    it->answer.hex, why.buf);
		goto out;
	}
	version = version_kept(bf, &at);
	strbuf_addf(&token_path, "tokens/%s.yml", h->token);
	if (hash_kept(bf, it, &at, token_path.buf, 0, hash))
		goto out;
	if (h->brief && strcmp(h->kind, "critique") &&
	    (brief = hash_kept(bf, it, &at, h->brief, 1, bhash)) < 0)
		goto out;
	header_arrays(h, models, conditions);
	memset(&rec, 0, sizeof(rec));
	rec.kind = h->kind;
	rec.ahd_version = version;
	rec.ahd_commit = at.hex;
	rec.git_dirty = 0;
	rec.node_version = "unknown";
	rec.platform = "unknown";
	rec.invoked_at = h->run_at;
	rec.token.path = token_path.buf;
	rec.token.hash = hash;
	if (brief) {
		rec.brief.path = h->brief;
		rec.brief.hash = bhash;
	}
	rec.n = h->has_n ? h->n : 0;
	rec.models = models;
	rec.requested = conditions;
	rec.effective = conditions;
	rec.backfilled = 1;
	if (validate_record(it, &rec))
		goto out;
	sidecar_to_json(out, &rec);
	ret = 0;
out:
	jval_decref(version);
	jval_decref(models);
	jval_decref(conditions);
	commit_files_release(&at);
	strbuf_release(&token_path);
	strbuf_release(&why);
	return ret;
}

int backfill_init(struct backfill *bf, const char *root, struct strbuf *err)
{
	int rc;

	struct repo init = REPO_INIT;

	memset(bf, 0, sizeof(*bf));
	bf->repo = init;
	strbuf_init(&bf->root, 0);
	strbuf_addstr(&bf->root, root);
	/* a repository that is there but cannot be read is no untracked one */
	rc = repo_open(&bf->repo, root, 0, err);
	if (rc < 0)
		return -1;
	if (!rc && bf->repo.workdir.len)
		bf->have_head = !commit_head(bf->head, &bf->repo, NULL);
	return 0;
}

void backfill_release(struct backfill *bf)
{
	size_t i;

	for (i = 0; i < bf->nr; i++) {
		free(bf->items[i].path);
		free(bf->items[i].rel);
		free(bf->items[i].repo_path);
		report_header_release(&bf->items[i].h);
		strbuf_release(&bf->items[i].reason);
	}
	free(bf->items);
	memo_release(&bf->memo);
	repo_release(&bf->repo);
	strbuf_release(&bf->root);
}

/* Read one report's header; the item fails when it cannot be used. */
static void read_header(struct backfill *bf, struct backfill_item *it)
{
	struct strbuf text = STRBUF_INIT, fixed = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t wl = bf->repo.workdir.len;

	if (read_file_limited(&text, it->path, 0, &err)) {
		it->state = BACKFILL_FAILED;
		strbuf_addf(&it->reason, "cannot read the report: %s",
			    err.buf);
		goto out;
	}
	utf8_repair(&fixed, text.buf, text.len);
	report_header_parse(&it->h, fixed.buf, fixed.len);
	if (!it->h.kind || !it->h.token || !*it->h.token ||
	    !it->h.run_at || !*it->h.run_at) {
		it->state = BACKFILL_FAILED;
		strbuf_addstr(&it->reason, "header did not match the "
			      "expected pattern (need # ahd <kind> · "
			      "<token> · <runAt>)");
		goto out;
	}
	if (wl && !strncmp(it->path, bf->repo.workdir.buf, wl) &&
	    it->path[wl] == '/')
		it->repo_path = xstrdup(it->path + wl + 1);
out:
	strbuf_release(&text);
	strbuf_release(&fixed);
	strbuf_release(&err);
}

void backfill_scan(struct backfill *bf, const char *dir, int force)
{
	struct stat st;
	size_t i;

	/* one report named: the hint for a report without a sidecar */
	if (!stat(dir, &st) && S_ISREG(st.st_mode) && ends_with(dir, ".md"))
		add_item(bf, xstrdup(dir));
	else
		walk_markdown(bf, dir, 0);
	for (i = 0; i < bf->nr; i++) {
		struct backfill_item *it = &bf->items[i];
		struct strbuf sc = STRBUF_INIT, rel = STRBUF_INIT;

		path_relative(&rel, bf->root.buf, it->path);
		it->rel = strbuf_detach(&rel, NULL);
		sidecar_path_for(&sc, it->path);
		/* lstat: a sidecar that is a dangling symlink is there too */
		it->exists = !lstat(sc.buf, &st);
		if (it->exists &&
		    (!force || !sidecar_backfilled(sc.buf, &it->reason))) {
			it->state = force ? BACKFILL_KEPT : BACKFILL_SKIPPED;
			bf->skipped++;
		} else
			read_header(bf, it);
		strbuf_release(&sc);
	}
}

/* Whether the history walk looks for this item's commit. */
static int wants_commit(const struct backfill *bf,
			const struct backfill_item *it)
{
	return it->state == BACKFILL_TODO && it->repo_path && bf->have_head;
}

int backfill_find_commits(struct backfill *bf, enum history_mode mode,
			  struct strbuf *err)
{
	const char **paths = xcalloc(bf->nr ? bf->nr : 1, sizeof(*paths));
	struct history_answer *answers;
	size_t i, n = 0;
	int ret = 0;

	for (i = 0; i < bf->nr; i++)
		if (wants_commit(bf, &bf->items[i]))
			paths[n++] = bf->items[i].repo_path;
	/* One walk answers every report. */
	answers = xcalloc(n ? n : 1, sizeof(*answers));
	if (n && history_find_hex(&bf->repo, bf->head, paths, n, mode,
				  answers, &bf->truncated, err))
		ret = -1;
	for (i = 0, n = 0; !ret && i < bf->nr; i++)
		if (wants_commit(bf, &bf->items[i]))
			bf->items[i].answer = answers[n++];
	free(paths);
	free(answers);
	return ret;
}

void backfill_truncated(struct backfill *bf, int allow_shallow)
{
	size_t i;

	for (i = 0; i < bf->nr; i++) {
		struct backfill_item *it = &bf->items[i];

		/*
		 * The walk stopped at a shallow clone's boundary: the commit
		 * found may not be the report's, and the inputs read there
		 * would be recorded as its.
		 */
		if (it->state != BACKFILL_TODO || !it->answer.truncated)
			continue;
		if (allow_shallow) {
			it->state = BACKFILL_SKIPPED;
			bf->skipped++;
			strbuf_addstr(&it->reason, "its history is truncated "
				      "(a shallow clone)");
		} else {
			it->state = BACKFILL_FAILED;
			strbuf_addstr(&it->reason, "its history is truncated "
				      "(a shallow clone): the commit that last "
				      "changed it may lie beyond the boundary; "
				      "fetch the history (git fetch "
				      "--unshallow), or --allow-shallow to "
				      "skip it");
		}
	}
}

void backfill_write(struct write_batch *wb, struct backfill_item *it,
		    const struct strbuf *text, int dry_run)
{
	struct strbuf sc = STRBUF_INIT, err = STRBUF_INIT;

	sidecar_path_for(&sc, it->path);
	if (dry_run)
		wb->done(it, sc.buf, NULL);
	/* checked again: a run may have captured it meanwhile */
	else if (it->exists && !sidecar_backfilled(sc.buf, &err))
		wb->done(it, sc.buf, err.buf);
	else
		write_batch_add(wb, sc.buf, text->buf, text->len, 0666, it);
	strbuf_release(&sc);
	strbuf_release(&err);
}

int backfill_may_replace(void *data, const char *path, struct strbuf *why)
{
	(void)data;
	return sidecar_backfilled(path, why) ? 0 : -1;
}
