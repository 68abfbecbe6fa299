/*
 * The JSON Schema validator: our own checks of the pattern translation,
 * date-time, the keywords we refuse and the messages on the replay
 * schema, then the official JSON Schema Test Suite (Debian package
 * json-schema-test-suite) for drafts 4, 6 and 7.
 *
 * Every test group of the suite whose schema our validator refuses to
 * compile (a keyword outside our subset, a format other than date-time,
 * a pattern we cannot translate exactly) is skipped and counted; the
 * others must all pass.  Environment: JSON_SCHEMA_TEST_SUITE overrides
 * the suite's tests/ directory; TEST_SRC_DIR is the source tree.
 */
#include "config.h"
#include "json/jsonschema.h"
#include "json/jval.h"
#include "strbuf.h"
#include "tap.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SUITE_DEFAULT "/usr/share/json-schema-test-suite/tests"

/* 64 lower-case hex digits, and the same with the first 16 upper-case. */
#define HEX32 "0123456789abcdef0123456789abcdef"
#define HEX64 HEX32 HEX32
#define HEX64_UPPER "0123456789ABCDEF0123456789abcdef" HEX32

static const char *const drafts[] = { "draft4", "draft6", "draft7", NULL };

/*
 * Test files whose expectations we deliberately do not meet.  Sidecars
 * are read as JSON.parse reads them, where 1.0 and 1 are the same
 * number, so 1.0 is an integer (as draft 6 and later say too).
 */
static const char *const known_divergences[] = {
	"draft4/optional/zeroTerminatedFloats.json",
	NULL,
};

static json_t *parse(const char *text)
{
	json_error_t jerr;
	json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL |
			       JSON_ALLOW_NUL, &jerr);

	if (!v) {
		printf("Bail out! bad JSON in the test: %s: %s\n", text,
		       jerr.text);
		exit(1);
	}
	return v;
}

/* Compile a schema given as JSON text; NULL (and err set) if refused. */
static struct jsonschema *compile(const char *text, struct strbuf *err)
{
	json_t *v = parse(text);
	struct jsonschema *s = NULL;

	strbuf_reset(err);
	if (jsonschema_compile(&s, (struct jval *)v, err))
		s = NULL;
	json_decref(v);
	return s;
}

