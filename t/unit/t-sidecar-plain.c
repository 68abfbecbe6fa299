/*
 * sidecar_parse_fields() against sidecar_parse(): the plain reading of a
 * sidecar (record/sidecar-quick.c) must give, for every text, the answer,
 * the error and the fields the full reading gives, and render the same
 * block.  Thousands of sidecars are generated (every field's values, key
 * orders, spacing, number spellings) and then mangled (repeated and
 * escaped keys, NUL bytes, deep nesting, huge numbers, a BOM, CRLF, cut
 * and flipped bytes); the plain reading must also be the one taken for
 * most clean ones, or this would test nothing.
 */
#include "config.h"
#include "record/render.h"
#include "record/sidecar.h"
#include "strbuf.h"
#include "tap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HASH_LOWER "sha256:0123456789abcdef0123456789abcdef" \
	"0123456789abcdef0123456789abcdef"
#define HASH_UPPER "sha256:0123456789ABCDEF0123456789ABCDEF" \
	"0123456789ABCDEF0123456789ABCDEF"

static uint64_t seed = 0x5eed;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(seed >> 33) % n;
}

/*
 * One of the n strings: mostly one of the first good ones (those the
 * plain reading takes), sometimes any.
 */
static const char *pick(const char *const *v, unsigned n, unsigned good)
{
	return rnd(24) ? v[rnd(good)] : v[rnd(n)];
}
#define PICK(v, good) pick((v), sizeof(v) / sizeof(*(v)), (good))

static const char *const spaces[] = { " ", "", "\n  ", "\r\n", "\t", "\n" };
static const char *const words[] = {
	"\"ahd\"", "\"eval\"", "\"--brief\"", "\"briefs/a b.md\"", "\"it's\"",
	"\"\xc3\xbc\xe2\x9c\x93\"", "\"\"", "\"$(x)\"",
	"\"\xf0\x9f\x98\x80 x\"",
	"\"\\n\"", "\"a\tb\"", "1", "null",
};

static void add_space(struct strbuf *out)
{
	strbuf_addstr(out, PICK(spaces, 6));
}

static void add_strings(struct strbuf *out, unsigned max)
{
	unsigned i, n = rnd(max + 1);

	strbuf_addch(out, '[');
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addch(out, ',');
		add_space(out);
		strbuf_addstr(out, PICK(words, 9));
	}
	strbuf_addch(out, ']');
}

static void add_input(struct strbuf *out, int nullable)
{
	static const char *const paths[] = {
		"\"tokens/t.yml\"", "\"/home/runner/work/ahd/ahd/t.yml\"",
		"\"\"", "\"t\\u002eyml\"", "3",
	};
	static const char *const hashes[] = {
		"\"" HASH_LOWER "\"", "\"" HASH_UPPER "\"", "\"sha256:abc\"",
		"\"sha1:0123\"", "\"SHA256:0123456789abcdef0123456789abcdef"
		"0123456789abcdef0123456789abcdef\"", "null",
	};

	if (nullable && !rnd(3)) {
		strbuf_addstr(out, "null");
		return;
	}
	if (rnd(5))
		strbuf_addf(out, "{\"path\": %s,%s\"hash\": %s}",
			    PICK(paths, 2), PICK(spaces, 6), PICK(hashes, 2));
	else
		strbuf_addf(out, "{\"hash\": %s, \"path\": %s}",
			    PICK(hashes, 2), PICK(paths, 2));
}

static void add_models(struct strbuf *out)
{
	unsigned i, n = rnd(4);

	strbuf_addch(out, '[');
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(out, ", ");
		strbuf_addstr(out, rnd(24) ? "{\"id\": \"claude-x\", " :
			      "{\"id\": \"\", ");
		strbuf_addstr(out, rnd(24) ? "\"provider\": \"anthropic\"," :
			      "\"provider\": 7,");
		add_space(out);
		strbuf_addstr(out, "\"provider_request_ids\": ");
		add_strings(out, 3);
		strbuf_addch(out, '}');
	}
	strbuf_addch(out, ']');
}

static void add_sampling(struct strbuf *out)
{
	static const char *const n[] = {
		"1", "3", "1.0", "1e2", "0", "-2", "2.5", "01",
	};
	static const char *const temperature[] = {
		"null", "0.7", "0", "1e-7", "-0", "123456789012345678",
		"1e21", "1E+2", "\"0.7\"",
	};
	static const char *const seeds[] = {
		"null", "42", "-3", "1e3", "4.2", "true",
	};

	strbuf_addf(out, "{\"n\": %s, \"temperature\": %s, \"seed\": %s}",
		    PICK(n, 4), PICK(temperature, 8), PICK(seeds, 4));
}

