#include "config.h"
#include "render.h"
#include "htmlblock.h"
#include "quote.h"
#include "root/rootfile.h"
#include "hash/hashfile.h"
#include "fs/readfile.h"
#include "json/numfmt.h"
#include "utf8.h"

#include <string.h>
#include <unistd.h>

/* A character an argument may hold and stay bare: A-Za-z0-9_./:@=,+- */
static int shell_bare(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("_./:@=,+-", c));
}

void render_shell_quote(struct strbuf *out, const char *arg)
{
	const char *p;

	if (!*arg) {
		strbuf_add(out, "''", 2);
		return;
	}
	for (p = arg; *p; p++)
		if (!shell_bare(*p))
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

/* A number as a JavaScript template literal shows it. */
static void add_number(struct strbuf *out, double d)
{
	char num[NUMFMT_MAX];

	strbuf_add(out, num, numfmt_es(num, d));
}

static void add_number_or_null(struct strbuf *out, int has, double d)
{
	if (has)
		add_number(out, d);
	else
		strbuf_add(out, "null", 4);
}

/* Array.prototype.join(", ") of strings. */
static void add_join(struct strbuf *out, const struct sidecar_strings *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (i)
			strbuf_add(out, ", ", 2);
		strbuf_addstr(out, l->items[i]);
	}
}

/* A field's name (with the line break before it) and its value. */
static void add_field(struct strbuf *out, const char *name, const char *value)
{
	strbuf_addstr(out, name);
	strbuf_addstr(out, value);
}

static void add_models(struct strbuf *out, const struct sidecar *sc)
{
	size_t i;

	for (i = 0; i < sc->models_nr; i++) {
		add_field(out, "  - id: ", sc->models[i].id);
		add_field(out, "\n    provider: ", sc->models[i].provider);
		strbuf_addstr(out, "\n    provider_request_ids: ");
		strbuf_add_uint(out, sc->models[i].request_ids);
		strbuf_addstr(out, " captured\n");
	}
}

void render_markdown(struct strbuf *out, const struct sidecar *sc)
{
	size_t i;

	strbuf_addstr(out, "```yaml ahd-replay\nschema_version: ");
	add_number(out, sc->schema_version);
	add_field(out, "\nkind: ", sc->kind);
	add_field(out, "\nahd_version: ", sc->ahd_version);
	add_field(out, "\nahd_commit: ", sc->ahd_commit ? sc->ahd_commit :
		  "null");
	strbuf_addch(out, '\n');
	if (sc->git_dirty == 1)
		strbuf_addstr(out, "git_dirty: true\n");
	add_field(out, "node_version: ", sc->node_version);
	add_field(out, "\nplatform: ", sc->platform);
	add_field(out, "\ninvoked_at: ", sc->invoked_at);
	add_field(out, "\ntoken:\n  path: ", sc->token.path);
	strbuf_addstr(out, "\n  hash: ");
	add_short_hash(out, sc->token.hash);
	if (sc->brief.path) {
		add_field(out, "\nbrief:\n  path: ", sc->brief.path);
		strbuf_addstr(out, "\n  hash: ");
		add_short_hash(out, sc->brief.hash);
	}
	strbuf_addstr(out, "\nsampling:\n  n: ");
	add_number(out, sc->n);
	strbuf_addstr(out, "\n  temperature: ");
	add_number_or_null(out, sc->has_temperature, sc->temperature);
	strbuf_addstr(out, "\n  seed: ");
	add_number_or_null(out, sc->has_seed, sc->seed);
	strbuf_addstr(out, "\nmodels:\n");
	add_models(out, sc);
	strbuf_addstr(out, "conditions:\n  requested: [");
	add_join(out, &sc->requested);
	strbuf_addstr(out, "]\n  effective: [");
	add_join(out, &sc->effective);
	strbuf_addstr(out, "]\n```\n\nReplay this run:\n\n```sh\n");
	if (sc->ahd_commit && *sc->ahd_commit) {
		strbuf_addstr(out, "git checkout ");
		add_utf16_prefix(out, sc->ahd_commit, 12);
		strbuf_addstr(out, "\nnpm ci && npm run build\n");
	} else {
		add_field(out, "# install ahd@", sc->ahd_version);
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < sc->argv.nr; i++) {
		if (i)
			strbuf_addch(out, ' ');
		render_shell_quote(out, sc->argv.items[i]);
	}
	strbuf_addstr(out, "\n```");
}

