/*
 * Records in a layout of the repository's .ahd-replay.yml (record.h):
 * the record is a JSON file, its pinned inputs found by JSON Pointers
 * in which '*' stands for every member of a list or object.
 */
#include "config.h"
#include "layout.h"
#include "fs/readfile.h"
#include "json/jsonload.h"
#include "json/jsonout.h"
#include "render.h"
#include "sidecar.h"
#include "json/jval.h"
#include "strutil.h"
#include "usage.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A record is a small file; a bigger one is refused, not read. */
#define LAYOUT_RECORD_MAX (16 * 1024 * 1024)

/* What a pointer found, and which members its '*'s took ("/0/name"). */
struct found {
	const struct value *v;
	char *bind;
};

struct founds {
	struct found *items;
	size_t nr, alloc;
};

static void founds_release(struct founds *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		free(f->items[i].bind);
	free(f->items);
	memset(f, 0, sizeof(*f));
}

/* One reference token of ptr, unescaped (RFC 6901: ~1 is '/', ~0 '~'). */
static const char *next_token(const char *ptr, struct strbuf *tok)
{
	strbuf_reset(tok);
	for (; *ptr && *ptr != '/'; ptr++) {
		if (*ptr == '~' && (ptr[1] == '0' || ptr[1] == '1')) {
			strbuf_addch(tok, ptr[1] == '0' ? '~' : '/');
			ptr++;
		} else
			strbuf_addch(tok, *ptr);
	}
	return ptr;
}

static void walk(const struct value *v, const char *ptr, struct strbuf *bind,
		 struct founds *out);

static void member(const struct value *v, const char *rest, const char *key,
		   size_t keylen, struct strbuf *bind, struct founds *out)
{
	size_t was = bind->len;

	strbuf_addch(bind, '/');
	strbuf_add(bind, key, keylen);
	walk(v, rest, bind, out);
	strbuf_setlen(bind, was);
}

static void walk(const struct value *v, const char *ptr, struct strbuf *bind,
		 struct founds *out)
{
	struct strbuf tok = STRBUF_INIT;
	const char *rest;
	char num[32];
	size_t i;

	v = value_deref(v);
	if (!*ptr) {
		ALLOC_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr].v = v;
		out->items[out->nr++].bind = xstrdup(bind->buf);
		return;
	}
	rest = next_token(ptr + 1, &tok);
	if (!strcmp(ptr + 1, "*") || !strncmp(ptr + 1, "*/", 2)) {
		for (i = 0; v->kind == VALUE_SEQ && i < v->nr; i++) {
			snprintf(num, sizeof(num), "%zu", i);
			member(v->u.items[i], rest, num, strlen(num), bind,
			       out);
		}
		for (i = 0; v->kind == VALUE_MAP && i < v->nr; i++) {
			const struct value *k = v->u.items[2 * i];

			member(v->u.items[2 * i + 1], rest, k->u.str.ptr,
			       k->u.str.len, bind, out);
		}
	} else if (v->kind == VALUE_MAP) {
		for (i = 0; i < v->nr; i++) {
			const struct value *k = v->u.items[2 * i];

			if (k->u.str.len == tok.len &&
			    !memcmp(k->u.str.ptr, tok.buf, tok.len)) {
				walk(v->u.items[2 * i + 1], rest, bind, out);
				break;
			}
		}
	} else if (v->kind == VALUE_SEQ && tok.len &&
		   strspn(tok.buf, "0123456789") == tok.len &&
		   (tok.len == 1 || tok.buf[0] != '0')) {
		i = strtoul(tok.buf, NULL, 10);
		if (i < v->nr)
			walk(v->u.items[i], rest, bind, out);
	}
	strbuf_release(&tok);
}

static void find(const struct value *root, const char *ptr,
		 struct founds *out)
{
	struct strbuf bind = STRBUF_INIT;

	walk(root, ptr, &bind, out);
	strbuf_release(&bind);
}

static const struct found *same_bind(const struct founds *f, const char *b)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (!strcmp(f->items[i].bind, b))
			return &f->items[i];
	return NULL;
}