/* One member's value, by the key's index in sidecar_fields[]. */
static void add_value(struct strbuf *out, int k)
{
	static const char *const version[] = {
		"1", "1.0", "1e0", "10e-1", "0.1E1", "2", "0", "1.5", "\"1\"",
	};
	static const char *const kind[] = {
		"\"eval-live\"", "\"critique\"", "\"eval-image\"", "\"other\"",
	};
	static const char *const commit[] = {
		"\"905b740756a181d64097b96f42f6d9c0f52093db\"", "null", "\"\"",
		"\"\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80" "abcdefghijkl\"",
		"false",
	};
	static const char *const dirty[] = { "false", "true", "null", "0" };
	static const char *const text[] = {
		"\"v22.3.0\"", "\"linux-x64\"", "\"\"", "5",
	};
	static const char *const backfilled[] = { "true", "false", "\"yes\"" };

	switch (k) {
	case 0: strbuf_addstr(out, PICK(version, 5)); break;
	case 1: strbuf_addstr(out, PICK(kind, 3)); break;
	case 3: strbuf_addstr(out, PICK(commit, 4)); break;
	case 4: strbuf_addstr(out, PICK(dirty, 3)); break;
	case 2: case 5: case 6: case 7:
		strbuf_addstr(out, PICK(text, 2));
		break;
	case 8: add_strings(out, 5); break;
	case 9: add_input(out, 0); break;
	case 10: add_input(out, 1); break;
	case 11: add_sampling(out); break;
	case 12: add_models(out); break;
	case 13:
		strbuf_addstr(out, "{\"requested\": ");
		add_strings(out, 3);
		strbuf_addstr(out, ", \"effective\": ");
		add_strings(out, 3);
		strbuf_addch(out, '}');
		break;
	default: strbuf_addstr(out, PICK(backfilled, 2)); break;
	}
}