/* Whether doc (JSON text) is valid against the compiled schema. */
static int valid(const struct jsonschema *s, const char *doc)
{
	struct jsonschema_errors errs = JSONSCHEMA_ERRORS_INIT;
	json_t *v = parse(doc);
	int ret = !jsonschema_validate(&errs, s, (struct jval *)v);

	jsonschema_errors_release(&errs);
	json_decref(v);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Patterns */

struct pattern_case {
	const char *pattern;	/* as JSON string contents */
	const char *matches;	/* '|'-separated strings it finds */
	const char *misses;	/* and strings it does not */
};

/*
 * Expected results follow ECMA-262 (RegExp.prototype.test, no flags);
 * t1300-validate.sh compares with node itself when node is installed.
 */
static const struct pattern_case pattern_cases[] = {
	{ "^sha256:[0-9a-f]{64}$",
	  "sha256:" HEX64,
	  "sha256:" HEX64_UPPER "|"
	  "sha256:" HEX32 "0123456789abcdef0123456789abcde|"
	  " sha256:" HEX64 "|"
	  "sha256:" HEX64 "\\n" },
	{ "^[0-9a-f]{40}$", "905b740756a181d64097b96f42f6d9c0f52093db",
	  "905b740756a181d64097b96f42f6d9c0f52093d|x" },
	{ "a+", "a|baab|\\u00e9a", "|b|A" },
	{ "^a*$", "|a|aaa", "ab|ba" },
	{ "^(?:ab|cd)+$", "ab|abcd|cdab", "|abc|ad" },
	{ "^\\\\d{2,3}$", "12|123", "1|1234|ab" },
	{ "^\\\\w+$", "a_Z9", "a-b|\\u00e9" },
	{ "^[\\\\w.-]+$", "a.b-c_d", "a b|a/b" },
	{ "^[a-c-e]$", "a|b|-|e", "d" },
	{ "^[]a]$", NULL, NULL },
	{ "^[\\\\]^-]$", "]|^|-", "a|\\\\" },
	{ "^\\\\x41\\\\u0042$", "AB", "ab" },
	{ "^caf\\u00e9+$", "caf\\u00e9|caf\\u00e9\\u00e9",
	  "caf\\u00c3\\u00a9|cafe" },
	{ "\\\\$\\\\^\\\\.\\\\*", "$^.*", "$^a*" },
	{ "^a{2}?$", "aa", "a|aaa" },
	{ "^a*?b+?$", "b|aab", "a" },
	{ "x}", NULL, NULL },
	{ "", "|anything", "" },
	{ "^[\\\\t ]$", "\\t| ", "\\n" },
	{ "a$", "ba", "ab|a\\u0000b" },
	{ "^a.c$", NULL, NULL },
	{ "^[^a]$", NULL, NULL },
	{ "\\\\s", NULL, NULL },
	{ "\\\\S", NULL, NULL },
	{ "\\\\D", NULL, NULL },
	{ "\\\\bx", NULL, NULL },
	{ "(a)\\\\1", NULL, NULL },
	{ "(?=a)", NULL, NULL },
	{ "(?!a)", NULL, NULL },
	{ "(?<n>a)", NULL, NULL },
	{ "a{2,1}", NULL, NULL },
	{ "a{256}", NULL, NULL },
	{ "a{", NULL, NULL },
	{ "*a", NULL, NULL },
	{ "a**", NULL, NULL },
	{ "a|", NULL, NULL },
	{ "()", NULL, NULL },
	{ "(a", NULL, NULL },
	{ "a)", NULL, NULL },
	{ "[]", NULL, NULL },
	{ "[a", NULL, NULL },
	{ "[z-a]", NULL, NULL },
	{ "[\\u00e9]", NULL, NULL },
	{ "\\ud83d\\ude00", NULL, NULL },
	{ "\\\\u00e9", NULL, NULL },
	{ "\\\\cA", NULL, NULL },
	{ "\\\\q", NULL, NULL },
	{ "a\\\\", NULL, NULL },
};

/* Check each '|'-separated JSON string body in list against the schema. */
static void check_strings(const struct jsonschema *s, const char *pattern,
			  const char *list, int want)
{
	struct strbuf doc = STRBUF_INIT;
	const char *p = list, *bar;

	if (!list || (!*list && !want))
		return;
	for (;;) {
		bar = strchr(p, '|');
		strbuf_reset(&doc);
		strbuf_addch(&doc, '"');
		strbuf_add(&doc, p, bar ? (size_t)(bar - p) : strlen(p));
		strbuf_addch(&doc, '"');
		ok(valid(s, doc.buf) == want, "pattern \"%s\" %s %s", pattern,
		   want ? "matches" : "does not match", doc.buf);
		if (!bar)
			break;
		p = bar + 1;
	}
	strbuf_release(&doc);
}

static void test_patterns(void)
{
	struct strbuf schema = STRBUF_INIT, err = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(pattern_cases) / sizeof(*pattern_cases); i++) {
		const struct pattern_case *pc = &pattern_cases[i];
		struct jsonschema *s;

		strbuf_reset(&schema);
		strbuf_addf(&schema, "{\"pattern\": \"%s\"}", pc->pattern);
		s = compile(schema.buf, &err);
		if (!pc->matches) {
			ok(!s && strstr(err.buf, "unsupported pattern"),
			   "pattern \"%s\" is refused (%s)", pc->pattern,
			   err.buf);
			jsonschema_free(s);
			continue;
		}
		if (!ok(s != NULL, "pattern \"%s\" compiles", pc->pattern)) {
			diag("%s", err.buf);
			continue;
		}
		check_strings(s, pc->pattern, pc->matches, 1);
		check_strings(s, pc->pattern, pc->misses, 0);
		ok(valid(s, "42"), "pattern \"%s\" ignores non-strings",
		   pc->pattern);
		jsonschema_free(s);
	}
	strbuf_release(&schema);
	strbuf_release(&err);
}