static int is_string(const struct value *v)
{
	return v && v->kind == VALUE_STRING &&
	       !memchr(v->u.str.ptr, '\0', v->u.str.len);
}

/* The recorded hash as verify compares it: "sha256:" and 64 hex digits. */
static int spell_hash(struct strbuf *out, const struct value *v,
		      enum hash_spelling spelling)
{
	const char *s = v->u.str.ptr, *hex = s;
	size_t i;

	if (spelling == SPELL_PREFIXED) {
		if (v->u.str.len != 71 || strncmp(s, "sha256:", 7))
			return -1;
		hex = s + 7;
	} else if (v->u.str.len != 64)
		return -1;
	for (i = 0; i < 64; i++)
		if (!isxdigit((unsigned char)hex[i]) || isupper((unsigned char)hex[i]))
			return -1;
	strbuf_addstr(out, "sha256:");
	strbuf_add(out, hex, 64);
	return 0;
}

/* Each input the layout's input li finds in root, in the record's order. */
static int add_inputs(struct record *out, const struct layout_input *li,
		      const struct value *root, struct strbuf *err)
{
	struct founds paths = { 0 }, hashes = { 0 }, labels = { 0 };
	struct strbuf hash = STRBUF_INIT, name = STRBUF_INIT;
	size_t i;
	int ret = 0;

	find(root, li->path, &paths);
	find(root, li->hash, &hashes);
	if (li->label)
		find(root, li->label, &labels);
	if (!paths.nr) {
		strbuf_addf(err, "no %s path at %s", li->name, li->path);
		ret = -1;
	}
	for (i = 0; !ret && i < paths.nr; i++) {
		const struct found *p = &paths.items[i];
		const struct found *h = same_bind(&hashes, p->bind);
		const struct found *l = same_bind(&labels, p->bind);

		strbuf_reset(&hash);
		strbuf_reset(&name);
		if (!is_string(p->v) || !p->v->u.str.len) {
			strbuf_addf(err, "the %s path at %s%s is not a "
				    "string", li->name, li->path, p->bind);
			ret = -1;
		} else if (!h || !is_string(h->v) ||
			   spell_hash(&hash, h->v, li->spelling)) {
			strbuf_addf(err, "the %s at %s has no SHA-256 hash "
				    "spelt %s at %s", li->name, p->v->u.str.ptr,
				    li->spelling == SPELL_HEX ? "as bare hex" :
				    "sha256:<hex>", li->hash);
			ret = -1;
		} else {
			struct pinned_input *in;

			record_add_input(out, li->name, p->v->u.str.ptr,
					 hash.buf, li->mode);
			in = &out->inputs[out->nr - 1];
			if (l && is_string(l->v))
				strbuf_add(&name, l->v->u.str.ptr,
					   l->v->u.str.len);
			else if (*p->bind)
				strbuf_addf(&name, "%s%s", li->name, p->bind);
			if (name.len)
				in->name = in->own_name =
					strbuf_detach(&name, NULL);
		}
	}
	founds_release(&paths);
	founds_release(&hashes);
	founds_release(&labels);
	strbuf_release(&hash);
	strbuf_release(&name);
	return ret;
}

int record_from_layout(struct record *out, const struct layout *lay,
		       const char *file, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	if (!read_file_limited(&text, file, LAYOUT_RECORD_MAX, err))
		ret = record_from_layout_text(out, lay, file, text.buf,
					      text.len, err);
	strbuf_release(&text);
	return ret;
}

int record_from_layout_text(struct record *out, const struct layout *lay,
			    const char *file, const char *text, size_t len,
			    struct strbuf *err)
{
	struct arena arena = ARENA_INIT;
	struct founds commit = { 0 };
	struct value *root;
	size_t i;
	int ret = -1;

	strbuf_addstr(&out->file, file);
	if (jsonload_parse(&root, &arena, text, len, err))
		goto out;
	for (i = 0; i < lay->nr; i++)
		if (add_inputs(out, &lay->inputs[i], root, err))
			goto out;
	if (lay->commit) {
		find(root, lay->commit, &commit);
		if (commit.nr && is_string(commit.items[0].v))
			out->commit = xstrdup(commit.items[0].v->u.str.ptr);
	}
	ret = 0;
out:
	founds_release(&commit);
	arena_release(&arena);
	return ret;
}

