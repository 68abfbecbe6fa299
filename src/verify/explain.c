/*
 * What changed in a drifted input (see explain.h).
 */
#include "config.h"
#include "explain.h"
#include "git/linediff.h"
#include "hash/hashfile.h"
#include "json/jsonout.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A value longer than this is shown cut, with its length. */
#define VALUE_SHOWN_MAX 120

/*
 * Texts longer than this, or further apart, are not diffed: the answer
 * would be no smaller for a person than "they differ" (and the diff's
 * memory grows with the texts).
 */
#define TEXT_DIFF_MAX_LINES 50000
#define TEXT_DIFF_MAX_CHANGES 1000
#define TEXT_DIFF_CONTEXT 3

void explanation_init(struct explanation *e)
{
	memset(e, 0, sizeof(*e));
	strbuf_init(&e->diff, 0);
	strbuf_init(&e->why, 0);
}

void explanation_release(struct explanation *e)
{
	size_t i;

	for (i = 0; i < e->nr; i++) {
		free(e->v[i].path);
		free(e->v[i].old);
		free(e->v[i].new);
	}
	free(e->v);
	strbuf_release(&e->diff);
	strbuf_release(&e->why);
	explanation_init(e);
}

static char *shown_value(const struct jval *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!v)
		return NULL;
	jsonout_write(&sb, v, JSONOUT_COMPACT, 0);
	if (sb.len > VALUE_SHOWN_MAX) {
		size_t cut = VALUE_SHOWN_MAX;

		/* not inside a UTF-8 sequence */
		while (cut && ((unsigned char)sb.buf[cut] & 0xc0) == 0x80)
			cut--;
		strbuf_setlen(&sb, cut);
		strbuf_addstr(&sb, "...");
	}
	return strbuf_detach(&sb, NULL);
}

static void add_change(struct explanation *e, enum explain_op op,
		       const struct strbuf *path, const struct jval *old,
		       const struct jval *new)
{
	struct explain_change *c;

	if (e->nr == EXPLAIN_MAX_CHANGES) {
		e->more++;
		return;
	}
	ALLOC_GROW(e->v, e->nr + 1, e->alloc);
	c = &e->v[e->nr++];
	c->op = op;
	c->path = xstrdup(path->len ? path->buf : "");
	c->old = shown_value(old);
	c->new = shown_value(new);
}

/* RFC 6901: "~" as "~0", "/" as "~1". */
static void pointer_push(struct strbuf *path, const char *key)
{
	strbuf_addch(path, '/');
	for (; *key; key++)
		if (*key == '~')
			strbuf_addstr(path, "~0");
		else if (*key == '/')
			strbuf_addstr(path, "~1");
		else
			strbuf_addch(path, *key);
}

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted keys of an object (canonical text has them sorted anyway). */
static const char **keys_of(const struct jval *o, size_t *n)
{
	const char **keys = xcalloc(jval_object_size(o) + 1, sizeof(*keys));
	const char *key;
	struct jval *v;

	*n = 0;
	jval_object_foreach((struct jval *)o, key, v)
		keys[(*n)++] = key;
	qsort(keys, *n, sizeof(*keys), cmp_keys);
	return keys;
}

static void compare(struct explanation *e, struct strbuf *path,
		    const struct jval *a, const struct jval *b, int depth)
{
	size_t len = path->len, i, na, nb;

	if (jval_equal((struct jval *)a, (struct jval *)b))
		return;
	if (depth < 64 && jval_is_object(a) && jval_is_object(b)) {
		const char **ka = keys_of(a, &na), **kb = keys_of(b, &nb);
		size_t ia = 0, ib = 0;

		while (ia < na || ib < nb) {
			int c = ia == na ? 1 : ib == nb ? -1 :
				strcmp(ka[ia], kb[ib]);

			pointer_push(path, c <= 0 ? ka[ia] : kb[ib]);
			if (!c)
				compare(e, path, jval_object_get(a, ka[ia]),
					jval_object_get(b, kb[ib]), depth + 1);
			else if (c < 0)
				add_change(e, EXPLAIN_REMOVED, path,
					   jval_object_get(a, ka[ia]), NULL);
			else
				add_change(e, EXPLAIN_ADDED, path, NULL,
					   jval_object_get(b, kb[ib]));
			ia += c <= 0;
			ib += c >= 0;
			strbuf_setlen(path, len);
		}
		free(ka);
		free(kb);
		return;
	}
	if (depth < 64 && jval_is_array(a) && jval_is_array(b)) {
		na = jval_array_size(a);
		nb = jval_array_size(b);
		for (i = 0; i < na || i < nb; i++) {
			strbuf_addf(path, "/%zu", i);
			if (i < na && i < nb)
				compare(e, path, jval_array_get(a, i),
					jval_array_get(b, i), depth + 1);
			else if (i < na)
				add_change(e, EXPLAIN_REMOVED, path,
					   jval_array_get(a, i), NULL);
			else
				add_change(e, EXPLAIN_ADDED, path, NULL,
					   jval_array_get(b, i));
			strbuf_setlen(path, len);
		}
		return;
	}
	add_change(e, EXPLAIN_CHANGED, path, a, b);
}

