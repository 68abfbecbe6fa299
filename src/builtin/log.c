/*
 * ahd-replay log verify: the rules of a REPLAY.jsonl event log, checked
 * in one streaming pass.
 */
#include "config.h"
#include "builtin.h"
#include "record/eventlog.h"
#include "ci/github.h"
#include "json/jsonout.h"
#include "ci/outcome.h"
#include "ci/output.h"
#include "parse-options.h"
#include "quote.h"
#include "strbuf.h"
#include "usage.h"
#include "json/jval.h"

#include <stdio.h>
#include <string.h>

struct log_opts {
	enum output_format format;
	int quiet;
	int canonicalize;
	const char *receipt;
	struct output_list outputs;
	size_t max_line;
};

struct printer {
	const struct log_opts *opts;
	const char *file;
	int any;	/* json: a problem was printed, so the next needs a comma */
	struct outcome *oc;	/* for SARIF and JUnit */
	struct github_log gh;	/* annotations printed */
};

static void print_problem(void *data, size_t line, const char *rule,
			  const char *msg)
{
	struct printer *p = data;
	struct strbuf sb = STRBUF_INIT;

	if (p->oc) {
		struct outcome_case *c;
		char num[32];
		const char *parts[3];

		c = outcome_add(p->oc, p->file, rule, OUTCOME_FAIL, rule, msg);
		outcome_set_location(c, p->file, (long)line);
		/* the line: a log only grows, so lines keep their numbers */
		snprintf(num, sizeof(num), "%zu", line);
		parts[0] = p->file;
		parts[1] = rule;
		parts[2] = num;
		outcome_set_fingerprint(c, parts, 3);
	}
	switch (p->opts->format) {
	default:
		break;
	case FORMAT_TEXT:
		/* ids and timestamps come from the log: one line (quote.h) */
		quote_c_style(&sb, p->file);
		strbuf_addf(&sb, ":%zu: %s: ", line, rule);
		quote_escape(&sb, msg, strlen(msg));
		puts(sb.buf);
		break;
	case FORMAT_GITHUB:
		strbuf_addf(&sb, "replay log %s", rule);
		github_annotate(&p->gh, "error", p->file, (long)line, sb.buf,
				msg);
		break;
	case FORMAT_JSON: {
		struct jval *o = jval_object(), *m = jval_string(msg);

		/* The keys in byte order, as scripts have always seen them. */
		jval_object_set_new(o, "line", jval_integer((int64_t)line));
		/* a lone surrogate in an id is not UTF-8 */
		jval_object_set_new(o, "message", m ? m : jval_string("?"));
		jval_object_set_new(o, "rule", jval_string(rule));
		jsonout_write(&sb, o, JSONOUT_COMPACT, 0);
		printf("%s\n    %s", p->any ? "," : "", sb.buf);
		jval_decref(o);
		break;
	}
	}
	p->any = 1;
	strbuf_release(&sb);
}

