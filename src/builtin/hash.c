/*
 * ahd-replay hash: print the reference's hash of each file.
 */
#include "config.h"
#include "builtin.h"
#include "hashfile.h"
#include "parse-options.h"
#include "usage.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

const char hash_usage[] =
	"usage: ahd-replay hash [--raw | --jcs] [--max-size=<bytes>] <file>...\n"
	"\n"
	"    --raw              hash the decoded text as it is (markdown briefs)\n"
	"    --jcs              parse as JSON, hash the RFC 8785 canonical form\n"
	"    --max-size=<n>     refuse structured inputs over n bytes\n"
	"                       (k, m, g suffixes; default 64m)\n"
	"\n"
	"Without --raw or --jcs, each file is parsed as YAML 1.2 the way the\n"
	"reference does and its canonical JSON is hashed.  \"-\" reads standard\n"
	"input.\n";

static const struct option hash_options[] = {
	{ "raw", no_argument, NULL, 'r' },
	{ "jcs", no_argument, NULL, 'j' },
	{ "max-size", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns the index of the first operand. */
static int parse_hash_options(int argc, char **argv, const char *usage,
			   const struct option *opts, enum hash_mode *mode,
			   size_t *max_size)
{
	int raw = 0, jcs = 0, c;

	reset_getopt();
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			raw = 1;
			break;
		case 'j':
			jcs = 1;
			break;
		case 'm':
			if (parse_size(optarg, max_size) || !*max_size)
				usage_error(usage, "invalid --max-size '%s'",
					    optarg);
			break;
		case 'h':
			usage_help(usage);
		default:
			usage_error(usage, "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	if (raw && jcs)
		usage_error(usage, "--raw and --jcs cannot be used together");
	*mode = raw ? HASH_RAW : jcs ? HASH_JCS : HASH_STRUCTURED;
	return optind;
}

int cmd_hash(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	enum hash_mode mode;
	size_t max_size = HASH_DEFAULT_MAX_SIZE;
	int i, status = 0;

	i = parse_hash_options(argc, argv, hash_usage, hash_options, &mode,
			    &max_size);
	if (i >= argc)
		usage_error(hash_usage, "no file given");
	for (; i < argc; i++) {
		char hex[HASH_HEX_MAX];

		strbuf_reset(&err);
		if (hash_file(hex, argv[i], mode, max_size, &err)) {
			error("%s: %s", argv[i], err.buf);
			status = 2;
			continue;
		}
		printf("%s  %s\n", hex, argv[i]);
	}
	strbuf_release(&err);
	return finish_stdout(status);
}
