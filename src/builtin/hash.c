/*
 * ahd-replay hash: print the reference's hash of each file.
 */
#include "config.h"
#include "builtin.h"
#include "hash/hashfile.h"
#include "parse-options.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static const char hash_usage_text[] =
	"Without --raw or --jcs, each file is parsed as YAML 1.2 the way the\n"
	"reference does and its canonical JSON is hashed.  \"-\" reads standard\n"
	"input.\n";

int cmd_hash(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	size_t max_size = HASH_DEFAULT_MAX_SIZE;
	int raw = 0, jcs = 0, i, status = 0;
	const struct parse_opt options[] = {
		OPT_BOOL_F(0, "raw", &raw, "hash the decoded text as it is "
			   "(markdown briefs)", OPT_OR_NEXT),
		OPT_BOOL(0, "jcs", &jcs, "parse as JSON, hash the RFC 8785 "
			 "canonical form"),
		OPT_SIZE(0, "max-size", &max_size, "<bytes>", "refuse "
			 "structured inputs over this many bytes (k, m, g "
			 "suffixes; default 64m)"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"hash", OPERANDS("<file>..."), options, hash_usage_text
	};
	enum hash_mode mode;

	argc = parse_options(argc, argv, &usage, 0);
	if (raw && jcs)
		usage_msg_opt(&usage,
			      "--raw and --jcs cannot be used together");
	mode = raw ? HASH_RAW : jcs ? HASH_JCS : HASH_STRUCTURED;
	if (!argc)
		usage_msg_opt(&usage, "no file given");
	for (i = 0; i < argc; i++) {
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