/* The canonical value of text, as hashed, parsed back; NULL and why. */
static struct jval *canonical_value(const char *text, size_t len,
			       struct strbuf *why)
{
	struct strbuf canon = STRBUF_INIT;
	struct jval_error jerr;
	struct jval *v = NULL;

	if (canon_text(&canon, text, len, HASH_STRUCTURED, why))
		goto out;
	v = jval_loadb(canon.buf, canon.len, JVAL_DECODE_ANY |
		       JVAL_DECODE_INT_AS_REAL | JVAL_ALLOW_NUL, &jerr);
	if (!v)
		strbuf_addf(why, "its canonical text cannot be compared: %s",
			    jerr.text);
out:
	strbuf_release(&canon);
	return v;
}

/* Lines as a diff counts them: a last line needs no line feed. */
static size_t count_lines(const char *s, size_t len)
{
	size_t n = len && s[len - 1] != '\n';
	const char *p = s, *end = s + len;

	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p++;
	}
	return n;
}

/*
 * s, or a copy in buf ended by a line feed when it lacks one: whether the
 * last line ends in one is not a change of that line here (when nothing
 * else differs, explain_print() says so instead of printing a diff).
 */
static const char *ended(struct strbuf *buf, const char *s, size_t *len)
{
	if (!*len || s[*len - 1] == '\n')
		return s;
	strbuf_add(buf, s, *len);
	strbuf_addch(buf, '\n');
	*len = buf->len;
	return buf->buf;
}

/*
 * The unified diff of old and new into e (bounded by
 * EXPLAIN_MAX_DIFF_LINES, the count of the rest in e->more).  Returns
 * 0, or -1 with why the texts are not diffed in err.
 */
static int text_diff(struct explanation *e, const char *old, size_t old_len,
		     const char *new, size_t new_len, struct strbuf *err)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t changed;
	int ret = -1;

	if (count_lines(old, old_len) > TEXT_DIFF_MAX_LINES ||
	    count_lines(new, new_len) > TEXT_DIFF_MAX_LINES) {
		strbuf_addf(err, "more than %d lines", TEXT_DIFF_MAX_LINES);
		goto out;
	}
	old = ended(&a, old, &old_len);
	new = ended(&b, new, &new_len);
	if (linediff_unified(&e->diff, &e->more, &changed, old, old_len, new,
			     new_len, TEXT_DIFF_CONTEXT,
			     EXPLAIN_MAX_DIFF_LINES, err))
		goto out;
	if (changed > TEXT_DIFF_MAX_CHANGES) {
		strbuf_reset(&e->diff);
		e->more = 0;
		strbuf_addf(err, "more than %d lines differ",
			    TEXT_DIFF_MAX_CHANGES);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

void explain_compare(struct explanation *e, const char *from,
		     const char *old, size_t old_len, const char *new,
		     size_t new_len, int raw, const char *name)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	struct jval *a = NULL, *b = NULL;

	snprintf(e->from, sizeof(e->from), "%.12s", from);
	if (raw) {
		if (text_diff(e, old, old_len, new, new_len, &why))
			strbuf_addf(&e->why, "%s: no diff: %s", name, why.buf);
		else
			e->kind = EXPLAIN_TEXT;
		goto out;
	}
	a = canonical_value(old, old_len, &why);
	if (!a) {
		strbuf_addf(&e->why, "the version of %s at %s: %s", name,
			    e->from, why.buf);
		goto out;
	}
	b = canonical_value(new, new_len, &why);
	if (!b) {
		strbuf_addf(&e->why, "%s today: %s", name, why.buf);
		goto out;
	}
	compare(e, &path, a, b, 0);
	e->kind = EXPLAIN_STRUCTURED;
out:
	jval_decref(a);
	jval_decref(b);
	strbuf_release(&path);
	strbuf_release(&why);
}

