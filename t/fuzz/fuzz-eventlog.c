/*
 * libFuzzer target: arbitrary bytes as a REPLAY.jsonl event log through
 * the checks of src/eventlog.h, once as `log verify` reads it and once
 * as `log verify --canonicalize` rewrites it.
 *
 * Besides the sanitizers' findings it aborts when a contract breaks:
 *
 *  - every problem has a rule name from eventlog.h's list and a one-line
 *    message; a refusal (-1) comes with a one-line reason;
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
};

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

	(void)line;
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
		  struct tally *t)
{
	struct strbuf err = STRBUF_INIT;
	struct eventlog el;
	size_t pos = 0, nr = 0, taken = (size_t)-1;

	eventlog_init(&el, report, t);
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
	eventlog_release(&el);
	strbuf_release(&err);
	return taken;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;
	struct tally first = { 0, 0 }, again = { 0, 0 };
	const char *buf = (const char *)data;
	size_t read_taken, rewrite_taken;

	if (size > FUZZ_MAX_INPUT)
		return 0;

	read_taken = run(buf, size, NULL, &first);
	rewrite_taken = run(buf, size, &once, &again);
	/* rewriting also refuses a line that is not JSON at all */
	if (rewrite_taken != (size_t)-1 && rewrite_taken > read_taken)
		fail("the rewrite took lines that reading refused", NULL);
	if (rewrite_taken == (size_t)-1) {
		if (read_taken != (size_t)-1)
			fail("reading refused a log the rewrite took", NULL);
		again.json = again.canonical = 0;
		if (run(once.buf, once.len, &twice, &again) != (size_t)-1)
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
	return 0;
}