/* ------------------------------------------------------------------ */
/* date-time */

static void test_date_time(void)
{
	static const char *const good[] = {
		"2026-08-03T09:57:42.291Z", "1963-06-19T08:30:06Z",
		"1937-01-01T12:00:27.87+00:20", "1990-12-31t15:59:50.123-08:00",
		"2000-02-29T00:00:00z", "1998-12-31T23:59:60Z",
		"1998-12-31T15:59:60.123-08:00", "1999-01-01T00:59:60+01:00",
		"0000-01-01T00:00:00-00:00", "2026-01-01T00:00:00+23:59",
		"2026-01-01T00:00:00.000000000001Z",
	};
	static const char *const bad[] = {
		"", "2026-08-03", "2026-08-03T09:57:42", "2026-08-03 09:57:42Z",
		"2026-08-03T09:57Z", "2026-8-03T09:57:42Z",
		"1900-02-29T00:00:00Z",
		"2026-02-30T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
		"2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z",
		"2026-01-01T00:60:00Z", "2026-01-01T00:00:61Z",
		"1998-12-31T23:58:60Z", "1998-12-31T23:59:60+01:00",
		"2026-01-01T00:00:00.Z", "2026-01-01T00:00:00+24:00",
		"2026-01-01T00:00:00+0100", "2026-01-01T00:00:00+01:60",
		"2026-01-01T00:00:00Zx", "2026-01-01T00:00:00ZZ",
		"+02026-01-01T00:00:00Z", "2026-01-01T00:00:00,5Z",
		"2013-350T01:01:01", "06/19/1963 08:30:06 PST",
	};
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++)
		ok(jsonschema_is_date_time(good[i], strlen(good[i])),
		   "date-time: '%s' is valid", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ok(!jsonschema_is_date_time(bad[i], strlen(bad[i])),
		   "date-time: '%s' is invalid", bad[i]);
	ok(!jsonschema_is_date_time("2026-01-01T00:00:00Z\0", 21),
	   "date-time: a trailing NUL is invalid");
}

/* ------------------------------------------------------------------ */
/* Compile-time refusals */

static void test_refusals(void)
{
	static const struct {
		const char *schema, *phrase;
	} cases[] = {
		{ "{\"oneOf\": [{}]}", "(root): unsupported keyword 'oneOf'" },
		{ "{\"properties\": {\"a/b\": {\"maxLength\": 1}}}",
		  "/properties/a~1b: unsupported keyword 'maxLength'" },
		{ "{\"$ref\": \"#\"}", "unsupported keyword '$ref'" },
		{ "{\"definitions\": {}}",
		  "unsupported keyword 'definitions'" },
		{ "{\"format\": \"email\"}", "unsupported format 'email'" },
		{ "{\"items\": [{}]}", "/items: unsupported form" },
		{ "{\"minLength\": -1}", "/minLength: must be a non-negative" },
		{ "{\"minLength\": 1.5}",
		  "/minLength: must be a non-negative" },
		{ "{\"type\": \"float\"}", "/type: must be a type name" },
		{ "{\"type\": [\"string\", \"string\"]}", "/type: must be" },
		{ "{\"type\": []}", "/type: must be" },
		{ "{\"enum\": []}", "/enum: must be a non-empty array" },
		{ "{\"required\": [1]}", "/required: must be an array" },
		{ "{\"anyOf\": []}", "/anyOf: must be a non-empty array" },
		{ "{\"anyOf\": [{\"not\": {}}]}",
		  "/anyOf/0: unsupported keyword 'not'" },
		{ "{\"exclusiveMinimum\": true}", "needs minimum" },
		{ "{\"exclusiveMinimum\": \"1\"}",
		  "must be a boolean or a number" },
		{ "{\"additionalProperties\": 1}",
		  "must be an object or a boolean" },
		{ "{\"pattern\": \"a.b\"}",
		  "/pattern: unsupported pattern construct" },
		{ "[]", "(root): a schema must be an object or a boolean" },
	};
	struct strbuf err = STRBUF_INIT;
	struct jsonschema *s;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		s = compile(cases[i].schema, &err);

		ok(!s && strstr(err.buf, cases[i].phrase),
		   "refused: %s (%s)", cases[i].schema, err.buf);
		jsonschema_free(s);
	}
	s = compile("{\"$schema\": \"x\", \"$id\": \"y\", \"id\": \"z\", "
		    "\"$comment\": \"c\", \"title\": \"t\", "
		    "\"description\": \"d\", \"default\": 1, "
		    "\"examples\": []}", &err);
	ok(s != NULL, "annotations are accepted (%s)", err.buf);
	jsonschema_free(s);
	strbuf_release(&err);
}

