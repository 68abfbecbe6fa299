/*
 * Canonical serialization: the RFC 8785 conformance vectors, and the
 * reference dialect's ordering, dropping and escaping rules.
 */
#include "config.h"
#include "hash/hashfile.h"
#include "fs/readfile.h"
#include "strbuf.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const jcs_vectors[] = {
	"arrays", "french", "structures", "unicode", "values", "weird",
};

static int hexval(int c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static void check_jcs(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT, in = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf hex = STRBUF_INIT, bytes = STRBUF_INIT;
	struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;
	size_t i;

	strbuf_addf(&path, "%s/input/%s.json", dir, name);
	if (read_file_limited(&in, path.buf, 0, &err))
		goto missing;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/output/%s.json", dir, name);
	if (read_file_limited(&want, path.buf, 0, &err))
		goto missing;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/outhex/%s.txt", dir, name);
	if (read_file_limited(&hex, path.buf, 0, &err))
		goto missing;
	for (i = 0; i + 1 < hex.len; i++) {
		if (hex.buf[i] == ' ' || hex.buf[i] == '\n')
			continue;
		strbuf_addch(&bytes, hexval(hex.buf[i]) * 16 +
				     hexval(hex.buf[i + 1]));
		i++;
	}
	ok(!canon_text(&got, in.buf, in.len, HASH_JCS, &err),
	   "jcs %s: canonicalizes", name);
	is_bytes(want.buf, want.len, got.buf, got.len, "jcs %s: output/", name);
	is_bytes(bytes.buf, bytes.len, got.buf, got.len, "jcs %s: outhex/",
		 name);
	goto out;
missing:
	ok(0, "jcs %s: cannot read vector: %s", name, err.buf);
out:
	strbuf_release(&path);
	strbuf_release(&in);
	strbuf_release(&want);
	strbuf_release(&hex);
	strbuf_release(&bytes);
	strbuf_release(&got);
	strbuf_release(&err);
}

static void check_ahd(const char *yaml, const char *want, const char *name)
{
	struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;
	int ret = canon_text(&got, yaml, strlen(yaml), HASH_STRUCTURED, &err);

	if (ret)
		diag("error: %s", err.buf);
	is_bytes(want, strlen(want), got.buf, got.len, "%s", name);
	strbuf_release(&got);
	strbuf_release(&err);
}

static void check_fails(const char *yaml, size_t len, int want,
			const char *phrase, const char *name)
{
	struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;
	int ret = canon_text(&got, yaml, len, HASH_STRUCTURED, &err);

	ok(ret == want && strstr(err.buf, phrase), "%s", name);
	if (ret != want || !strstr(err.buf, phrase))
		diag("ret %d, message '%s'", ret, err.buf);
	strbuf_release(&got);
	strbuf_release(&err);
}

int main(void)
{
	/* `make check` exports TEST_SRC_DIR; by hand, run from the top. */
	const char *src = getenv("TEST_SRC_DIR");
	struct strbuf dir = STRBUF_INIT, alias = STRBUF_INIT;
	size_t i;
	int k;

	plan_lazy();
	strbuf_addf(&dir, "%s/t/vectors/jcs", src && *src ? src : ".");
	for (i = 0; i < sizeof(jcs_vectors) / sizeof(*jcs_vectors); i++)
		check_jcs(dir.buf, jcs_vectors[i]);

	check_ahd("b: 1\na: 2\n", "{\"a\":2,\"b\":1}", "keys sorted");
	check_ahd("b: 1\n\"10\": x\n\"2\": y\na: z\n",
		  "{\"2\":\"y\",\"10\":\"x\",\"a\":\"z\",\"b\":1}",
		  "array-index keys first, numerically");
	check_ahd("\"4294967294\": a\n\"4294967295\": b\n\"01\": c\n\"-1\": d\n",
		  "{\"4294967294\":\"a\",\"-1\":\"d\",\"01\":\"c\","
		  "\"4294967295\":\"b\"}",
		  "only canonical indices up to 2^32-2 are indices");
	check_ahd("\xee\x80\x80: p\n\xf0\x9f\x98\x80: a\n",
		  "{\"\xf0\x9f\x98\x80\":\"a\",\"\xee\x80\x80\":\"p\"}",
		  "UTF-16 order puts astral before private use");
	check_ahd("__proto__: {a: 1}\nb: 2\n", "{\"b\":2}", "__proto__ dropped");
	check_ahd("1: a\n\"1\": b\n", "{\"1\":\"b\"}", "later of 1 and \"1\" wins");
	check_ahd("null: a\ntrue: b\n1.50: c\n.inf: d\n",
		  "{\"\":\"a\",\"1.5\":\"c\",\"Infinity\":\"d\",\"true\":\"b\"}",
		  "non-string keys stringify as JavaScript does");
	check_ahd("s: \"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\\"\\\\\\x7f\\u2028\"\n",
		  "{\"s\":\"\\u0000\\u0007\\b\\t\\n\\u000b\\f\\r\\u001b\\\"\\\\"
		  "\x7f\xe2\x80\xa8\"}",
		  "JSON.stringify escapes");
	check_ahd("s: \"\\udc00\\ud83d\\ude00\\ud800\"\n",
		  "{\"s\":\"\\udc00\xf0\x9f\x98\x80\\ud800\"}",
		  "lone surrogates escaped, pairs joined");
	check_ahd("k: !!binary AQID\n", "{\"k\":{\"0\":1,\"1\":2,\"2\":3}}",
		  "!!binary becomes index-keyed bytes");
	check_ahd("", "null", "empty document is null");
	check_ahd("a: &x [1, 2]\nb: *x\n", "{\"a\":[1,2],\"b\":[1,2]}",
		  "aliases expand");

	check_fails("a: 1\na: 2\n", 10, -1, "must be unique", "duplicate keys");
	check_fails("a\n---\nb\n", 8, -1, "more than one document",
		    "two documents");
	check_fails("? [a, # c\n  b]\n: v\n", 19, -2,
		    "unsupported YAML construct",
		    "a comment inside a collection key is unsupported");
	check_ahd("%YAML 1.1\n---\n[yes, 0777]\n", "[true,511]",
		  "%YAML 1.1 reads the YAML 1.1 schema");
	{
		struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;

		/* The reference keeps a raw NUL as content, and so do we. */
		ok(!canon_text(&got, "a: \"x\0y\"\n", 9, HASH_STRUCTURED,
			       &err) &&
		   !strcmp(got.buf, "{\"a\":\"x\\u0000y\"}"),
		   "a raw NUL byte is content");
		strbuf_release(&got);
		strbuf_release(&err);
	}

	/* A scalar anchor may be aliased 99 times, not 100. */
	for (k = 0; k < 2; k++) {
		int n = 99 + k, j;

		strbuf_reset(&alias);
		strbuf_addstr(&alias, "a: &x 1\nb:\n");
		for (j = 0; j < n; j++)
			strbuf_addstr(&alias, "- *x\n");
		if (!k) {
			struct strbuf got = STRBUF_INIT, err = STRBUF_INIT;

			ok(!canon_text(&got, alias.buf, alias.len,
				       HASH_STRUCTURED, &err),
			   "99 aliases of a scalar are accepted");
			strbuf_release(&got);
			strbuf_release(&err);
		} else
			check_fails(alias.buf, alias.len, -1, "alias",
				    "100 aliases of a scalar are refused");
	}
	strbuf_release(&alias);
	strbuf_release(&dir);
	return 0;
}
