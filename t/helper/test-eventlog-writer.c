/*
 * Test helper: writes REPLAY.jsonl event logs, so that the tests state
 * events readably and the log's bytes come from one canonical writer.
 *
 * Default: each line of standard input is a JSON object, printed in
 * RFC 8785 canonical form.  In string values, "@params" becomes the
 * sha256: hash of the canonical params and "@raw:FIELD" the hash of the
 * UTF-8 bytes of string field FIELD.  A line starting with "RAW " is
 * printed as it stands, without that prefix.
 *
 * --gen N [PAD]: a valid log of N ToolCall/ToolResult pairs whose params
 * carry PAD bytes (default 200) of text, for the memory test and the
 * bench.
 */
#include "config.h"
#include "json/canon.h"
#include "hash/digest.h"
#include "json/jsonload.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A helper may die: without SHA-256 there is nothing to write. */
static void sha256_hex(char out[DIGEST_HEX_MAX], const void *data, size_t len)
{
	if (digest_buffer_hex(out, data, len))
		die("cannot compute SHA-256");
}

static const struct value *field(const struct value *map, const char *key)
{
	uint32_t i;

	for (i = 0; i < map->nr; i++)
		if (!strcmp(map->u.items[2 * i]->u.str.ptr, key))
			return map->u.items[2 * i + 1];
	return NULL;
}

static void canonical(struct strbuf *out, const struct value *v)
{
	struct canon_out co = { STRBUF_INIT, NULL, NULL };
	struct strbuf err = STRBUF_INIT;

	if (canon_write(&co, v, CANON_JCS, &err) < 0)
		die("%s", err.buf);
	strbuf_addbuf(out, &co.buf);
	strbuf_release(&co.buf);
	strbuf_release(&err);
}

static void fill_hashes(struct arena *a, struct value *ev)
{
	char hex[DIGEST_HEX_MAX];
	uint32_t i;

	for (i = 0; i < ev->nr; i++) {
		struct value *v = ev->u.items[2 * i + 1];
		const struct value *src;

		if (v->kind != VALUE_STRING)
			continue;
		if (!strcmp(v->u.str.ptr, "@params")) {
			struct strbuf text = STRBUF_INIT;

			if (!(src = field(ev, "params")))
				die("@params without params");
			canonical(&text, src);
			sha256_hex(hex, text.buf, text.len);
			strbuf_release(&text);
		} else if (!strncmp(v->u.str.ptr, "@raw:", 5)) {
			src = field(ev, v->u.str.ptr + 5);
			if (!src || src->kind != VALUE_STRING)
				die("%s: no such string field", v->u.str.ptr);
			sha256_hex(hex, src->u.str.ptr, src->u.str.len);
		} else {
			continue;
		}
		v->u.str.len = strlen(hex);
		v->u.str.ptr = arena_memdup(a, hex, v->u.str.len);
	}
}

static void rewrite(void)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct arena a = ARENA_INIT;
	char *line = NULL;
	size_t alloc = 0;
	ssize_t n;

	while ((n = getline(&line, &alloc, stdin)) >= 0) {
		struct value *ev;
		size_t len = (size_t)n;

		if (len && line[len - 1] == '\n')
			len--;
		if (len >= 4 && !memcmp(line, "RAW ", 4)) {
			fwrite(line + 4, 1, len - 4, stdout);
			putchar('\n');
			continue;
		}
		if (jsonload_ijson(&ev, &a, line, len, &err) < 0)
			die("%s", err.buf);
		if (ev->kind == VALUE_MAP)
			fill_hashes(&a, ev);
		canonical(&out, ev);
		strbuf_addch(&out, '\n');
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_reset(&out);
		arena_release(&a);
	}
	free(line);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* ISO-8601 UTC of a second after the header's 2026-01-13T10:00:00Z */
static void timestamp(char out[32], unsigned long after)
{
	time_t t = (time_t)(1768298400UL + after);
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
		die("cannot format a timestamp");
}

static void generate(unsigned long pairs, size_t pad)
{
	struct strbuf params = STRBUF_INIT, text = STRBUF_INIT;
	char hex[DIGEST_HEX_MAX], t[32];
	unsigned long i;

	printf("{\"created_at\":\"2026-01-13T10:00:00Z\",\"event\":"
	       "\"ReplayHeader\",\"producer\":\"test-eventlog-writer\","
	       "\"replay_version\":1}\n");
	for (i = 0; i < pairs; i++) {
		strbuf_reset(&params);
		strbuf_addf(&params, "{\"n\":%lu,\"path\":\"src/file-%lu.rs\","
			    "\"text\":\"", i, i % 997);
		strbuf_grow(&params, pad);
		memset(params.buf + params.len, 'a' + (int)(i % 26), pad);
		strbuf_setlen(&params, params.len + pad);
		strbuf_addstr(&params, "\"}");
		sha256_hex(hex, params.buf, params.len);
		strbuf_reset(&text);
		timestamp(t, 2 * i);
		strbuf_addf(&text, "{\"event\":\"ToolCall\",\"id\":\"tc_%lu\","
			    "\"params\":%s,\"params_hash\":\"%s\",\"step_id\":"
			    "\"step-%lu\",\"t\":\"%s\","
			    "\"tool\":\"file_read\"}\n", i, params.buf, hex,
			    i / 10, t);
		sha256_hex(hex, text.buf, text.len);
		timestamp(t, 2 * i + 1);
		strbuf_addf(&text, "{\"event\":\"ToolResult\",\"exit_code\":0,"
			    "\"id\":\"tc_%lu\",\"latency_ms\":45,"
			    "\"output_hash\":\"%s\",\"step_utility\":0.8,"
			    "\"t\":\"%s\"}\n", i, hex, t);
		fwrite(text.buf, 1, text.len, stdout);
	}
	timestamp(t, 2 * pairs);
	printf("{\"confidence\":0.92,\"event\":\"SessionEnd\",\"status\":"
	       "\"Success\",\"t\":\"%s\","
	       "\"total_latency_ms\":5320,\"total_tool_calls\":%lu}\n", t,
	       pairs);
	strbuf_release(&params);
	strbuf_release(&text);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--gen"))
		generate(strtoul(argv[2], NULL, 10),
			 argc > 3 ? strtoul(argv[3], NULL, 10) : 200);
	else if (argc == 1)
		rewrite();
	else
		die("usage: test-eventlog-writer [--gen N [PAD]]");
	return finish_stdout(0);
}