/* ------------------------------------------------------------------ */
/* Messages on the replay schema */

static const char good_sidecar[] =
	"{\"schema_version\": 1, \"kind\": \"eval-live\", "
	"\"ahd_version\": \"0.11.0\", "
	"\"ahd_commit\": \"905b740756a181d64097b96f42f6d9c0f52093db\", "
	"\"git_dirty\": true, \"node_version\": \"v22.22.2\", "
	"\"platform\": \"darwin-arm64\", "
	"\"invoked_at\": \"2026-08-03T09:57:42.291Z\", "
	"\"argv\": [\"node\", \"ahd\", \"eval\"], "
	"\"token\": {\"path\": \"tokens/swiss-editorial.yml\", \"hash\": "
	"\"sha256:" HEX64 "\"}, "
	"\"brief\": null, "
	"\"sampling\": {\"n\": 30, \"temperature\": null, \"seed\": null}, "
	"\"models\": [{\"id\": \"cf:@cf/google/gemma\", \"provider\": "
	"\"cloudflare-workers-ai\", \"provider_request_ids\": [\"req_1\"]}], "
	"\"conditions\": {\"requested\": [\"raw\", \"compiled\"], "
	"\"effective\": [\"raw\", \"compiled\"]}, \"backfilled\": true}";

struct message_case {
	const char *edit;	/* JSON object of top-level keys to replace */
	const char *drop;	/* a top-level key to remove, or NULL */
	const char *want;	/* "path: message" lines, '\n'-joined */
};

