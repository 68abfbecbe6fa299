/*
 * Test helper: hash every record of a corpus, one result line each.
 *
 * A corpus is a sequence of records "#<decimal length>\n<bytes>\n".  For
 * each record this prints "ok sha256:<hex>", "error <reason>" or
 * "unsupported <reason>", the format t/oracle/oracle.mjs prints for the
 * reference, so the two outputs can be compared line by line.
 * "--canon" prints "ok <canonical text>" instead of the hash.
 */
#include "config.h"
#include "hash/hashfile.h"
#include "fs/readfile.h"
#include "strbuf.h"
#include "usage.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_reason(const char *kind, const struct strbuf *err)
{
	size_t i;

	fputs(kind, stdout);
	for (i = 0; i < err->len; i++)
		putchar(err->buf[i] == '\n' ? ' ' : err->buf[i]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct strbuf corpus = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, canon = STRBUF_INIT;
	const char *path = "-";
	size_t pos = 0;
	int want_canon = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--canon"))
			want_canon = 1;
		else
			path = argv[i];
	}
	if (read_file_limited(&corpus, path, 0, &err))
		die("%s: %s", path, err.buf);
	while (pos < corpus.len) {
		char *end;
		unsigned long long n;
		int ret;

		if (corpus.buf[pos] != '#')
			die("corpus: expected '#' at byte %zu", pos);
		n = strtoull(corpus.buf + pos + 1, &end, 10);
		if (*end != '\n' || n > corpus.len - (size_t)(end + 1 - corpus.buf))
			die("corpus: bad record header at byte %zu", pos);
		pos = (size_t)(end + 1 - corpus.buf);

		strbuf_reset(&err);
		strbuf_reset(&text);
		strbuf_reset(&canon);
		utf8_repair(&text, corpus.buf + pos, (size_t)n);
		if (want_canon) {
			ret = canon_text(&canon, text.buf, text.len,
					 HASH_STRUCTURED, &err);
		} else {
			char hex[HASH_HEX_MAX];

			ret = hash_text(hex, text.buf, text.len,
					HASH_STRUCTURED, &err);
			if (!ret)
				strbuf_addstr(&canon, hex);
		}
		if (!ret) {
			fputs("ok ", stdout);
			fwrite(canon.buf, 1, canon.len, stdout);
			putchar('\n');
		} else
			print_reason(ret == HASH_EUNSUPPORTED ? "unsupported " :
				     "error ", &err);
		pos += (size_t)n;
		if (pos < corpus.len && corpus.buf[pos] == '\n')
			pos++;
	}
	strbuf_release(&corpus);
	strbuf_release(&err);
	strbuf_release(&text);
	strbuf_release(&canon);
	return finish_stdout(0);
}
