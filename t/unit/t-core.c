/*
 * The small shared modules: datetime's policies, strutil's predicates and
 * jsonout's layouts.  Expected values follow the references each policy
 * names (RFC 3339, zod 3.24, JSON.stringify).
 */
#include "config.h"
#include "datetime.h"
#include "json/jsonout.h"
#include "strbuf.h"
#include "strutil.h"
#include "tap.h"
#include "json/jval.h"

#include <string.h>

static int parses(const char *s, unsigned flags)
{
	return !datetime_parse(s, strlen(s), flags, NULL, NULL);
}

static void test_datetime(void)
{
	int64_t sec;
	long nsec;

	ok(parses("2026-01-01T00:00:00Z", DATETIME_ZOD), "zod: plain Z");
	ok(parses("2026-01-01T00:00:00.5Z", DATETIME_ZOD), "zod: fraction");
	ok(!parses("2026-01-01t00:00:00z", DATETIME_ZOD), "zod: no lower case");
	ok(!parses("2026-01-01T00:00:00+01:00", DATETIME_ZOD), "zod: no offset");
	ok(!parses("2016-12-31T23:59:60Z", DATETIME_ZOD), "zod: no leap second");
	ok(parses("2016-12-31t23:59:60z", DATETIME_RFC3339),
	   "rfc3339: leap second at the day's end, lower case");
	ok(!parses("2016-12-31T12:59:60Z", DATETIME_RFC3339),
	   "rfc3339: leap second only at 23:59 UTC");
	ok(parses("2016-12-31T18:29:60-05:30", DATETIME_RFC3339),
	   "rfc3339: leap second at 23:59 UTC through an offset");
	ok(parses("2016-12-31T12:59:60Z", DATETIME_EVENTLOG),
	   "eventlog: leap second at any minute");
	ok(!parses("2023-02-29T00:00:00Z", DATETIME_RFC3339),
	   "no 29 February in 2023");
	ok(parses("2000-02-29T00:00:00Z", DATETIME_RFC3339),
	   "29 February 2000");
	ok(!parses("1900-02-29T00:00:00Z", DATETIME_RFC3339),
	   "no 29 February 1900");
	ok(!parses("2026-01-01T00:00:00.Z", DATETIME_RFC3339),
	   "a fraction needs a digit");
	ok(datetime_parse("2026-01-01T00:00:00Z\0", 21, DATETIME_RFC3339,
			  NULL, NULL) < 0, "nothing may follow");
	ok(!datetime_parse("1970-01-02T01:00:00.123456789123+01:00", 38,
			   DATETIME_EVENTLOG, &sec, &nsec) &&
	   sec == 86400 && nsec == 123456789,
	   "the instant in UTC, nanoseconds truncated");
}

static void test_strutil(void)
{
	static const char *const list[] = { "a", "bc", NULL };
	char hash[72] = "sha256:";

	memset(hash + 7, 'a', 64);
	hash[71] = '\0';
	ok(starts_with("sha256:x", "sha256:"), "starts_with");
	ok(!starts_with("sha", "sha256:"), "starts_with, shorter");
	ok(ends_with("x.replay.json", ".replay.json"), "ends_with");
	ok(ends_with(".md", ".md"), "ends_with, the whole string");
	ok(!ends_with("md", ".md"), "ends_with, shorter");
	ok(str_in_list(list, "bc") && !str_in_list(list, "b"), "str_in_list");
	ok(is_all_digits("0123", 4) && !is_all_digits("01a", 3),
	   "is_all_digits");
	ok(is_sha256_hash(hash, HEX_LOWER), "a lower-case hash");
	hash[10] = 'A';
	ok(!is_sha256_hash(hash, HEX_LOWER) &&
	   is_sha256_hash(hash, HEX_ANY_CASE), "upper case when allowed");
	hash[70] = '\0';
	ok(!is_sha256_hash(hash, HEX_ANY_CASE), "63 digits");
	is_int(0, js_array_index("0", 1), "index 0");
	is_int(4294967294LL, js_array_index("4294967294", 10), "largest index");
	is_int(-1, js_array_index("4294967295", 10), "2^32 - 1 is no index");
	is_int(-1, js_array_index("01", 2), "01 is no index");
	is_int(-1, js_array_index("", 0), "the empty key is no index");
}

static void check_layout(const char *json, enum jsonout_layout layout,
			 unsigned flags, const char *want, const char *name)
{
	struct jval *v = jval_loadb(json, strlen(json), JVAL_DECODE_ANY | JVAL_DECODE_INT_AS_REAL,
			       NULL);
	struct strbuf out = STRBUF_INIT;

	jsonout_write(&out, v, layout, flags);
	is_string(want, out.buf, "%s", name);
	strbuf_release(&out);
	jval_decref(v);
}

static void test_jsonout(void)
{
	static const char doc[] = "{\"b\":[1.0,\"x\\n\"],\"1\":{},\"a\":[]}";

	check_layout(doc, JSONOUT_COMPACT, 0,
		     "{\"b\":[1,\"x\\n\"],\"1\":{},\"a\":[]}", "compact");
	check_layout(doc, JSONOUT_SPACED, 0,
		     "{\"b\": [1, \"x\\n\"], \"1\": {}, \"a\": []}", "spaced");
	check_layout(doc, JSONOUT_PRETTY, JSONOUT_JS_KEY_ORDER,
		     "{\n  \"1\": {},\n  \"b\": [\n    1,\n    \"x\\n\"\n  ],\n"
		     "  \"a\": []\n}", "pretty, JavaScript's key order");
	check_layout("\"a\\u007f\\u001b\\n\"", JSONOUT_COMPACT,
		     JSONOUT_ESCAPE_CONTROLS, "\"a\\u007f\\u001b\\u000a\"",
		     "controls escaped for messages");
	check_layout("\"a\\u007f\\u001b\\n\"", JSONOUT_COMPACT, 0,
		     "\"a\x7f\\u001b\\n\"", "JSON.stringify's escapes");
}

int main(void)
{
	plan_lazy();
	test_datetime();
	test_strutil();
	test_jsonout();
	return 0;
}