/* v as argv, when it is a list of UTF-8 strings free of NUL bytes. */
static struct jval *argv_of(const struct value *v)
{
	struct jval *argv;
	size_t i;

	if (!v || v->kind != VALUE_SEQ)
		return NULL;
	for (i = 0; i < v->nr; i++)
		if (!is_string(value_deref(v->u.items[i])))
			return NULL;
	argv = jval_array();
	if (!argv)
		die("out of memory");
	for (i = 0; i < v->nr; i++) {
		const struct value *s = value_deref(v->u.items[i]);
		/* NULL for a string that is not UTF-8: refused as well */
		struct jval *arg = jval_stringn(s->u.str.ptr, s->u.str.len);

		if (!arg) {
			jval_decref(argv);
			return NULL;
		}
		if (jval_array_append_new(argv, arg))
			die("out of memory");
	}
	return argv;
}

int layout_record_command(struct jval **out, const struct layout *lay,
			  const char *file, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct arena arena = ARENA_INIT;
	struct founds cmd = { 0 };
	struct value *root;
	int ret = -1;

	*out = NULL;
	if (!lay->command)
		return 0;
	if (read_file_limited(&text, file, LAYOUT_RECORD_MAX, err) ||
	    jsonload_parse(&root, &arena, text.buf, text.len, err))
		goto out;
	find(root, lay->command, &cmd);
	if (!cmd.nr) {
		ret = 0;
		goto out;
	}
	*out = argv_of(cmd.items[0].v);
	if (!*out) {
		strbuf_addf(err, "the command at %s is not a list of strings "
			    "(argv); replay runs no shell to split a string",
			    lay->command);
		goto out;
	}
	ret = 1;
out:
	founds_release(&cmd);
	arena_release(&arena);
	strbuf_release(&text);
	return ret;
}

#define SIDECAR_DIR "{dir}/"

int layout_sidecar_check(const char *pattern, struct strbuf *err)
{
	const char *p, *rest = pattern + strlen(SIDECAR_DIR);
	int named = 0;

	if (strncmp(pattern, SIDECAR_DIR, strlen(SIDECAR_DIR))) {
		strbuf_addstr(err, "starts with {dir}/: a sidecar lies beside "
			      "or below its record");
		return -1;
	}
	for (p = rest; *p; p++) {
		size_t n;

		if (*p == '}') {
			strbuf_addstr(err, "has a '}' that closes nothing");
			return -1;
		}
		if (*p != '{')
			continue;
		n = strcspn(p, "}");
		if (!p[n]) {
			strbuf_addstr(err, "has an unclosed '{'");
			return -1;
		}
		if ((n == 5 && !strncmp(p, "{stem", 5)) ||
		    (n == 5 && !strncmp(p, "{name", 5)))
			named = 1;
		else {
			strbuf_addf(err, "has an unknown placeholder '%.*s}' "
				    "({dir} first, then {stem} or {name})",
				    (int)n, p);
			return -1;
		}
		p += n;
	}
	if (!named) {
		strbuf_addstr(err, "names no {stem} or {name}: every record "
			      "would share one sidecar");
		return -1;
	}
	for (p = rest; *p; p += strcspn(p, "/"), p += !!*p)
		if (!strncmp(p, "..", 2) && (!p[2] || p[2] == '/')) {
			strbuf_addstr(err, "leads outside the record's "
				      "directory ('..')");
			return -1;
		}
	if (ends_with(rest, ".replay.json")) {
		strbuf_addstr(err, "ends in .replay.json, which names AHD's "
			      "sidecars");
		return -1;
	}
	if (!strcmp(rest, "{name}") || !*rest || rest[strlen(rest) - 1] == '/') {
		strbuf_addstr(err, "does not name a file other than the record");
		return -1;
	}
	return 0;
}

