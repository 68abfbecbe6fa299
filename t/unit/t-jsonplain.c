/*
 * jval_loadb_plain() against jansson: for every text, the quick reader
 * either gives up or builds exactly the tree jval_loadb() builds (same
 * types, same key order, the same doubles bit for bit), and it never
 * takes a text jansson refuses.  The texts: the vectors and fuzz corpora
 * of the tree, a sidecar as the reference writes it, and that sidecar
 * cut short and mutated at every byte.
 */
#include "config.h"
#include "fs/readfile.h"
#include "json/jval.h"
#include "json/jsonplain.h"
#include "strbuf.h"
#include "tap.h"
#include "usage.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FLAGS (JVAL_DECODE_ANY | JVAL_DECODE_INT_AS_REAL)

static const char sidecar[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"kind\": \"eval-live\",\n"
	"  \"title\": \"soft-pastel \xc3\x97 about \xc2\xb7 \xf0\x9f\x8e\xa8\",\n"
	"  \"ahd_version\": \"0.11.0\",\n"
	"  \"ahd_commit\": \"aeae02ca430fcb1e1a305fe1fadc9651e3668f1d\",\n"
	"  \"git_dirty\": false,\n"
	"  \"node_version\": \"v22.22.2\",\n"
	"  \"platform\": \"darwin-arm64\",\n"
	"  \"invoked_at\": \"2031-03-15T07:43:13.508Z\",\n"
	"  \"argv\": [\n"
	"    \"/opt/homebrew/bin/node\",\n"
	"    \"eval-live\",\n"
	"    \"--n\",\n"
	"    \"8\"\n"
	"  ],\n"
	"  \"token\": {\n"
	"    \"path\": \"tokens/harbour-chart.yml\",\n"
	"    \"hash\": \"sha256:0158c998a2b003642bbc8cde3642503a03ecb854536116"
	"c6cde57b3977887b4e\"\n"
	"  },\n"
	"  \"brief\": null,\n"
	"  \"sampling\": {\n"
	"    \"n\": 8,\n"
	"    \"temperature\": 0.7,\n"
	"    \"seed\": -12e3\n"
	"  },\n"
	"  \"models\": [\n"
	"    {\n"
	"      \"id\": \"claude-code:claude-opus-4-7\",\n"
	"      \"provider\": \"anthropic\",\n"
	"      \"provider_request_ids\": []\n"
	"    }\n"
	"  ],\n"
	"  \"conditions\": {\n"
	"    \"requested\": [],\n"
	"    \"effective\": [\"a\", \"b\"]\n"
	"  },\n"
	"  \"backfilled\": true\n"
	"}\n";

/* Texts either side of each edge of what the quick reader takes. */
static const char *const edges[] = {
	"", " ", "1", "-0", "0.5e-3", "1E+2", "01", "-", "1.", ".5", "1e",
	"123456789012345678", "1234567890123456789", "9223372036854775807",
	"9223372036854775808", "-9223372036854775809", "1e400", "1e-400",
	"1.00000000000000011102230246251565404236316680908203125",
	"\"\"", "\"a\\\"b\"", "\"\\u0000\"", "\"caf\xc3\xa9\"", "\"\x7f\"",
	"\"tab\there\"", "{\"a\":1,\"a\":2}", "{\"b\":1,\"a\":2}", "{}", "[]",
	"[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{1:2}", "true", "tru",
	"nul", "null x", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]"
	"]]]]]]]]]]]]]]]]]]", "\xef\xbb\xbf{}", "{\"a\":[true,false,null]}",
	"\"a\0b\"", "\"\xc0\x80\"", "\"\xc2\"", "\"\xed\xa0\x80\"",
	"\"\xed\x9f\xbf\"", "\"\xef\xbf\xbf\"", "\"\xf0\x90\x80\x80\"",
	"\"\xf4\x8f\xbf\xbf\"", "\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"",
	"\"\xe0\x9f\xbf\"", "\"\xf0\x8f\xbf\xbf\"", "{\"\xc3\xa9\":1}",
	"\"\xe2\x80\xa8\"", "\"\xef\xbb\xbf\"",
};

static size_t compared, quick;

static int same_tree(struct jval *a, struct jval *b)
{
	enum jval_type t = jval_typeof(a);
	size_t i;

	if (t != jval_typeof(b))
		return 0;
	switch (t) {
	case JVAL_OBJECT: {
		void *ia = jval_object_first(a), *ib = jval_object_first(b);

		for (; ia && ib; ia = jval_object_next(a, ia),
				 ib = jval_object_next(b, ib))
			if (strcmp(jval_object_key(ia), jval_object_key(ib)) ||
			    !same_tree(jval_object_value(ia),
				       jval_object_value(ib)))
				return 0;
		return !ia && !ib;
	}
	case JVAL_ARRAY:
		if (jval_array_size(a) != jval_array_size(b))
			return 0;
		for (i = 0; i < jval_array_size(a); i++)
			if (!same_tree(jval_array_get(a, i), jval_array_get(b, i)))
				return 0;
		return 1;
	case JVAL_STRING:
		return jval_string_length(a) == jval_string_length(b) &&
		       !memcmp(jval_string_value(a), jval_string_value(b),
			       jval_string_length(a));
	case JVAL_INTEGER:
		return jval_integer_value(a) == jval_integer_value(b);
	case JVAL_REAL: {
		double x = jval_real_value(a), y = jval_real_value(b);

		return !memcmp(&x, &y, sizeof(x));
	}
	default:
		return 1;
	}
}