static const struct message_case message_cases[] = {
	{ "{}", NULL, "" },
	{ "{\"brief\": {\"path\": \"briefs/x.md\", \"hash\": "
	  "\"sha256:" HEX64 "\"}}",
	  NULL, "" },
	{ "{\"sampling\": {\"n\": 0, \"temperature\": 0.5, \"seed\": 1.5}}",
	  NULL, "/sampling/n: must be > 0\n"
	  "/sampling/seed: must be integer or null\n" },
	{ "{\"sampling\": {\"n\": 2.5, \"temperature\": \"hot\", \"seed\": 7, "
	  "\"top_p\": 1}}", NULL,
	  "/sampling/n: must be integer\n"
	  "/sampling/temperature: must be number or null\n"
	  "/sampling/top_p: is not allowed (additional property)\n" },
	{ "{\"token\": {\"path\": \"\"}}", NULL,
	  "/token: must have required property 'hash'\n"
	  "/token/path: must not be empty\n" },
	{ "{\"token\": {\"path\": \"t.yml\", \"hash\": \"sha1:abc\"}}", NULL,
	  "/token/hash: must match pattern \"^sha256:[0-9a-f]{64}$\"\n" },
	{ "{\"kind\": \"eval\"}", NULL,
	  "/kind: must be one of \"eval-live\", \"critique\", "
	  "\"eval-image\"\n" },
	{ "{\"kind\": 5}", NULL, "/kind: must be string\n" },
	{ "{\"schema_version\": 2}", NULL, "/schema_version: must be 1\n" },
	{ "{\"foo\": 1}", NULL,
	  "/foo: is not allowed (additional property)\n" },
	{ "{}", "invoked_at",
	  "(root): must have required property 'invoked_at'\n" },
	{ "{\"invoked_at\": \"yesterday\"}", NULL,
	  "/invoked_at: must be an RFC 3339 date-time\n" },
	{ "{\"ahd_commit\": \"HEAD\", \"git_dirty\": \"no\"}", NULL,
	  "/ahd_commit: must match pattern \"^[0-9a-f]{40}$\"\n"
	  "/git_dirty: must be boolean or null\n" },
	{ "{\"ahd_commit\": null, \"git_dirty\": null}", NULL, "" },
	{ "{\"argv\": [\"a\", 1, null]}", NULL,
	  "/argv/1: must be string\n/argv/2: must be string\n" },
	{ "{\"brief\": []}", NULL, "/brief: must be object or null\n" },
	{ "{\"brief\": {\"path\": \"b.md\"}}", NULL,
	  "/brief: must have required property 'hash'\n" },
	{ "{\"models\": [{\"id\": \"m\", \"provider\": \"\", "
	  "\"provider_request_ids\": [1], \"x/y~z\": 0}]}", NULL,
	  "/models/0/provider: must not be empty\n"
	  "/models/0/provider_request_ids/0: must be string\n"
	  "/models/0/x~1y~0z: is not allowed (additional property)\n" },
	{ "{\"conditions\": {}}", NULL,
	  "/conditions: must have required property 'requested'\n"
	  "/conditions: must have required property 'effective'\n" },
	{ "{\"backfilled\": \"yes\"}", NULL, "/backfilled: must be boolean\n" },
};

static void test_messages(void)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf got = STRBUF_INIT;
	const char *src = getenv("TEST_SRC_DIR");
	struct jsonschema *s = NULL;
	json_t *base = parse(good_sidecar);
	size_t i, j;

	strbuf_addf(&path, "%s/schema/replay.schema.json", src ? src : ".");
	if (!ok(!jsonschema_load(&s, path.buf, &err),
		"schema/replay.schema.json compiles")) {
		diag("%s", err.buf);
		goto out;
	}
	for (i = 0; i < sizeof(message_cases) / sizeof(*message_cases); i++) {
		const struct message_case *mc = &message_cases[i];
		struct jsonschema_errors errs = JSONSCHEMA_ERRORS_INIT;
		json_t *doc = json_deep_copy(base), *edit = parse(mc->edit);
		int rc;

		json_object_update(doc, edit);
		if (mc->drop)
			json_object_del(doc, mc->drop);
		rc = jsonschema_validate(&errs, s, (struct jval *)doc);
		strbuf_reset(&got);
		for (j = 0; j < errs.nr; j++)
			strbuf_addf(&got, "%s: %s\n",
				    *errs.v[j].path ? errs.v[j].path : "(root)",
				    errs.v[j].message);
		is_string(mc->want, got.buf, "replay schema: %s%s%s",
			  mc->edit, mc->drop ? " without " : "",
			  mc->drop ? mc->drop : "");
		is_int(!!*mc->want, rc, "replay schema: %s returns %d",
		       mc->edit, !!*mc->want);
		jsonschema_errors_release(&errs);
		json_decref(doc);
		json_decref(edit);
	}
	{
		struct jsonschema_errors errs = JSONSCHEMA_ERRORS_INIT;
		json_t *arr = parse("[]");

		jsonschema_validate(&errs, s, (struct jval *)arr);
		ok(errs.nr == 1 && !strcmp(errs.v[0].path, "") &&
		   !strcmp(errs.v[0].message, "must be object"),
		   "replay schema: an array is '(root): must be object'");
		jsonschema_errors_release(&errs);
		json_decref(arr);
	}