void layout_sidecar_for(struct strbuf *out, const struct layout *lay,
			const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	const char *dot = strrchr(name, '.');
	size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);
	const char *p = lay->sidecar + strlen(SIDECAR_DIR);

	if (slash)
		strbuf_add(out, path, (size_t)(slash - path) + 1);
	while (*p) {
		if (!strncmp(p, "{stem}", 6)) {
			strbuf_add(out, name, stem);
			p += 6;
		} else if (!strncmp(p, "{name}", 6)) {
			strbuf_addstr(out, name);
			p += 6;
		} else
			strbuf_addch(out, *p++);
	}
}

/* s as a JSON string; "null" for none (or one that is not UTF-8). */
static void add_json_string(struct strbuf *out, const char *s)
{
	struct jval *v = s ? jval_string(s) : NULL;

	if (v)
		jsonout_write(out, v, JSONOUT_COMPACT, 0);
	else
		strbuf_addstr(out, "null");
	jval_decref(v);
}

void layout_render_block(struct strbuf *out, const struct layout *lay,
			 const struct record *rec)
{
	size_t i;

	strbuf_addstr(out, LAYOUT_BLOCK_INFO "\nlayout: ");
	add_json_string(out, lay->name);
	strbuf_addstr(out, "\ncommit: ");
	add_json_string(out, rec->commit);
	strbuf_addstr(out, "\ninputs:\n");
	for (i = 0; i < rec->nr; i++) {
		strbuf_addstr(out, "  - name: ");
		add_json_string(out, rec->inputs[i].name);
		strbuf_addstr(out, "\n    path: ");
		add_json_string(out, rec->inputs[i].path);
		strbuf_addstr(out, "\n    hash: ");
		add_json_string(out, rec->inputs[i].hash);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "```");
}

/* The line [p, e), a CR before its LF dropped, is exactly s. */
static int line_is(const char *p, const char *e, const char *s)
{
	size_t k = strlen(s);

	if (e > p && e[-1] == '\r')
		e--;
	return (size_t)(e - p) == k && !memcmp(p, s, k);
}

int layout_is_ahd_sidecar(const char *path)
{
	return ends_with(path, ".replay.json");
}

int layout_report_ambiguous(const struct layout *lay, const char *report,
			    struct strbuf *why)
{
	struct strbuf ahd = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (!lay || !lay->sidecar || layout_is_ahd_sidecar(report))
		return 0;
	sidecar_path_for(&ahd, report);
	/*
	 * Anything there but "nothing" is ambiguous: a dangling link or an
	 * unreadable directory still says AHD's sidecar may be meant.
	 */
	if (strcmp(ahd.buf, report) &&
	    (!lstat(ahd.buf, &st) || errno != ENOENT)) {
		strbuf_addf(why, "both AHD's sidecar %s and layout '%s' "
			    "describe this report; name %s for AHD's record",
			    ahd.buf, lay->name, ahd.buf);
		ret = 1;
	}
	strbuf_release(&ahd);
	return ret;
}

int layout_find_block(const char *text, size_t len, size_t *begin,
		      size_t *end)
{
	const char *p = text, *e = text + len, *start = NULL;

	while (p < e) {
		const char *le = memchr(p, '\n', (size_t)(e - p));

		if (!le)
			le = e;
		if (!start && line_is(p, le, LAYOUT_BLOCK_INFO))
			start = p;
		else if (start && line_is(p, le, "```")) {
			*begin = (size_t)(start - text);
			/* at the closing fence's line break, CR included */
			*end = (size_t)(le - text) - (le > p && le[-1] == '\r');
			return 0;
		}
		p = le + (le < e);
	}
	/* a block never closed: to the end, so the comparison says so */
	if (!start)
		return -1;
	*begin = (size_t)(start - text);
	*end = len;
	return 0;
}

struct block_of {
	const struct layout *lay;
	const struct record *rec;
};

static void render_record(struct strbuf *out, const void *data)
{
	const struct block_of *b = data;

	layout_render_block(out, b->lay, b->rec);
}

int layout_compare_block(struct strbuf *warning, long *line,
			 const struct layout *lay, const struct record *rec,
			 const char *report, const char *root,
			 int allow_outside)
{
	const struct render_block how = { layout_find_block, render_record };
	struct block_of b = { lay, rec };

	return render_compare_with(warning, line, report, root, allow_outside,
				   &how, &b);
}
