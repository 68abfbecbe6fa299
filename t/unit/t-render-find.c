/*
 * render_find_block() finds the opening line by searching for it rather
 * than by walking every line; here it must find what the walk finds, on
 * generated reports made of near misses (indents of up to four spaces,
 * tabs, text before or after the fence, every kind of line break, NUL
 * bytes), and render_shell_quote() must leave bare exactly the
 * characters it always did.
 */
#include "config.h"
#include "record/render.h"
#include "strbuf.h"
#include "tap.h"

#include <stdint.h>
#include <string.h>

static uint64_t seed = 0xb10c;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(seed >> 33) % n;
}

/* The walk, line by line, as render_find_block() was written first. */
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

static int line_is_at(const char *p, const char *e, const char *s)
{
	size_t k = strlen(s);
	const char *q = p;

	while (q < e && *q == ' ' && q - p < 3)
		q++;
	return (size_t)(e - q) == k && !memcmp(q, s, k);
}

static int walk(const char *text, size_t len, size_t *begin, size_t *end)
{
	const char *p = text, *e = text + len, *start = NULL;
	int in_sh = 0;

	for (; p < e; p = next_line(line_end(p, e), e)) {
		const char *le = line_end(p, e);

		if (!start) {
			if (line_is_at(p, le, "```yaml ahd-replay"))
				start = p;
		} else if (!in_sh) {
			if (line_is_at(p, le, "```sh"))
				in_sh = 1;
		} else if (line_is_at(p, le, "```")) {
			*begin = (size_t)(start - text);
			*end = (size_t)(le - text);
			return 0;
		}
	}
	if (!start)
		return -1;
	*begin = (size_t)(start - text);
	*end = len;
	return 0;
}

static const char *const lines[] = {
	"```yaml ahd-replay", " ```yaml ahd-replay", "   ```yaml ahd-replay",
	"    ```yaml ahd-replay", "\t```yaml ahd-replay", "x```yaml ahd-replay",
	"```yaml ahd-replay ", "```yaml ahd-replay```", "```yaml ahd-repla",
	"```sh", "  ```sh", "```", "   ```", "    ```", "````", "text",
	"", "kind: eval-live", "``` ```yaml ahd-replay",
};
static const char *const breaks[] = { "\n", "\r\n", "\r", "\n\r" };

static void generate(struct strbuf *out)
{
	unsigned i, n = rnd(12);

	for (i = 0; i < n; i++) {
		strbuf_addstr(out, lines[rnd(sizeof(lines) / sizeof(*lines))]);
		if (!rnd(30))
			strbuf_addch(out, '\0');
		if (i + 1 < n || rnd(2))
			strbuf_addstr(out, breaks[rnd(sizeof(breaks) /
						      sizeof(*breaks))]);
	}
}

static void test_find(void)
{
	struct strbuf text = STRBUF_INIT;
	int i, wrong = 0, found = 0;

	for (i = 0; i < 20000; i++) {
		size_t b1 = 0, e1 = 0, b2 = 0, e2 = 0;
		int r1, r2;

		strbuf_reset(&text);
		generate(&text);
		r1 = walk(text.buf, text.len, &b1, &e1);
		r2 = render_find_block(text.buf, text.len, &b2, &e2);
		found += !r1;
		if ((r1 != r2 || b1 != b2 || e1 != e2) && wrong++ < 5)
			diag("differs on '%.*s': walk %d [%zu, %zu), "
			     "search %d [%zu, %zu)", (int)text.len, text.buf,
			     r1, b1, e1, r2, b2, e2);
	}
	ok(!wrong, "the search finds what the walk finds (%d differ)", wrong);
	ok(found > 2000, "in %d of 20000 reports there is a block", found);
	strbuf_release(&text);
}

static void test_bare(void)
{
	struct strbuf out = STRBUF_INIT;
	int c, wrong = 0;

	for (c = 1; c < 256; c++) {
		char arg[2] = { (char)c, '\0' };
		int bare = !!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm"
				    "nopqrstuvwxyz0123456789_./:@=,+-", c);

		strbuf_reset(&out);
		render_shell_quote(&out, arg);
		if (bare != (out.len == 1 && out.buf[0] == (char)c) &&
		    wrong++ < 5)
			diag("character %d: quoted as '%s'", c, out.buf);
	}
	ok(!wrong, "render_shell_quote() leaves bare what it did");
	strbuf_release(&out);
}

int main(void)
{
	plan(3);
	test_find();
	test_bare();
	return 0;
}
