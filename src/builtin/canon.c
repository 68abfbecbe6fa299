/*
 * ahd-replay canon: print the canonical text that hash would hash.
 */
#include "config.h"
#include "builtin.h"
#include "hashfile.h"
#include "input.h"
#include "parse-options.h"
#include "usage.h"
#include "utf8.h"

#include <getopt.h>
#include <stdio.h>

const char canon_usage[] =
	"usage: ahd-replay canon [--jcs] [--max-size=<bytes>] <file>\n"
	"\n"
	"    --jcs              parse as JSON, print the RFC 8785 canonical form\n"
	"    --max-size=<n>     refuse inputs over n bytes (default 64m)\n"
	"\n"
	"Prints the exact bytes that \"ahd-replay hash\" hashes, followed by a\n"
	"newline.  \"-\" reads standard input.\n";

static const struct option canon_options[] = {
	{ "jcs", no_argument, NULL, 'j' },
	{ "max-size", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_canon(int argc, char **argv)
{
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t max_size = HASH_DEFAULT_MAX_SIZE;
	enum hash_mode mode = HASH_STRUCTURED;
	const char *path;
	int c, status = 2;

	reset_getopt();
	while ((c = getopt_long(argc, argv, "+h", canon_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			mode = HASH_JCS;
			break;
		case 'm':
			if (parse_size(optarg, &max_size) || !max_size)
				usage_error(canon_usage,
					    "invalid --max-size '%s'", optarg);
			break;
		case 'h':
			usage_help(canon_usage);
		default:
			usage_error(canon_usage, "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		usage_error(canon_usage, optind >= argc ? "no file given" :
			    "canon takes exactly one file");
	path = argv[optind];
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