/*
 * Lines end at LF, CRLF or a lone CR, as CommonMark ends them: [p, le)
 * is a line without its break, next_line() the start of the next.
 */
static const char *line_end(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == '\n' || *p == '\r')
			return p;
	return end;
}

static const char *next_line(const char *le, const char *end)
{
	if (le >= end)
		return end;
	if (*le == '\r' && le + 1 < end && le[1] == '\n')
		return le + 2;
	return le + 1;
}

/* Past up to three spaces of indentation: a fence there still is one. */
static const char *indent3(const char *p, const char *e)
{
	const char *q = p;

	while (q < e && *q == ' ' && q - p < 3)
		q++;
	return q;
}

/* The line [p, e), its indentation skipped, is exactly s. */
static int line_is_at(const char *p, const char *e, const char *s)
{
	size_t k = strlen(s);

	p = indent3(p, e);
	return (size_t)(e - p) == k && !memcmp(p, s, k);
}

/*
 * The first line from text (the start of a line) to e that line_is_at()
 * s, or NULL.  Found by searching for s, not by walking every line: a
 * line that is s holds it, and a place that holds it is such a line
 * when up to three spaces lie between it and a line break (or text)
 * before, and a line break (or e) follows.
 */
static const char *find_line(const char *text, const char *e, const char *s)
{
	size_t k = strlen(s);
	const char *q = text, *ls;

	while ((q = memmem(q, (size_t)(e - q), s, k))) {
		for (ls = q; ls > text && ls[-1] == ' ' && q - ls < 3; ls--)
			;
		if ((ls == text || ls[-1] == '\n' || ls[-1] == '\r') &&
		    (q + k == e || q[k] == '\n' || q[k] == '\r'))
			return ls;
		q++;
	}
	return NULL;
}

int render_find_block(const char *text, size_t len, size_t *begin,
		      size_t *end)
{
	const char *e = text + len, *sh = NULL, *close = NULL;
	const char *start = find_line(text, e, "```yaml ahd-replay");

	if (!start)
		return -1;
	/*
	 * The first "```sh" line after it, the first "```" line after that
	 * (any line break: a report saved with CRLF holds the same block).
	 */
	sh = find_line(next_line(line_end(start, e), e), e, "```sh");
	if (sh)
		close = find_line(next_line(line_end(sh, e), e), e, "```");
	*begin = (size_t)(start - text);
	/*
	 * A yaml block without its command block still is the replay
	 * block: take it to the end, so the comparison can say what is
	 * missing.
	 */
	*end = close ? (size_t)(line_end(close, e) - text) : len;
	return 0;
}

static int compare_text_with(struct strbuf *warning, long *line_out,
			     const char *path, struct strbuf *text,
			     const struct render_block *how, const void *data);

static void render_sidecar(struct strbuf *out, const void *sc)
{
	render_markdown(out, sc);
}

static const struct render_block ahd_block = {
	render_find_block, render_sidecar
};

int render_compare_block(struct strbuf *warning, long *line_out,
			 const char *path, const char *root, int allow_outside,
			 const struct sidecar *sc)
{
	return render_compare_with(warning, line_out, path, root,
				   allow_outside, &ahd_block, sc);
}

int render_compare_with(struct strbuf *warning, long *line_out,
			const char *path, const char *root, int allow_outside,
			const struct render_block *how, const void *data)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	if (!*path || access(path, F_OK))
		goto out;
	if (rootfile_read(&text, root, path, allow_outside,
			  HASH_DEFAULT_MAX_SIZE, &err) == ROOTFILE_OUTSIDE) {
		/* Say so, without a byte of what it leads to. */
		*line_out = 1;
		strbuf_addf(warning, "the replay block was not compared: %s",
			    err.buf);
		ret = 1;
		goto out;
	}
	if (!err.len)
		ret = compare_text_with(warning, line_out, path, &text, how,
					data);
