/*
 * The sidecar writer must produce what JSON.stringify(value, null, 2)
 * produces; the expected texts below were printed by Node 20.
 */
#include "config.h"
#include "json/jsonout.h"
#include "record/sidecar.h"
#include "strbuf.h"
#include "tap.h"
#include "json/jval.h"

#include <string.h>

static void check_pretty(const char *json, const char *want, const char *name)
{
	struct jval_error jerr;
	struct jval *v = jval_loadb(json, strlen(json), JVAL_DECODE_ANY | JVAL_DECODE_INT_AS_REAL,
			       &jerr);
	struct strbuf out = STRBUF_INIT;

	if (!v) {
		ok(0, "%s: cannot parse test input: %s", name, jerr.text);
		return;
	}
	jsonout_pretty(&out, v);
	is_string(want, out.buf, "%s", name);
	strbuf_release(&out);
	jval_decref(v);
}

static void check_path(const char *report, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	sidecar_path_for(&out, report);
	is_string(want, out.buf, "sidecar of %s", report);
	strbuf_release(&out);
}

int main(void)
{
	plan_lazy();
	check_pretty("{}", "{}", "empty object");
	check_pretty("[]", "[]", "empty array");
	check_pretty("{\"a\":[],\"b\":{},\"c\":null}",
		     "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": null\n}",
		     "empty members");
	check_pretty("{\"n\":1,\"t\":0.7,\"big\":1e21,\"small\":1e-7,\"neg\":-0}",
		     "{\n  \"n\": 1,\n  \"t\": 0.7,\n  \"big\": 1e+21,\n"
		     "  \"small\": 1e-7,\n  \"neg\": 0\n}",
		     "numbers as JavaScript prints them");
	check_pretty("{\"s\":\"a\\\"b\\\\c\\n\\u0001\\u2028\"}",
		     "{\n  \"s\": \"a\\\"b\\\\c\\n\\u0001\xe2\x80\xa8\"\n}",
		     "strings as JSON.stringify escapes them");
	check_pretty("{\"b\":1,\"10\":2,\"a\":3,\"2\":4}",
		     "{\n  \"2\": 4,\n  \"10\": 2,\n  \"b\": 1,\n  \"a\": 3\n}",
		     "index keys first, the rest in insertion order");
	check_pretty("{\"models\":[{\"id\":\"m\",\"provider_request_ids\":[\"r1\",\"r2\"]}]}",
		     "{\n  \"models\": [\n    {\n      \"id\": \"m\",\n"
		     "      \"provider_request_ids\": [\n        \"r1\",\n"
		     "        \"r2\"\n      ]\n    }\n  ]\n}",
		     "nesting indents by two spaces");
	check_pretty("[true,false,null]", "[\n  true,\n  false,\n  null\n]",
		     "literals");
	check_path("docs/evals/x.md", "docs/evals/x.replay.json");
	check_path("docs/evals/x", "docs/evals/x.replay.json");
	check_path("docs/evals/x.replay.json", "docs/evals/x.replay.json");
	check_path("x.markdown", "x.markdown.replay.json");
	return 0;
}