/* Control characters as \xNN: a path or line cannot move the terminal. */
static void add_shown(struct strbuf *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			strbuf_addf(out, "\\x%02x", c);
		else
			strbuf_addch(out, (char)c);
	}
}

void explain_print(struct strbuf *out, const struct explanation *e,
		   const char *indent)
{
	static const char *const ops[] = { "changed", "added", "removed" };
	const char *p, *end;
	size_t i;

	if (e->kind == EXPLAIN_NONE) {
		if (e->why.len) {
			strbuf_addf(out, "%scannot explain: ", indent);
			add_shown(out, e->why.buf, e->why.len);
			strbuf_addch(out, '\n');
		}
		return;
	}
	if (e->kind == EXPLAIN_TEXT) {
		strbuf_addf(out, "%sdiff from %s:\n", indent, e->from);
		if (!e->diff.len)
			strbuf_addf(out, "%s  (only the line endings at the end "
				    "differ)\n", indent);
		/* by length: a line of the input may hold a NUL */
		for (p = e->diff.buf; p < e->diff.buf + e->diff.len;
		     p = end + 1) {
			end = memchr(p, '\n',
				     (size_t)(e->diff.buf + e->diff.len - p));
			if (!end)
				end = e->diff.buf + e->diff.len;
			strbuf_addf(out, "%s  ", indent);
			add_shown(out, p, (size_t)(end - p));
			strbuf_addch(out, '\n');
		}
		if (e->more)
			strbuf_addf(out, "%s  ... %zu more lines of diff\n",
				    indent, e->more);
		return;
	}
	strbuf_addf(out, "%schanges from %s:\n", indent, e->from);
	if (!e->nr)
		strbuf_addf(out, "%s  (none: only the hash differs)\n", indent);
	for (i = 0; i < e->nr; i++) {
		const struct explain_change *c = &e->v[i];

		strbuf_addf(out, "%s  %-8s %s", indent, ops[c->op],
			    *c->path ? "" : "(the whole value)");
		add_shown(out, c->path, strlen(c->path));
		strbuf_addstr(out, ": ");
		if (c->op == EXPLAIN_CHANGED)
			strbuf_addf(out, "%s -> %s", c->old, c->new);
		else
			strbuf_addstr(out, c->op == EXPLAIN_ADDED ? c->new :
				      c->old);
		strbuf_addch(out, '\n');
	}
	if (e->more)
		strbuf_addf(out, "%s  ... %zu more changes\n", indent, e->more);
}

struct jval *explain_json(const struct explanation *e)
{
	static const char *const ops[] = { "changed", "added", "removed" };
	struct jval *o = jval_object();
	size_t i;

	if (e->kind == EXPLAIN_NONE) {
		jsonout_set(o, "kind", jval_string("none"));
		jsonout_set(o, "reason", jsonout_text(e->why.buf));
		return o;
	}
	jsonout_set(o, "kind", jval_string(e->kind == EXPLAIN_TEXT ?
					   "text" : "structured"));
	jsonout_set(o, "from_commit", jval_string(e->from));
	if (e->kind == EXPLAIN_TEXT) {
		/* the lines were read as text (UTF-8 repaired); NULs stay */
		struct jval *diff = jval_stringn(e->diff.buf, e->diff.len);

		jsonout_set(o, "diff", diff ? diff : jsonout_text(e->diff.buf));
		jsonout_set(o, "more_lines", jval_integer((int64_t)e->more));
		return o;
	} else {
		struct jval *list = jval_array();

		for (i = 0; i < e->nr; i++) {
			struct jval *c = jval_object();

			jsonout_set(c, "op", jval_string(ops[e->v[i].op]));
			jsonout_set(c, "path", jsonout_text(e->v[i].path));
			if (e->v[i].old)
				jsonout_set(c, "old", jsonout_text(e->v[i].old));
			if (e->v[i].new)
				jsonout_set(c, "new", jsonout_text(e->v[i].new));
			jval_array_append_new(list, c);
		}
		jsonout_set(o, "changes", list);
		jsonout_set(o, "more", jval_integer((int64_t)e->more));
	}
	return o;
}