/* One text; the failures are told, the agreements counted. */
static void compare(const char *text, size_t len, const char *name)
{
	struct jval_error jerr;
	struct jval *plain = jval_loadb_plain(text, len);
	struct jval *full = jval_loadb(text, len, FLAGS, &jerr);

	compared++;
	if (plain) {
		quick++;
		if (!full || !same_tree(plain, full))
			ok(0, "%s: the quick reader differs from jansson (%s)",
			   name, full ? "another tree" : jerr.text);
	}
	jval_decref(plain);
	jval_decref(full);
}

static void compare_file(const char *path)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	const char *line, *nl;

	if (read_file_limited(&text, path, 0, &err)) {
		ok(0, "cannot read %s: %s", path, err.buf);
		goto out;
	}
	compare(text.buf, text.len, path);
	/* a JSON Lines file: each line too */
	for (line = text.buf; (nl = memchr(line, '\n', text.len -
					     (size_t)(line - text.buf)));
	     line = nl + 1)
		compare(line, (size_t)(nl - line), path);
out:
	strbuf_release(&text);
	strbuf_release(&err);
}

/* Every file below dir whose name ends in one of the suffixes. */
static void compare_tree(const char *dir, const char *const *suffixes)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		ok(0, "cannot read %s", dir);
		return;
	}
	while ((de = readdir(d))) {
		struct strbuf path = STRBUF_INIT;
		const char *const *s;
		size_t n = strlen(de->d_name);
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		if (!stat(path.buf, &st) && S_ISDIR(st.st_mode))
			compare_tree(path.buf, suffixes);
		else
			for (s = suffixes; *s; s++)
				if (n >= strlen(*s) &&
				    !strcmp(de->d_name + n - strlen(*s), *s)) {
					compare_file(path.buf);
					break;
				}
		strbuf_release(&path);
	}
	closedir(d);
}

/* The sidecar cut at every length, and each byte replaced or dropped. */
static void compare_mutations(void)
{
	static const char repl[] = "\"\\,:}]{[0-.eE+ x\x7f\x80\t\n";
	size_t len = strlen(sidecar), i, k;
	char *buf = xmalloc(len + 1);

	for (i = 0; i <= len; i++)
		compare(sidecar, i, "a cut sidecar");
	for (i = 0; i < len; i++) {
		for (k = 0; k < sizeof(repl); k++) {	/* with the NUL */
			memcpy(buf, sidecar, len);
			buf[i] = repl[k];
			compare(buf, len, "a mutated sidecar");
		}
		memcpy(buf, sidecar, i);
		memcpy(buf + i, sidecar + i + 1, len - i - 1);
		compare(buf, len - 1, "a sidecar missing a byte");
	}
	free(buf);
}

/*
 * jsonplain_string() reads eight bytes at a time: against a byte-at-a-
 * time reading, a string of every length up to 40 with each kind of
 * stopping byte at every place (so at every offset in a word).
 */
static long string_bytewise(const char *p, const char *end)
{
	const char *q;

	for (q = p; q < end && *q != '"'; q++)
		if ((unsigned char)*q < 0x20 || *q == '\\' ||
		    (unsigned char)*q > 0x7f)
			return -2;	/* a stop that is not the end */
	return q < end ? (long)(q - p) : -1;
}

static void compare_string_words(void)
{
	static const char stops[] = { '"', '\\', 0x00, 0x01, 0x1f, 0x7f,
				      (char)0x80, (char)0xc3, (char)0xff };
	char buf[48];
	size_t len, at, k, bad = 0;

	for (len = 0; len <= 40; len++)
		for (at = 0; at <= len; at++)
			for (k = 0; k < sizeof(stops); k++) {
				const char *next = NULL;
				long want, got;

				memset(buf, 'a', len);
				buf[len] = '"';
				if (at < len)
					buf[at] = stops[k];
				want = string_bytewise(buf, buf + len + 1);
				got = jsonplain_string(buf, buf + len + 1,
						       &next);
				/* a stop inside: not plain (a lone byte above
				   0x7f is not UTF-8 either) */
				if (want == -2)
					want = -1;
				if (got != want ||
				    (got >= 0 && next != buf + got + 1))
					bad++;
			}
	is_int(0, (long long)bad, "a string read eight bytes at a time "
	       "stops where a byte at a time does");
}

int main(void)
{
	static const char *const json[] = { ".json", ".jsonl", NULL };
	const char *src = getenv("TEST_SRC_DIR");
	struct strbuf dir = STRBUF_INIT;
	struct jval *v;
	size_t i;

	plan_lazy();
	v = jval_loadb_plain(sidecar, strlen(sidecar));
	ok(v != NULL, "a sidecar as the reference writes it is read quickly");
	jval_decref(v);
	for (i = 0; i < sizeof(edges) / sizeof(*edges); i++)
		compare(edges[i], strlen(edges[i]), edges[i]);
	compare("\"a\0b\"", 5, "a NUL in a string");
	compare_mutations();
	compare_string_words();

	/* `make check` exports TEST_SRC_DIR; by hand, run from the top. */
	strbuf_addf(&dir, "%s/t/vectors", src && *src ? src : ".");
	compare_tree(dir.buf, json);
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/t/fuzz", src && *src ? src : ".");
	compare_tree(dir.buf, json);
	ok(compared > 15000 && quick > 1000,
	   "%zu texts compared with jansson, %zu of them read quickly",
	   compared, quick);
	strbuf_release(&dir);
	return 0;
}
