/*
 * libFuzzer target: arbitrary bytes as a REPLAY.jsonl event log through
 * the checks of src/record/eventlog.h, once as `log verify` reads it,
 * once more with every line on the full path (jansson, then the
 * canonical form printed and compared), and once as
 * `log verify --canonicalize` rewrites it.
 *
 * Besides the sanitizers' findings it aborts when a contract breaks:
 *
 *  - every problem has a rule name from eventlog.h's list and a one-line
 *    message; a refusal (-1) comes with a one-line reason;
 *  - the fast path for canonical lines reports exactly what the full
 *    path reports: the same problems, in the same order, with the same
 *    words, the same refusal, the same summary counts, the same
 *    rewritten log;
 *  - eventlog_read(), the reader `log verify` uses, says what the
 *    line-by-line run below says, unless a line is over its limit;
 *  - reading and rewriting agree on which lines are refused;
 *  - the rewrite is a fixed point: the rewritten log, checked again, has
 *    no "canonical" problem and as many "json" ones (lines without an
 *    event string stay such), and rewriting it once more gives the same
 *    bytes.  Anything else would let --canonicalize write a log
 *    that log verify then calls non-canonical.
 *
 * Build and run with t/fuzz/build.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/eventlog.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT (256 * 1024)

static const char *const rules[] = {
	"header", "json", "canonical", "params_hash", "pairing", "timestamp",
	"total_tool_calls", "step_utility", "preview", "preview_hash",
	"receipt",
};

struct tally {
	size_t json, canonical;
	struct strbuf said;	/* every problem and refusal, in order */
};
#define TALLY_INIT { 0, 0, STRBUF_INIT }

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-eventlog: %s\n", what);
	if (detail)
		fprintf(stderr, "fuzz-eventlog: %s\n", detail);
	abort();
}

static int one_line(const char *s)
{
	return *s && !strchr(s, '\n');
}

static void report(void *data, size_t line, const char *rule,
		   const char *msg)
{
	struct tally *t = data;
	size_t i;

	strbuf_addf(&t->said, "%zu: %s: %s\n", line, rule, msg);
	for (i = 0; i < sizeof(rules) / sizeof(*rules); i++)
		if (!strcmp(rule, rules[i]))
			break;
	if (i == sizeof(rules) / sizeof(*rules))
		fail("a problem with an unknown rule name", rule);
	if (!one_line(msg))
		fail("a problem message that is empty or spans lines", msg);
	if (!strcmp(rule, "json"))
		t->json++;
	else if (!strcmp(rule, "canonical"))
		t->canonical++;
}

/*
 * Feed the log to a fresh checker, line by line as log.c splits it;
 * with out set, collect the rewritten log.  Returns the number of lines
 * taken before a refusal, or (size_t)-1 when every line was taken.
 */
static size_t run(const char *buf, size_t len, struct strbuf *out,
		  struct tally *t, int full_path)
{
	struct strbuf err = STRBUF_INIT;
	struct eventlog el;
	size_t pos = 0, nr = 0, taken = (size_t)-1;

	eventlog_init(&el, report, t);
	el.no_fast_path = full_path;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		if (eventlog_line(&el, buf + pos, end - pos, out, &err) < 0) {
			taken = nr;
			break;
		}
		nr++;
		pos = nl ? end + 1 : len;
	}
	if (taken == (size_t)-1 && eventlog_finish(&el, &err) < 0)
		taken = nr;
	if (taken != (size_t)-1 && !one_line(err.buf))
		fail("a refusal without a one-line reason", err.buf);
	strbuf_addf(&t->said, "refused: %s\nsummary: %zu %zu %zu %zu %zu %zu\n",
		    err.buf, el.lines, el.problems, el.tool_calls,
		    el.tool_results, el.unknown_events, el.unknown_fields);
	eventlog_release(&el);
	strbuf_release(&err);
	return taken;
}

static int collect(void *data, const char *buf, size_t len,
		   struct strbuf *err)
{
	(void)err;
	strbuf_add(data, buf, len);
	return 0;
}