out:
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

int render_compare_text(struct strbuf *warning, long *line_out,
			const char *path, struct strbuf *text,
			const struct sidecar *sc)
{
	return compare_text_with(warning, line_out, path, text, &ahd_block,
				 sc);
}

/* render_compare_text() for any derived block, as render_compare_with(). */
static int compare_text_with(struct strbuf *warning, long *line_out,
			     const char *path, struct strbuf *text,
			     const struct render_block *how, const void *data)
{
	struct strbuf want = STRBUF_INIT;
	size_t begin, end, i = 0, line;
	const char *a, *b, *p;
	int ret = 0;

	if (how->find(text->buf, text->len, &begin, &end))
		goto out;
	/* rendered only for a report that carries a block, about its size */
	strbuf_grow(&want, end - begin + 1);
	how->render(&want, data);
	{
		/* Compare with LF line breaks, whatever the report uses. */
		size_t from = begin, to = begin;

		for (; from < end; from++) {
			if (text->buf[from] == '\r' && from + 1 < end &&
			    text->buf[from + 1] == '\n')
				continue;
			text->buf[to++] = text->buf[from] == '\r' ? '\n' :
				text->buf[from];
		}
		memmove(text->buf + to, text->buf + end, text->len - end + 1);
		text->len -= end - to;
		end = to;
	}
	if (end - begin == want.len && !memcmp(text->buf + begin, want.buf,
					       want.len))
		goto out;
	a = text->buf + begin;
	b = want.buf;
	while (i < end - begin && i < want.len && a[i] == b[i])
		i++;
	/* Back to the start of the differing line; count lines before it. */
	while (i > 0 && a[i - 1] != '\n')
		i--;
	line = 1;
	for (p = text->buf; p < a + i; p++)
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
			    "from the sidecar at line %zu: it has '", path,
			    line);
		quote_excerpt(warning, a + i, na, 80);
		strbuf_addstr(warning, "', the sidecar renders '");
		quote_excerpt(warning, b + i, nb, 80);
		strbuf_addstr(warning, "' (the JSON is authoritative)");
	}
out:
	strbuf_release(&want);
	return ret;
}

/*
 * Fenced code blocks as CommonMark delimits them, line by line: a fence
 * opens with three or more backticks or tildes indented at most three
 * spaces (a backtick fence's info string holds no backtick) and closes
 * only with a run of the same character at least as long, followed by
 * nothing but spaces and tabs.
 */
struct fence {
	char ch;		/* 0 outside a fenced block */
	size_t len;
};

/* The fence run on line [p, e): its char and length, or 0 when none. */
static char fence_run(const char *p, const char *e, size_t *len,
		      const char **after)
{
	const char *q = p;
	char ch;

	while (q < e && *q == ' ' && q - p < 3)
		q++;
	if (q >= e || (*q != '`' && *q != '~'))
		return 0;
	ch = *q;
	for (*len = 0; q + *len < e && q[*len] == ch; (*len)++)
		;
	if (*len < 3)
		return 0;
	*after = q + *len;
	return ch;
}