out:
	jsonschema_free(s);
	json_decref(base);
	strbuf_release(&path);
	strbuf_release(&err);
	strbuf_release(&got);
}

/* ------------------------------------------------------------------ */
/* The JSON Schema Test Suite */

#define MAX_REASONS 64

struct suite_counts {
	int groups_run, groups_skipped;
	int cases_run, cases_skipped, cases_passed;
	/* Why groups were skipped: a keyword or "format X", with counts. */
	struct {
		char what[64];
		int groups;
	} reasons[MAX_REASONS];
	int nr_reasons;
};

/* Resolve a JSON Pointer in doc; NULL when it names nothing. */
static const json_t *resolve_pointer(const json_t *doc, const char *ptr)
{
	struct strbuf tok = STRBUF_INIT;
	const json_t *cur = doc;

	while (cur && *ptr == '/') {
		ptr++;
		strbuf_reset(&tok);
		while (*ptr && *ptr != '/') {
			if (ptr[0] == '~' && (ptr[1] == '0' || ptr[1] == '1')) {
				strbuf_addch(&tok, ptr[1] == '0' ? '~' : '/');
				ptr += 2;
			} else {
				strbuf_addch(&tok, *ptr++);
			}
		}
		if (json_is_object(cur))
			cur = json_object_get(cur, tok.buf);
		else if (json_is_array(cur))
			cur = json_array_get(cur, strtoul(tok.buf, NULL, 10));
		else
			cur = NULL;
	}
	strbuf_release(&tok);
	return *ptr ? NULL : cur;
}

/*
 * Tally why a group was skipped: the keyword of "unsupported keyword
 * 'X'", "format X" for a format, else the compile error without its path.
 */
static void tally(struct suite_counts *n, const char *err)
{
	const char *reason = strstr(err, ": "), *q;
	char what[64];
	int i;

	reason = reason ? reason + 2 : err;
	q = strchr(reason, '\'');
	if (!strncmp(reason, "unsupported keyword '", 21))
		snprintf(what, sizeof(what), "%.*s", (int)strcspn(q + 1, "'"),
			 q + 1);
	else if (!strncmp(reason, "unsupported format '", 20))
		snprintf(what, sizeof(what), "format %.*s",
			 (int)strcspn(q + 1, "'"), q + 1);
	else
		snprintf(what, sizeof(what), "%s", reason);
	for (i = 0; i < n->nr_reasons; i++)
		if (!strcmp(n->reasons[i].what, what))
			break;
	if (i == n->nr_reasons) {
		if (i == MAX_REASONS)
			return;
		snprintf(n->reasons[i].what, sizeof(n->reasons[i].what), "%s",
			 what);
		n->reasons[i].groups = 0;
		n->nr_reasons++;
	}
	n->reasons[i].groups++;
}

static void run_group(const char *name, const json_t *group,
		      struct suite_counts *n)
{
	struct strbuf err = STRBUF_INIT;
	struct jsonschema *s = NULL;
	const json_t *tests = json_object_get(group, "tests");
	const char *desc = json_string_value(json_object_get(group,
							     "description"));
	json_t *t;
	size_t i;

