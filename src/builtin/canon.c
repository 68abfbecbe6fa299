/*
 * ahd-replay canon: print the canonical text that hash would hash.
 */
#include "config.h"
#include "builtin.h"
#include "hash/hashfile.h"
#include "fs/readfile.h"
#include "parse-options.h"
#include "usage.h"
#include "utf8.h"

#include <stdio.h>

static const char canon_usage_text[] =
	"Prints the exact bytes that \"ahd-replay hash\" hashes, followed by a\n"
	"newline.  \"-\" reads standard input.\n";

int cmd_canon(int argc, char **argv)
{
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t max_size = HASH_DEFAULT_MAX_SIZE;
	enum hash_mode mode = HASH_STRUCTURED;
	const char *path;
	int jcs = 0, status = 2;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "jcs", &jcs, "parse as JSON, print the RFC 8785 "
			 "canonical form"),
		OPT_SIZE(0, "max-size", &max_size, "<bytes>", "refuse inputs "
			 "over this many bytes (default 64m)"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"canon", OPERANDS("<file>"), options, canon_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	if (argc != 1)
		usage_msg_opt(&usage, argc ? "canon takes exactly one file" :
			      "no file given");
	if (jcs)
		mode = HASH_JCS;
	path = argv[0];
	if (read_file_limited(&raw, path, max_size, &err))
		goto out;
	utf8_repair(&text, raw.buf, raw.len);
	if (canon_text(&out, text.buf, text.len, mode, &err))
		goto out;
	strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stdout);
	status = 0;
out:
	if (err.len)
		error("%s: %s", path, err.buf);
	strbuf_release(&raw);
	strbuf_release(&text);
	strbuf_release(&out);
	strbuf_release(&err);
	return finish_stdout(status);
}