/* Only spaces, tabs and a final '\r' in [p, e). */
static int blank_span(const char *p, const char *e)
{
	for (; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

/*
 * Feed one line; returns 1 when it opens a fence, 2 when it closes one,
 * 0 otherwise (content or text).
 */
static int fence_line(struct fence *f, const char *p, const char *e)
{
	const char *after;
	size_t n;
	char ch = fence_run(p, e, &n, &after);

	if (!f->ch) {
		if (!ch || (ch == '`' && memchr(after, '`', (size_t)(e - after))))
			return 0;
		f->ch = ch;
		f->len = n;
		return 1;
	}
	if (ch == f->ch && n >= f->len && blank_span(after, e)) {
		f->ch = 0;
		return 2;
	}
	return 0;
}

/* The line [p, e) less a final '\r' is exactly s. */
static int line_is(const char *p, const char *e, const char *s)
{
	size_t n = (size_t)(e - p), k = strlen(s);

	if (n && p[n - 1] == '\r')
		n--;
	return n == k && !memcmp(p, s, k);
}

/*
 * Whether a shell line as render_shell_quote() writes arguments ends
 * inside single quotes, given that it starts inside them or not: a '
 * opens or closes them, and outside them a backslash escapes the next
 * character (the \' of '\'').
 */
static int quote_state(const char *p, const char *e, int in_quotes)
{
	for (; p < e; p++) {
		if (in_quotes) {
			if (*p == '\'')
				in_quotes = 0;
		} else if (*p == '\\' && p + 1 < e)
			p++;
		else if (*p == '\'')
			in_quotes = 1;
	}
	return in_quotes;
}

static size_t line_number(const char *text, const char *at)
{
	size_t n = 1;

	for (; text < at; text++)
		n += *text == '\n';
	return n;
}

/*
 * At p, a line "```yaml ahd-replay" outside any fence: is what follows
 * exactly the block render_markdown() makes (the yaml block closed by
 * "```", a blank line, "Replay this run:", a blank line, a "```sh" block
 * closed by "```")?  Returns 1 with *stop at the end of the closing
 * fence (before its line break), else 0.
 */
static int own_block_at(const char *p, const char *end, const char **stop)
{
	static const char *const between[] = { "", "Replay this run:", "",
					       "```sh" };
	struct fence f = { 0, 0 };
	const char *le = line_end(p, end);
	size_t i;
	int r, in_quotes = 0;

	fence_line(&f, p, le);
	for (p = next_line(le, end); p < end; p = next_line(le, end)) {
		le = line_end(p, end);
		if (fence_line(&f, p, le) == 2)
			break;
	}
	if (p >= end || !line_is(p, le, "```"))
		return 0;
	for (i = 0; i < sizeof(between) / sizeof(*between); i++) {
		p = next_line(le, end);
		if (p >= end)
			return 0;
		le = line_end(p, end);
		if (!line_is(p, le, between[i]))
			return 0;
	}
	fence_line(&f, p, le);
	for (p = next_line(le, end); p < end; p = next_line(le, end)) {
		le = line_end(p, end);
		/*
		 * An argument render_shell_quote() put in quotes may hold a
		 * line break and then "```": inside the quotes that line is
		 * the argument's, not the fence's (though CommonMark would
		 * close there), so the whole block is still replaced.
		 */
		r = in_quotes ? 0 : fence_line(&f, p, le);
		if (r != 2 && strncmp(p, "# install ahd@", 14))
			in_quotes = quote_state(p, le, in_quotes);
		if (r == 2) {
			if (!line_is(p, le, "```"))
				return 0;
			*stop = le > p && le[-1] == '\r' ? le - 1 : le;
			return 1;
		}
	}
	return 0;
}

int render_find_own_block(const char *text, size_t len, size_t *begin,
			  size_t *end, struct strbuf *err)
{
	const char *p = text, *e = text + len, *found = NULL, *stop = NULL;
	const char *s;
	struct fence f = { 0, 0 };
	struct html_block h = HTML_BLOCK_INIT;
	int para = 0;

	for (; p < e; p = next_line(line_end(p, e), e)) {
		const char *le = line_end(p, e);

		/* HTML block text is not markdown: no fence opens there */
		if (!f.ch && html_block_line(&h, p, le, para)) {
			para = 0;
			continue;
		}
		para = !f.ch && !blank_span(p, le);
		if (!f.ch && line_is_at(p, le, "```yaml ahd-replay")) {
			if (!own_block_at(p, e, &s)) {
				strbuf_addf(err, "the ```yaml ahd-replay block "
					    "at line %zu is not followed by its "
					    "\"Replay this run:\" ```sh block "
					    "as this tool writes them; "
					    "replacing it could take your own "
					    "text, so the report is left as it "
					    "is (fix or remove that block)",
					    line_number(text, p));
				return -1;
			}
			if (found) {
				strbuf_addf(err, "the report has two replay "
					    "blocks, at lines %zu and %zu; "
					    "remove one", line_number(text,
								      found),
					    line_number(text, p));
				return -1;
			}
			found = p;
			stop = s;
			/* its fences are balanced: go on after it */
			p = stop;
			para = 0;
			continue;
		}
		fence_line(&f, p, le);
	}
	if (!found)
		return 1;
	*begin = (size_t)(found - text);
	*end = (size_t)(stop - text);
	return 0;
}

/*
 * The first level-one ATX heading ("# Title", up to three spaces in
 * front) outside fenced code blocks and YAML front matter.  Returns the
 * offset just past its line (past the newline), or -1.
 */
static long find_heading(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	struct fence f = { 0, 0 };
	struct html_block h = HTML_BLOCK_INIT;
	int front = 0, para = 0;

	for (; p < end; p = next_line(line_end(p, end), end)) {
		const char *le = line_end(p, end), *q = p;

		if (p == text && le - p >= 3 && !memcmp(p, "---", 3) &&
		    blank_span(p + 3, le))
			front = 1;
		else if (front) {
			if (le - p >= 3 && (!memcmp(p, "---", 3) ||
					    !memcmp(p, "...", 3)) &&
			    blank_span(p + 3, le))
				front = 0;
		} else if (!f.ch && html_block_line(&h, p, le, para))
			para = 0;	/* a "# " in HTML is not a heading */
		else if (!fence_line(&f, p, le) && !f.ch) {
			q = indent3(p, le);
			if (q < le && *q == '#' &&
			    (q + 1 == le || q[1] == ' ' || q[1] == '\t'))
				return (long)(next_line(le, end) - text);
			para = !blank_span(p, le);
		} else
			para = 0;
	}
	return -1;
}

/* block with its line breaks written as eol */
static void add_block(struct strbuf *out, const struct strbuf *block,
		      const char *eol)
{
	size_t i;

	for (i = 0; i < block->len; i++) {
		if (block->buf[i] == '\n')
			strbuf_addstr(out, eol);
		else
			strbuf_addch(out, block->buf[i]);
	}
}

/* The report's line break, as its first line ends: LF, CRLF or CR. */
static const char *report_eol(const char *text, size_t len)
{
	const char *le = line_end(text, text + len);

	if (le < text + len && *le == '\r')
		return le + 1 < text + len && le[1] == '\n' ? "\r\n" : "\r";
	return "\n";
}

/*
 * Put the block in the report: in place of our own block, else after
 * the first heading (else at the top), a blank line on each side.  Every
 * byte of the report outside the block is kept: only line breaks are
 * added, in the report's own style.
 */
int render_place_block(struct strbuf *out, const struct strbuf *report,
		       const struct strbuf *block, struct strbuf *err)
{
	const char *text = report->buf, *end = report->buf + report->len;
	const char *rest, *eol = report_eol(text, report->len);
	size_t begin, stop;
	long at;
	int r;

	r = render_find_own_block(text, report->len, &begin, &stop, err);
	if (r < 0)
		return -1;
	if (!r) {
		strbuf_add(out, text, begin);
		add_block(out, block, eol);
		strbuf_add(out, text + stop, report->len - stop);
		return 0;
	}
	at = find_heading(text, report->len);
	rest = text;
	if (at >= 0) {
		strbuf_add(out, text, (size_t)at);
		/* the heading is the last line, without a break */
		if (!at || (text[at - 1] != '\n' && text[at - 1] != '\r'))
			strbuf_addstr(out, eol);
		rest = text + at;
		/* the author's blank line after it, else one of ours */
		if (rest < end && blank_span(rest, line_end(rest, end))) {
			const char *nl = next_line(line_end(rest, end), end);

			strbuf_add(out, rest, (size_t)(nl - rest));
			rest = nl;
		} else
			strbuf_addstr(out, eol);
	}
	add_block(out, block, eol);
	strbuf_addstr(out, eol);
	if (rest < end && !blank_span(rest, line_end(rest, end)))
		strbuf_addstr(out, eol);
	strbuf_add(out, rest, (size_t)(end - rest));
	return 0;
}
