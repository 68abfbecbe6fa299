/*
 * ahd-replay hook pre-commit | pre-merge-commit | pre-push: what the
 * installed git hooks run.  The check and what it prints are the hooks
 * core's (hooks/hookrun.h); this file reads the command line.
 */
#include "config.h"
#include "builtin.h"
#include "hooks/hookrun.h"
#include "hooks/hooks.h"
#include "parse-options.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char hook_usage_text[] =
	"Run by the hooks that install-hooks writes; not usually run by hand.\n"
	"pre-commit refuses a commit whose staged changes make a published\n"
	"report's inputs drift; pre-push refuses a push whose commits do.\n"
	"AHD_REPLAY_SKIP=1 skips the check; git config ahd-replay.strict true\n"
	"also refuses drift that was there before.\n";

int cmd_hook(int argc, char **argv)
{
	const char *skip = getenv("AHD_REPLAY_SKIP");
	int ret;
	const struct parse_opt options[] = { OPT_END() };
	const struct cmd_usage usage = {
		"hook", OPERANDS("(pre-commit | pre-merge-commit | pre-push "
				 "<remote> [<url>])"), options, hook_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_msg_opt(&usage, "which hook?");
	if (strcmp(argv[0], "pre-commit") &&
	    strcmp(argv[0], "pre-merge-commit") && strcmp(argv[0], "pre-push"))
		usage_msg_opt(&usage, "unknown hook '%s'", argv[0]);
	/* A shim already running us further up the chain: check once. */
	if (hook_chain_active(argv[0]))
		return 0;
	if (skip && !strcmp(skip, "1")) {
		notice("AHD_REPLAY_SKIP is set; replay check skipped");
		return 0;
	}
	if (!strcmp(argv[0], "pre-push"))
		ret = hook_run_pre_push(argc > 1 ? argv[1] : NULL,
					argc > 2 ? argv[2] : NULL, stdin);
	else
		ret = hook_run_pre_commit(argv[0]);
	return finish_stdout(ret);
}