/*
 * The log through eventlog_read() from a memory stream, with a line
 * limit of max bytes; its transcript must be the line-by-line one, or a
 * refusal for a line over max.
 */
static void check_reader(const char *buf, size_t len, size_t max,
			 const struct tally *lines, const struct strbuf *out)
{
	struct tally t = TALLY_INIT;
	struct strbuf err = STRBUF_INIT, rewritten = STRBUF_INIT;
	struct eventlog el;
	FILE *fp = fmemopen((void *)buf, len, "r");

	if (!len)
		return;	/* fmemopen refuses an empty buffer */
	if (!fp)
		fail("fmemopen failed", NULL);
	eventlog_init(&el, report, &t);
	el.max_line = max;
	if (eventlog_read(&el, fp, out ? collect : NULL, &rewritten,
			  &err) < 0 && strstr(err.buf, "longer than the limit")) {
		if (!strstr(err.buf, " (--max-line-bytes)"))
			fail("a line over the limit without the option's name",
			     err.buf);
	} else {
		strbuf_addf(&t.said, "refused: %s\nsummary: %zu %zu %zu %zu "
			    "%zu %zu\n", err.buf, el.lines, el.problems,
			    el.tool_calls, el.tool_results, el.unknown_events,
			    el.unknown_fields);
		if (strcmp(t.said.buf, lines->said.buf))
			fail("eventlog_read() disagrees with the lines",
			     t.said.buf);
		if (out && !err.len && strcmp(rewritten.buf, out->buf))
			fail("eventlog_read() rewrote differently", NULL);
	}
	fclose(fp);
	eventlog_release(&el);
	strbuf_release(&err);
	strbuf_release(&rewritten);
	strbuf_release(&t.said);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;
	struct strbuf once_full = STRBUF_INIT;
	struct tally first = TALLY_INIT, full = TALLY_INIT, again = TALLY_INIT;
	struct tally rewrite_full = TALLY_INIT;
	const char *buf = (const char *)data;
	size_t read_taken, rewrite_taken;

	if (size > FUZZ_MAX_INPUT)
		return 0;

	read_taken = run(buf, size, NULL, &first, 0);
	if (run(buf, size, NULL, &full, 1) != read_taken ||
	    strcmp(first.said.buf, full.said.buf)) {
		fprintf(stderr, "fuzz-eventlog: fast path:\n%s", first.said.buf);
		fprintf(stderr, "fuzz-eventlog: full path:\n%s", full.said.buf);
		fail("the fast path and the full path disagree", NULL);
	}
	check_reader(buf, size, size % 200 + 1, &first, NULL);
	rewrite_taken = run(buf, size, &once, &again, 0);
	if (run(buf, size, &once_full, &rewrite_full, 1) != rewrite_taken ||
	    strcmp(again.said.buf, rewrite_full.said.buf) ||
	    once.len != once_full.len ||
	    memcmp(once.buf, once_full.buf, once.len))
		fail("the fast path rewrites differently", once.buf);
	check_reader(buf, size, FUZZ_MAX_INPUT, &again, &once);
	/* rewriting also refuses a line that is not JSON at all */
	if (rewrite_taken != (size_t)-1 && rewrite_taken > read_taken)
		fail("the rewrite took lines that reading refused", NULL);
	if (rewrite_taken == (size_t)-1) {
		if (read_taken != (size_t)-1)
			fail("reading refused a log the rewrite took", NULL);
		again.json = again.canonical = 0;
		if (run(once.buf, once.len, &twice, &again, 0) != (size_t)-1)
			fail("the rewritten log is refused", once.buf);
		if (again.canonical)
			fail("the rewritten log is not canonical", once.buf);
		if (again.json != first.json)
			fail("the rewrite changed which lines are events",
			     once.buf);
		if (once.len != twice.len ||
		    memcmp(once.buf, twice.buf, once.len))
			fail("rewriting is not a fixed point", once.buf);
	}
	strbuf_release(&once);
	strbuf_release(&twice);
	strbuf_release(&first.said);
	strbuf_release(&full.said);
	strbuf_release(&again.said);
	strbuf_release(&once_full);
	strbuf_release(&rewrite_full.said);
	return 0;
}