/* A sidecar: every field (backfilled sometimes), in order or shuffled. */
static void generate(struct strbuf *out)
{
	int order[15], i, n = 14 + !rnd(3);

	for (i = 0; i < 15; i++)
		order[i] = i;
	if (!rnd(5))
		for (i = n - 1; i > 0; i--) {
			int j = (int)rnd((unsigned)i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
	if (!rnd(20))
		n -= 1 + (int)rnd(3);	/* a required field missing */
	strbuf_addch(out, '{');
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addch(out, ',');
		add_space(out);
		strbuf_addf(out, "\"%s\":", sidecar_fields[order[i]]);
		add_space(out);
		add_value(out, order[i]);
	}
	add_space(out);
	strbuf_addstr(out, "}\n");
}

/* Members that are trouble, put first in the object. */
static const char *const hostile[] = {
	"\"kind\": \"critique\",",		/* repeated: the last wins */
	"\"tok\\u0065n\": {\"path\": \"x\", \"hash\": \"" HASH_LOWER "\"},",
	"\"k\\u0069nd\": \"eval-image\",",
	"\"extra\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]"
		"]]]]]]]]]]]]]]]]]]]]]]]]]]],",
	"\"extra\": 1e400,",
	"\"extra\": 1234567890123456789012,",
	"\"extra\": 123456789012345678,",
	"\"extra\": \"a\\u0000b\",",
	"\"nul\\u0000\": 1,",
	"\"extra\": {\"a\": 1, \"a\": 2},",
	"\"schema_version\": 1,",
	"\"backfilled\": 1,",
	"\"argv\": [\"\\\"\"],",
	"\"extra\": -,",
};

/* Mangle text in one of many ways. */
static void mangle(struct strbuf *text)
{
	static const char flips[] = "\"\\{}[],:0e-\0\xff\xc3 \r\ntnA\x01";
	size_t at = text->len ? rnd((unsigned)text->len) : 0;
	struct strbuf out = STRBUF_INIT;
	size_t i;

	switch (rnd(8)) {
	case 0:
		strbuf_addstr(&out, "\xef\xbb\xbf");	/* a BOM */
		strbuf_addbuf(&out, text);
		break;
	case 1:
		for (i = 0; i < text->len; i++) {
			if (text->buf[i] == '\n')
				strbuf_addch(&out, '\r');
			strbuf_addch(&out, text->buf[i]);
		}
		break;
	case 2:
		strbuf_addbuf(&out, text);
		out.buf[at] = flips[rnd(sizeof(flips) - 1)];
		break;
	case 3:
		strbuf_add(&out, text->buf, at);	/* cut short */
		break;
	case 4:
		strbuf_add(&out, text->buf, at);
		strbuf_addch(&out, '\0');		/* a raw NUL */
		strbuf_add(&out, text->buf + at, text->len - at);
		break;
	default:
		strbuf_addch(&out, '{');
		strbuf_addstr(&out, hostile[rnd(sizeof(hostile) /
						sizeof(*hostile))]);
		strbuf_add(&out, text->buf + 1, text->len - 1);
		break;
	}
	strbuf_release(text);
	*text = out;
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_list(const struct sidecar_strings *a,
		     const struct sidecar_strings *b)
{
	size_t i;

	if (a->nr != b->nr)
		return 0;
	for (i = 0; i < a->nr; i++)
		if (!same_str(a->items[i], b->items[i]))
			return 0;
	return 1;
}

/* The first field where a and b differ, or NULL. */
static const char *differs(const struct sidecar *a, const struct sidecar *b)
{
	size_t i;

	if (a->schema_version != b->schema_version)
		return "schema_version";
	if (!same_str(a->kind, b->kind))
		return "kind";
	if (!same_str(a->ahd_version, b->ahd_version))
		return "ahd_version";
	if (!same_str(a->ahd_commit, b->ahd_commit))
		return "ahd_commit";
	if (a->git_dirty != b->git_dirty)
		return "git_dirty";
	if (!same_str(a->invoked_at, b->invoked_at))
		return "invoked_at";
	if (!same_str(a->token.path, b->token.path) ||
	    !same_str(a->token.hash, b->token.hash))
		return "token";
	if (!same_str(a->brief.path, b->brief.path) ||
	    !same_str(a->brief.hash, b->brief.hash))
		return "brief";
	if (strcmp(a->unknown.buf, b->unknown.buf))
		return "unknown";
	if (!same_str(a->node_version, b->node_version))
		return "node_version";
	if (!same_str(a->platform, b->platform))
		return "platform";
	if (memcmp(&a->n, &b->n, sizeof(a->n)))
		return "n";
	if (a->has_temperature != b->has_temperature ||
	    (a->has_temperature &&
	     memcmp(&a->temperature, &b->temperature, sizeof(double))))
		return "temperature";
	if (a->has_seed != b->has_seed ||
	    (a->has_seed && memcmp(&a->seed, &b->seed, sizeof(double))))
		return "seed";
	if (a->models_nr != b->models_nr)
		return "models";
	for (i = 0; i < a->models_nr; i++)
		if (!same_str(a->models[i].id, b->models[i].id) ||
		    !same_str(a->models[i].provider, b->models[i].provider) ||
		    a->models[i].request_ids != b->models[i].request_ids)
			return "a model";
	if (!same_list(&a->argv, &b->argv))
		return "argv";
	if (!same_list(&a->requested, &b->requested))
		return "requested";
	if (!same_list(&a->effective, &b->effective))
		return "effective";
	if (a->backfilled != b->backfilled)
		return "backfilled";
	return NULL;
}

struct tally {
	int plain, full, refused, wrong;
};

/*
 * Both readings of text; a difference fails a test (the first few are
 * shown).  Returns 1 when the plain reading answered, 0 when it left
 * the text to the full one.
 */
static int compare(struct tally *t, const struct strbuf *text,
		   const char *name)
{
	struct sidecar full = SIDECAR_INIT, fields = SIDECAR_INIT;
	struct strbuf e1 = STRBUF_INIT, e2 = STRBUF_INIT;
	struct strbuf r1 = STRBUF_INIT, r2 = STRBUF_INIT;
	int ret1 = sidecar_parse(&full, text->buf, text->len, &e1);
	int ret2 = sidecar_parse_fields(&fields, text->buf, text->len, &e2);
	const char *why = NULL;
	int plain = !ret2 && !fields.json;

	if (ret1 != ret2)
		why = "the answer";
	else if (strcmp(e1.buf, e2.buf))
		why = "the error";
	else if (!ret1) {
		why = differs(&full, &fields);
		render_markdown(&r1, &full);
		render_markdown(&r2, &fields);
		if (!why && strcmp(r1.buf, r2.buf))
			why = "the rendered block";
	}
	if (why && t->wrong++ < 5) {
		ok(0, "%s: both readings give %s", name, why);
		diag("text: %.*s", (int)text->len, text->buf);
		diag("full: %d %s; fields: %d %s", ret1, e1.buf, ret2, e2.buf);
	}
	if (plain)
		t->plain++;
	else if (!ret2)
		t->full++;
	else
		t->refused++;
	sidecar_release(&full);
	sidecar_release(&fields);
	strbuf_release(&e1);
	strbuf_release(&e2);
	strbuf_release(&r1);
	strbuf_release(&r2);
	return plain;
}

static const char canonical[] =
	"{\n  \"schema_version\": 1,\n  \"kind\": \"eval-live\",\n"
	"  \"ahd_version\": \"0.11.0\",\n"
	"  \"ahd_commit\": \"905b740756a181d64097b96f42f6d9c0f52093db\",\n"
	"  \"git_dirty\": false,\n  \"node_version\": \"v22.3.0\",\n"
	"  \"platform\": \"linux-x64\",\n"
	"  \"invoked_at\": \"2026-08-03T09:57:42.291Z\",\n"
	"  \"argv\": [\n    \"eval\",\n    \"--brief\",\n    \"a b\"\n  ],\n"
	"  \"token\": {\n    \"path\": \"tokens/t.yml\",\n"
	"    \"hash\": \"" HASH_LOWER "\"\n  },\n"
	"  \"brief\": null,\n"
	"  \"sampling\": {\n    \"n\": 2,\n    \"temperature\": 0.7,\n"
	"    \"seed\": null\n  },\n"
	"  \"models\": [\n    {\n      \"id\": \"m\",\n"
	"      \"provider\": \"p\",\n"
	"      \"provider_request_ids\": [\n        \"r1\",\n        \"r2\"\n"
	"      ]\n    }\n  ],\n"
	"  \"conditions\": {\n    \"requested\": [\n      \"a\"\n    ],\n"
	"    \"effective\": []\n  }\n}\n";

/* The named cases: which reading answers each, and that they agree. */
static void test_named(struct tally *t)
{
	struct strbuf text = STRBUF_INIT;
	size_t i;

	strbuf_addstr(&text, canonical);
	ok(compare(t, &text, "canonical"),
	   "a sidecar as the reference writes it is read plainly");
	for (i = 0; i < sizeof(hostile) / sizeof(*hostile); i++) {
		strbuf_reset(&text);
		strbuf_addch(&text, '{');
		strbuf_addstr(&text, hostile[i]);
		strbuf_addstr(&text, canonical + 1);
		ok(!compare(t, &text, hostile[i]),
		   "left to the full reading: %s", hostile[i]);
	}
	strbuf_reset(&text);
	strbuf_addstr(&text, "\xef\xbb\xbf");
	strbuf_addstr(&text, canonical);
	ok(!compare(t, &text, "BOM"), "a BOM is left to the full reading");
	strbuf_reset(&text);
	for (i = 0; canonical[i]; i++) {
		if (canonical[i] == '\n')
			strbuf_addch(&text, '\r');
		strbuf_addch(&text, canonical[i]);
	}
	ok(compare(t, &text, "CRLF"), "CRLF is JSON whitespace, read plainly");
	strbuf_reset(&text);
	strbuf_addstr(&text, canonical);
	text.buf[strstr(text.buf, "a b") - text.buf + 1] = '\xff';
	ok(!compare(t, &text, "bad UTF-8"),
	   "a string of bad UTF-8 is left to the full reading, which repairs");
	strbuf_release(&text);
}

int main(void)
{
	struct tally t = { 0, 0, 0, 0 };
	struct strbuf text = STRBUF_INIT;
	int i, clean_plain = 0;

	plan_lazy();
	test_named(&t);
	for (i = 0; i < 4000; i++) {
		strbuf_reset(&text);
		generate(&text);
		clean_plain += compare(&t, &text, "generated");
		mangle(&text);
		compare(&t, &text, "mangled");
		if (!rnd(3)) {
			mangle(&text);
			compare(&t, &text, "mangled twice");
		}
	}
	ok(!t.wrong, "both readings agree on every text (%d differ)", t.wrong);
	diag("read plainly %d, fully %d, refused %d", t.plain, t.full,
	     t.refused);
	ok(clean_plain > 1000, "the plain reading answered %d of 4000 "
	   "generated sidecars", clean_plain);
	ok(t.full > 200, "the full reading answered %d", t.full);
	ok(t.refused > 2000, "%d were refused", t.refused);
	strbuf_release(&text);
	return 0;
}
