#include "config.h"
#include "render.h"
#include "hashfile.h"
#include "readfile.h"
#include "numfmt.h"
#include "utf8.h"

#include <string.h>
#include <unistd.h>

void render_shell_quote(struct strbuf *out, const char *arg)
{
	const char *p;

	if (!*arg) {
		strbuf_add(out, "''", 2);
		return;
	}
	for (p = arg; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_./:@=,+-", *p))
			break;
	if (!*p) {
		strbuf_addstr(out, arg);
		return;
	}
	strbuf_addch(out, '\'');
	for (p = arg; *p; p++)
		if (*p == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *p);
	strbuf_addch(out, '\'');
}

/* sha256:<full> becomes sha256:<first 12>, as shortenHash() does. */
static void add_short_hash(struct strbuf *out, const char *h)
{
	const char *colon = strchr(h, ':');
	size_t rest;

	if (!colon) {
		strbuf_add(out, h, strlen(h) < 12 ? strlen(h) : 12);
		return;
	}
	strbuf_add(out, h, (size_t)(colon - h) + 1);
	rest = strlen(colon + 1);
	strbuf_add(out, colon + 1, rest < 12 ? rest : 12);
}

/* s.slice(0, n) in JavaScript: the first n UTF-16 units. */
static void add_utf16_prefix(struct strbuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t units = 0;

	while (*p && units < n) {
		size_t len = utf8_seq_length(*p);

		/* An astral character is two units; slice() may split it. */
		units += len == 4 ? 2 : 1;
		if (units > n)
			break;
		strbuf_add(out, p, len);
		p += len;
	}
}

/* A JSON value as a JavaScript template literal shows it. */
static void add_js(struct strbuf *out, const json_t *v)
{
	char num[NUMFMT_MAX];

	if (!v || json_is_null(v))
		strbuf_addstr(out, "null");
	else if (json_is_string(v))
		strbuf_add(out, json_string_value(v), json_string_length(v));
	else if (json_is_number(v))
		strbuf_add(out, num, numfmt_es(num, json_number_value(v)));
	else if (json_is_boolean(v))
		strbuf_addstr(out, json_is_true(v) ? "true" : "false");
}

static void add_join(struct strbuf *out, const json_t *arr)
{
	size_t i;
	json_t *item;

	json_array_foreach(arr, i, item) {
		if (i)
			strbuf_add(out, ", ", 2);
		add_js(out, item);
	}
}

void render_markdown(struct strbuf *out, const struct sidecar *sc)
{
	const json_t *doc = sc->json;
	const json_t *sampling = json_object_get(doc, "sampling");
	const json_t *conditions = json_object_get(doc, "conditions");
	const json_t *models = json_object_get(doc, "models");
	const json_t *argv = json_object_get(doc, "argv");
	json_t *m, *arg;
	size_t i;

	strbuf_addstr(out, "```yaml ahd-replay\nschema_version: ");
	add_js(out, json_object_get(doc, "schema_version"));
	strbuf_addf(out, "\nkind: %s\nahd_version: %s\nahd_commit: %s\n",
		    sc->kind, sc->ahd_version,
		    sc->ahd_commit ? sc->ahd_commit : "null");
	if (sc->git_dirty == 1)
		strbuf_addstr(out, "git_dirty: true\n");
	strbuf_addstr(out, "node_version: ");
	add_js(out, json_object_get(doc, "node_version"));
	strbuf_addstr(out, "\nplatform: ");
	add_js(out, json_object_get(doc, "platform"));
	strbuf_addf(out, "\ninvoked_at: %s\ntoken:\n  path: %s\n  hash: ",
		    sc->invoked_at, sc->token.path);
	add_short_hash(out, sc->token.hash);
	if (sc->brief.path) {
		strbuf_addf(out, "\nbrief:\n  path: %s\n  hash: ", sc->brief.path);
		add_short_hash(out, sc->brief.hash);
	}
	strbuf_addstr(out, "\nsampling:\n  n: ");
	add_js(out, json_object_get(sampling, "n"));
	strbuf_addstr(out, "\n  temperature: ");
	add_js(out, json_object_get(sampling, "temperature"));
	strbuf_addstr(out, "\n  seed: ");
	add_js(out, json_object_get(sampling, "seed"));
	strbuf_addstr(out, "\nmodels:\n");
	json_array_foreach(models, i, m) {
		strbuf_addstr(out, "  - id: ");
		add_js(out, json_object_get(m, "id"));
		strbuf_addstr(out, "\n    provider: ");
		add_js(out, json_object_get(m, "provider"));
		strbuf_addf(out, "\n    provider_request_ids: %zu captured\n",
			    json_array_size(json_object_get(m,
					    "provider_request_ids")));
	}
	strbuf_addstr(out, "conditions:\n  requested: [");
	add_join(out, json_object_get(conditions, "requested"));
	strbuf_addstr(out, "]\n  effective: [");
	add_join(out, json_object_get(conditions, "effective"));
	strbuf_addstr(out, "]\n```\n\nReplay this run:\n\n```sh\n");
	if (sc->ahd_commit && *sc->ahd_commit) {
		strbuf_addstr(out, "git checkout ");
		add_utf16_prefix(out, sc->ahd_commit, 12);
		strbuf_addstr(out, "\nnpm ci && npm run build\n");
	}
	else
		strbuf_addf(out, "# install ahd@%s\n", sc->ahd_version);
	json_array_foreach(argv, i, arg) {
		if (i)
			strbuf_addch(out, ' ');
		render_shell_quote(out, json_string_value(arg));
	}
	strbuf_addstr(out, "\n```");
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

int render_find_block(const char *text, size_t len, size_t *begin,
		      size_t *end)
{
	const char *p = text, *e = text + len, *start = NULL;
	int in_sh = 0;

	while (p < e) {
		const char *le = line_end(p, e);
		size_t n = (size_t)(le - p);

		/* A report saved with CRLF line breaks holds the same block. */
		if (n && p[n - 1] == '\r')
			n--;
		if (!start) {
			if (n == 18 && !memcmp(p, "```yaml ahd-replay", 18))
				start = p;
		} else if (!in_sh) {
			if (n == 5 && !memcmp(p, "```sh", 5))
				in_sh = 1;
		} else if (n == 3 && !memcmp(p, "```", 3)) {
			*begin = (size_t)(start - text);
			*end = (size_t)(le - text);
			return 0;
		}
		p = le < e ? le + 1 : e;
	}
	/*
	 * A yaml block without its command block still is the replay
	 * block: take it to the end, so the comparison can say what is
	 * missing.
	 */
	if (start) {
		*begin = (size_t)(start - text);
		*end = len;
		return 0;
	}
	return -1;
}

int render_compare_block(struct strbuf *warning, long *line_out,
			 const char *path, const struct sidecar *sc)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT, err = STRBUF_INIT;
	size_t begin, end, i = 0, line;
	const char *a, *b, *p;
	int ret = 0;

	if (!*path || access(path, F_OK) ||
	    read_file_limited(&text, path, HASH_DEFAULT_MAX_SIZE, &err) ||
	    render_find_block(text.buf, text.len, &begin, &end))
		goto out;
	render_markdown(&want, sc);
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
	*line_out = (long)line;
	ret = 1;
	{
		const char *ea = memchr(a + i, '\n', end - begin - i);
		const char *eb = i <= want.len ?
			memchr(b + i, '\n', want.len - i) : NULL;
		size_t na = ea ? (size_t)(ea - a - i) : end - begin - i;
		size_t nb = i <= want.len ? (eb ? (size_t)(eb - b - i) :
					     want.len - i) : 0;

		strbuf_addf(warning, "the replay block in %s differs "
			    "from the sidecar at line %zu: it has '%.*s', the "
			    "sidecar renders '%.*s' (the JSON is authoritative)",
			    path, line, (int)(na > 80 ? 80 : na),
			    a + i, (int)(nb > 80 ? 80 : nb), b + i);
	}
out:
	strbuf_release(&text);
	strbuf_release(&want);
	strbuf_release(&err);
	return ret;
}

/* A line of spaces and tabs only (a trailing '\r' included). */
static int is_blank(const char *p, const char *e)
{
	for (; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

/* Skip blank lines; returns the start of the first other line. */
static const char *skip_blank_lines(const char *p, const char *end)
{
	while (p < end) {
		const char *le = line_end(p, end);

		if (!is_blank(p, le))
			break;
		p = le < end ? le + 1 : end;
	}
	return p;
}

/*
 * The first level-one ATX heading ("# Title", up to three spaces in
 * front) outside fenced code blocks and YAML front matter.  Returns the
 * offset just past its line (past the newline), or -1.
 */
static long find_heading(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char fence = 0;
	size_t fence_len = 0;
	int front = 0;

	while (p < end) {
		const char *le = line_end(p, end), *q = p;
		size_t n = 0;

		if (p == text && le - p >= 3 && !memcmp(p, "---", 3) &&
		    is_blank(p + 3, le))
			front = 1;
		else if (front) {
			if ((le - p >= 3 && (!memcmp(p, "---", 3) ||
					     !memcmp(p, "...", 3))) &&
			    is_blank(p + 3, le))
				front = 0;
		} else {
			while (q < le && *q == ' ' && q - p < 3)
				q++;
			if (q < le && (*q == '`' || *q == '~')) {
				char ch = *q;

				while (q + n < le && q[n] == ch)
					n++;
				if (n >= 3 && !fence) {
					fence = ch;
					fence_len = n;
				} else if (n >= fence_len && ch == fence &&
					   is_blank(q + n, le))
					fence = 0;
			} else if (!fence && q < le && *q == '#' &&
				   (q + 1 == le || q[1] == ' ' ||
				    q[1] == '\t' || q[1] == '\r'))
				return (long)((le < end ? le + 1 : end) - text);
		}
		p = le < end ? le + 1 : end;
	}
	return -1;
}

void render_place_block(struct strbuf *out, const struct strbuf *report,
			const struct strbuf *block)
{
	const char *text = report->buf, *end = report->buf + report->len;
	const char *rest;
	size_t begin, stop;
	long at;

	if (!render_find_block(text, report->len, &begin, &stop)) {
		strbuf_add(out, text, begin);
		strbuf_addbuf(out, block);
		strbuf_add(out, text + stop, report->len - stop);
		return;
	}
	at = find_heading(text, report->len);
	if (at >= 0) {
		strbuf_add(out, text, (size_t)at);
		if (!at || text[at - 1] != '\n')
			strbuf_addch(out, '\n');
		strbuf_addch(out, '\n');
		rest = text + at;
	} else
		rest = text;
	strbuf_addbuf(out, block);
	strbuf_addch(out, '\n');
	rest = skip_blank_lines(rest, end);
	if (rest < end) {
		strbuf_addch(out, '\n');
		strbuf_add(out, rest, (size_t)(end - rest));
	}
}
