/*
 * ahd-replay capture: write the replay sidecar of a run.  The options
 * are parsed here; what a capture checks, records and writes is the
 * capture core's (record/capture.h).
 */
#include "config.h"
#include "builtin.h"
#include "parse-options.h"
#include "record/capture.h"
#include "usage.h"

#include <string.h>

static const char capture_usage_text[] =
	"Exit status: 0 when the sidecar was written, 2 on usage errors and\n"
	"unusable input.\n";

static int model_opt(const struct parse_opt *opt, const char *arg)
{
	return capture_add_model(opt->value, arg);
}

static int condition_opt(const struct parse_opt *opt, const char *arg)
{
	capture_add_condition(opt->value, 0, arg);
	return 0;
}

static int effective_opt(const struct parse_opt *opt, const char *arg)
{
	capture_add_condition(opt->value, 1, arg);
	return 0;
}

static void parse_capture_options(struct capture_opts *opts, int argc,
				  char **argv)
{
	const unsigned once = OPT_ONCE, needed = OPT_ONCE | OPT_REQUIRED;
	const struct parse_opt options[] = {
		OPT_STRING_F(0, "kind", &opts->kind, "<kind>", "eval-live, "
			     "eval-image or critique", needed),
		OPT_STRING_F(0, "token", &opts->token, "<path>", "the style "
			     "token the run used (hashed structured)", needed),
		OPT_STRING_F(0, "brief", &opts->brief, "<path>", "the brief: "
			     ".yml, .yaml, .json hashed structured, anything "
			     "else raw (none for critique runs)", once),
		OPT_STRING_F(0, "n", &opts->n, "<n>", "samples per cell, an "
			     "integer > 0", needed),
		OPT_STRING_F(0, "temperature", &opts->temperature, "<x>", "the "
			     "sampling temperature (default null)", once),
		OPT_STRING_F(0, "seed", &opts->seed, "<s>", "the global seed, "
			     "an integer (default null)", once),
		OPT_CALLBACK_F(0, "model", opts,
			       "<id>=<provider>[:<request-id>,...]", "a model "
			       "of the run, repeatable", OPT_REPEAT, model_opt),
		OPT_CALLBACK_F(0, "condition", opts, "<c>", "a "
			       "requested condition, repeatable", OPT_REPEAT,
			       condition_opt),
		OPT_CALLBACK_F(0, "effective", opts, "<c>", "an "
			       "effective condition, repeatable (default: the "
			       "requested ones)", OPT_REPEAT, effective_opt),
		OPT_STRING_F(0, "report", &opts->report, "<report.md>", "write "
			     "the sidecar beside this report and put the "
			     "rendered block in it", once),
		OPT_STRING_F(0, "out", &opts->out, "<sidecar>", "where to "
			     "write the sidecar (needed without --report)",
			     once),
		OPT_STRING_F(0, "root", &opts->root, "<dir>", "record paths "
			     "relative to <dir>", once),
		OPT_BOOL(0, "force", &opts->force, "replace an existing "
			 "sidecar"),
		OPT_STRING_F(0, "argv-json", &opts->argv_json, "<json>", "the "
			     "run's command line, a JSON array of strings; or "
			     "give it after --", once | OPT_OR_NEXT),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"capture", OPERANDS("-- <argv>..."), options,
		capture_usage_text
	};

	argc = parse_options(argc, argv, &usage, PARSE_OPT_KEEP_DASHDASH);
	/* the words after "--" (not an option's value "--") are argv */
	if (argc && !strcmp(argv[0], "--")) {
		if (opts->argv_json)
			usage_msg_opt(&usage, "give the run's argv with "
				      "--argv-json or after --, not both");
		capture_set_argv(opts, argc - 1, argv + 1);
	} else if (argc)
		usage_msg_opt(&usage, "unexpected argument '%s' (the run's "
			      "argv goes after --)", argv[0]);
	if (opts->argv_json && capture_parse_argv_json(opts))
		usage_with_options(&usage);
	if (!opts->kind)
		usage_msg_opt(&usage, "--kind is required");
	if (!opts->token)
		usage_msg_opt(&usage, "--token is required");
	if (!opts->n)
		usage_msg_opt(&usage, "--n is required");
	if (!opts->report && !opts->out)
		usage_msg_opt(&usage, "--out is required without --report");
	if (capture_check_options(opts))
		usage_with_options(&usage);
}

int cmd_capture(int argc, char **argv)
{
	struct capture_opts opts;
	int status;

	capture_opts_init(&opts);
	parse_capture_options(&opts, argc, argv);
	status = capture_write(&opts) ? 2 : 0;
	capture_opts_release(&opts);
	return finish_stdout(status);
}
