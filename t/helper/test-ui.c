/*
 * Test helper for the modules that later commands print through:
 *
 *   test-ui advise <key> <text>	advise_once() twice with the type
 *					whose key ends in <key>
 *   test-ui color [--color[=<when>] | --no-color]
 *					print whether stdout and stderr
 *					would be coloured
 *
 * Both read the git configuration of the current directory, as a
 * command that starts libgit2 does.
 */
#include "config.h"
#include "advice.h"
#include "color.h"
#include "parse-options.h"
#include "strbuf.h"
#include "strutil.h"
#include "usage.h"
#include "git/repo.h"

#include <stdio.h>
#include <string.h>

static int test_advise(int argc, char **argv)
{
	int type;

	if (argc != 3)
		die("usage: test-ui advise <key> <text>");
	for (type = 0; type < ADVICE_NR; type++) {
		const char *key = advice_config_key(type);

		if (ends_with(key, argv[1]) &&
		    key[strlen(key) - strlen(argv[1]) - 1] == '.')
			break;
	}
	if (type == ADVICE_NR)
		die("no advice '%s'", argv[1]);
	printf("%s %s\n", advice_config_key(type),
	       advice_enabled(type) ? "on" : "off");
	advise_once(type, "%s", argv[2]);
	advise_once(type, "%s", argv[2]);
	return finish_stdout(0);
}

static int test_color(int argc, char **argv)
{
	int when = COLOR_UNSET;
	const struct parse_opt options[] = {
		OPT_COLOR(&when),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"color", OPERANDS(""), options, NULL
	};
	int want_out, want_err;

	if (parse_options(argc, argv, &usage, 0))
		usage_msg_opt(&usage, "no operands");
	want_out = color_want(1);
	want_err = color_want(2);
	printf("stdout: %s, stderr: %s%s%s\n", want_out ? "color" : "plain",
	       want_err ? "color" : "plain", color_code(1, COLOR_RED),
	       color_code(1, COLOR_RESET));
	return finish_stdout(0);
}

/* As main() reads a setting for the commands that start libgit2. */
static int read_git_config(struct strbuf *out, const char *key,
			   struct strbuf *err)
{
	return repo_config_here(out, key, 0, err);
}

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (argc < 2)
		die("usage: test-ui (advise | color) ...");
	if (repo_library_init(&err))
		die("%s", err.buf);
	advice_init(read_git_config);
	color_init(read_git_config);
	if (!strcmp(argv[1], "advise"))
		ret = test_advise(argc - 1, argv + 1);
	else if (!strcmp(argv[1], "color"))
		ret = test_color(argc - 1, argv + 1);
	else
		die("unknown test-ui command '%s'", argv[1]);
	repo_library_shutdown();
	return ret;
}