static int log_verify(const struct log_opts *opts, const char *file)
{
	struct outcome oc = OUTCOME_INIT("log verify");
	struct printer printer = { opts, NULL, 0, &oc, { 0, 0 } };
	struct strbuf err = STRBUF_INIT;
	struct eventlog el;
	int status, failed;

	printer.file = file;
	eventlog_init(&el, print_problem, &printer);
	el.max_line = opts->max_line;
	if (opts->format == FORMAT_JSON)
		printf("{\n  \"version\": 1,\n  \"problems\": [");
	failed = eventlog_check_file(&el, file, opts->receipt,
				     opts->canonicalize, &err) < 0;
	status = failed ? 2 : el.problems ? 1 : 0;
	if (failed) {
		error_path(file, &err);
	}
	if (opts->format == FORMAT_JSON) {
		struct jval *doc = jval_object(), *summary = jval_object();
		struct strbuf text = STRBUF_INIT;

		jval_object_set_new(doc, "file", jval_string(file));
		jval_object_set_new(doc, "error", failed ?
				    jval_string(err.buf) : jval_null());
		jval_object_set_new(summary, "lines", jval_integer((int64_t)el.lines));
		jval_object_set_new(summary, "problems", jval_integer((int64_t)el.problems));
		jval_object_set_new(summary, "tool_calls", jval_integer((int64_t)el.tool_calls));
		jval_object_set_new(summary, "tool_results", jval_integer((int64_t)el.tool_results));
		jval_object_set_new(summary, "unknown_events", jval_integer((int64_t)el.unknown_events));
		jval_object_set_new(summary, "unknown_fields", jval_integer((int64_t)el.unknown_fields));
		jval_object_set_new(doc, "summary", summary);
		jval_object_set_new(doc, "exit_status", jval_integer(status));
		jsonout_pretty(&text, doc);
		/* continue the object opened above: drop its brace */
		printf("%s],\n%s\n", printer.any ? "\n  " : "", text.buf + 2);
		strbuf_release(&text);
		jval_decref(doc);
	} else if (!opts->quiet && opts->format == FORMAT_TEXT && !failed) {
		struct strbuf name = STRBUF_INIT;

		quote_c_style(&name, file);
		/* Fixed words, for the scripts that read this line. */
		printf("%s: %zu lines, %zu tool calls, %zu problems, "
		       "%zu unknown events, %zu unknown fields\n", name.buf,
		       el.lines, el.tool_calls, el.problems,
		       el.unknown_events, el.unknown_fields);
		strbuf_release(&name);
	}
	if (failed) {
		struct outcome_case *c = outcome_add(&oc, file, "log",
						     OUTCOME_ERROR,
						     "unreadable-log", err.buf);

		outcome_set_location(c, file, 0);
	} else if (!el.problems)
		outcome_add(&oc, file, "log", OUTCOME_PASS, NULL, NULL);
	/* GitHub keeps 10 annotations of a step: say when there were more. */
	if (opts->format == FORMAT_GITHUB)
		github_caps(&printer.gh);
	if (output_outcome(&opts->outputs, opts->format, &oc, status))
		status = 2;
	outcome_release(&oc);
	eventlog_release(&el);
	strbuf_release(&err);
	return finish_stdout(status);
}

/*
 * --output for log verify: SARIF and JUnit; the JSON document is written
 * as the log is read (logs are large), so only to stdout.
 */
static int parse_log_output(const struct parse_opt *opt, const char *arg)
{
	const struct output_list *l = opt->value;

	if (parse_opt_output(opt, arg))
		return -1;
	if (l->v[l->nr - 1].format == FORMAT_JSON)
		return error("log verify writes json to stdout only "
			     "(--format=json)");
	return 0;
}

int cmd_log(int argc, char **argv)
{
	struct log_opts opts = { FORMAT_TEXT, 0, 0, NULL, OUTPUT_LIST_INIT,
				 EVENTLOG_MAX_LINE };
	const struct parse_opt options[] = {
		OPT_FORMAT_CI(&opts.format, "text (default), json, github "
			      "annotations, SARIF 2.1.0 or JUnit XML"),
		OPT_CALLBACK_F(0, "output", &opts.outputs, "<format>:<file>",
			       "also write the sarif or junit format to "
			       "<file> (atomically; only over an earlier such "
			       "output)", OPT_REPEAT, parse_log_output),
		OPT_BOOL('q', "quiet", &opts.quiet, "text: print only the "
			 "problems"),
		OPT_STRING(0, "receipt", &opts.receipt, "<receipt.json>",
			   "compare ToolResult output hashes, in order, with "
			   "the receipt's tool_calls[].output_hash"),
		OPT_BOOL(0, "canonicalize", &opts.canonicalize, "rewrite the "
			 "log in canonical form (atomically) and check the "
			 "rewritten lines"),
		OPT_SIZE(0, "max-line-bytes", &opts.max_line, "<n>", "refuse "
			 "a log with a line over <n> bytes (default 64m)"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"log verify", OPERANDS("<file.jsonl>"), options, NULL
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_msg_opt(&usage, "expected a subcommand");
	if (strcmp(argv[0], "verify"))
		usage_msg_opt(&usage, "unknown subcommand '%s'", argv[0]);
	/* options may follow the log: the form puts --receipt last */
	argc = parse_options(argc, argv, &usage, 0);
	if (argc != 1)
		usage_msg_opt(&usage, "expected one log file");
	if (output_check(&opts.outputs))
		return 2;
	argc = log_verify(&opts, argv[0]);
	output_list_release(&opts.outputs);
	return argc;
}