	if (jsonschema_compile(&s, (struct jval *)json_object_get(group, "schema"), &err)) {
		n->groups_skipped++;
		n->cases_skipped += json_array_size(tests);
		tally(n, err.buf);
		goto out;
	}
	n->groups_run++;
	json_array_foreach(tests, i, t) {
		struct jsonschema_errors errs = JSONSCHEMA_ERRORS_INIT;
		const json_t *data = json_object_get(t, "data");
		int want = json_is_true(json_object_get(t, "valid"));
		int got = !jsonschema_validate(&errs, s, (struct jval *)data), paths_ok = 1;
		size_t j;

		/* Every violation must point at something in the document. */
		for (j = 0; j < errs.nr; j++)
			if (!resolve_pointer(data, errs.v[j].path))
				paths_ok = 0;
		n->cases_run++;
		if (ok(got == want && paths_ok, "%s: %s: %s", name, desc,
		       json_string_value(json_object_get(t, "description"))))
			n->cases_passed++;
		else
			for (j = 0; j < errs.nr; j++)
				diag("%s: %s", errs.v[j].path,
				     errs.v[j].message);
		jsonschema_errors_release(&errs);
	}
out:
	jsonschema_free(s);
	strbuf_release(&err);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every .json file under dir (name is its path relative to tests/). */
static void run_dir(const char *dir, const char *name, struct suite_counts *n)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		ok(0, "cannot open %s", dir);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (nr == alloc) {
			alloc = alloc ? alloc * 2 : 32;
			names = realloc(names, alloc * sizeof(*names));
			if (!names)
				abort();
		}
		names[nr++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), name_cmp);
	for (i = 0; i < nr; i++) {
		struct stat st;
		size_t len = strlen(names[i]);

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, names[i]);
		strbuf_reset(&rel);
		strbuf_addf(&rel, "%s/%s", name, names[i]);
		if (!stat(path.buf, &st) && S_ISDIR(st.st_mode)) {
			run_dir(path.buf, rel.buf, n);
		} else if (len > 5 && !strcmp(names[i] + len - 5, ".json")) {
			const char *const *k;
			json_error_t jerr;
			json_t *groups, *g;
			size_t j;

			for (k = known_divergences; *k; k++)
				if (!strcmp(*k, rel.buf))
					break;
			groups = json_load_file(path.buf,
						JSON_DECODE_INT_AS_REAL |
						JSON_ALLOW_NUL, &jerr);
			if (!groups) {
				ok(0, "%s: cannot parse: %s", rel.buf,
				   jerr.text);
			} else if (*k) {
				json_array_foreach(groups, j, g)
					n->cases_skipped += json_array_size(
						json_object_get(g, "tests"));
				n->groups_skipped += json_array_size(groups);
				diag("%s: skipped, a known divergence "
				     "(1.0 is an integer, as for JSON.parse)",
				     rel.buf);
			} else {
				json_array_foreach(groups, j, g)
					run_group(rel.buf, g, n);
			}
			json_decref(groups);
		}
		free(names[i]);
	}
	free(names);
	strbuf_release(&path);
	strbuf_release(&rel);
}

static void test_suite(void)
{
	const char *root = getenv("JSON_SCHEMA_TEST_SUITE");
	struct strbuf dir = STRBUF_INIT;
	const char *const *draft;
	struct stat st;

	if (!root || !*root)
		root = SUITE_DEFAULT;
	if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
		ok(1, "JSON Schema Test Suite # SKIP %s not found: "
		   "apt-get install json-schema-test-suite", root);
		return;
	}
	for (draft = drafts; *draft; draft++) {
		struct suite_counts n;
		struct strbuf why = STRBUF_INIT;
		int i;

		memset(&n, 0, sizeof(n));
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%s", root, *draft);
		if (stat(dir.buf, &st)) {
			diag("%s: not in this version of the suite", *draft);
			continue;
		}
		run_dir(dir.buf, *draft, &n);
		diag("%s: %d test cases run, %d passed, %d skipped "
		     "(%d groups run, %d skipped)", *draft, n.cases_run,
		     n.cases_passed, n.cases_skipped, n.groups_run,
		     n.groups_skipped);
		for (i = 0; i < n.nr_reasons; i++)
			strbuf_addf(&why, "%s%s (%d)", i ? ", " : "",
				    n.reasons[i].what, n.reasons[i].groups);
		diag("%s: groups skipped for: %s", *draft, why.buf);
		ok(n.cases_run > 0 && n.cases_passed == n.cases_run,
		   "%s: %d of %d test cases passed", *draft, n.cases_passed,
		   n.cases_run);
		strbuf_release(&why);
	}
	strbuf_release(&dir);
}

int main(void)
{
	plan_lazy();
	test_patterns();
	test_date_time();
	test_refusals();
	test_messages();
	test_suite();
	return 0;
}
