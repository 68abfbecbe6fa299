/*
 * Unit tests for parse-options: the usage text a table gives, and the
 * parsing of well-formed command lines (usage errors exit, so the shell
 * tests cover them).
 */
#include "config.h"
#include "parse-options.h"
#include "strbuf.h"
#include "tap.h"

#include <string.h>

struct vals {
	int raw, jcs, quiet;
	size_t size;
	const char *root, *print;
	int calls;
	const char *last;
};

static int count(const struct parse_opt *opt, const char *arg)
{
	struct vals *v = opt->value;

	v->calls++;
	v->last = arg;
	return 0;
}

#define TABLE(v) { \
	OPT_BOOL_F(0, "raw", &(v).raw, "hash the decoded text as it is", \
		   OPT_OR_NEXT), \
	OPT_BOOL(0, "jcs", &(v).jcs, "parse as JSON"), \
	OPT_BOOL('q', "quiet", &(v).quiet, "say less"), \
	OPT_SIZE(0, "max-size", &(v).size, "<bytes>", "refuse inputs over " \
		 "this many bytes, with k, m or g suffixes, the default " \
		 "being 64m"), \
	OPT_STRING_F(0, "root", &(v).root, "<dir>", "the root", \
		     OPT_REQUIRED), \
	OPT_CALLBACK_F(0, "model", &(v), "<id>", "a model", OPT_REPEAT, \
		       count), \
	OPT_STRING_F(0, "print", &(v).print, "<hook>", "print it", \
		     OPT_SPACE_ARG | OPT_NO_SYNOPSIS), \
	OPT_END() \
}

static void test_usage(void)
{
	struct vals v = { 0 };
	const struct parse_opt options[] = TABLE(v);
	const struct cmd_usage usage = {
		"frob", OPERANDS("<file>...", "--print <hook>"), options,
		"A closing paragraph.\n"
	};
	struct strbuf sb = STRBUF_INIT;

	usage_format(&sb, &usage);
	is_string("usage: ahd-replay frob [--raw | --jcs] [--quiet] "
		  "[--max-size=<bytes>] --root=<dir> [--model=<id>]... "
		  "<file>...\n"
		  "   or: ahd-replay frob [--raw | --jcs] [--quiet] "
		  "[--max-size=<bytes>] --root=<dir> [--model=<id>]... "
		  "--print <hook>\n"
		  "\n"
		  "    --raw               hash the decoded text as it is\n"
		  "    --jcs               parse as JSON\n"
		  "    -q, --quiet         say less\n"
		  "    --max-size=<bytes>  refuse inputs over this many bytes, "
		  "with k, m or g\n"
		  "                        suffixes, the default being 64m\n"
		  "    --root=<dir>        the root\n"
		  "    --model=<id>        a model\n"
		  "    --print <hook>      print it\n"
		  "\n"
		  "A closing paragraph.\n", sb.buf,
		  "the synopsis and option lines come from the table");
	strbuf_release(&sb);
}

static void test_alternative_operands(void)
{
	const char *json = NULL;
	const struct parse_opt options[] = {
		OPT_STRING_F(0, "argv-json", &json, "<json>", "the argv",
			     OPT_OR_NEXT),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"cap", OPERANDS("-- <argv>..."), options, NULL
	};
	struct strbuf sb = STRBUF_INIT;

	usage_format(&sb, &usage);
	is_string("usage: ahd-replay cap [--argv-json=<json> | -- <argv>...]\n"
		  "\n"
		  "    --argv-json=<json>  the argv\n", sb.buf,
		  "the last option's alternative is the operands");
	strbuf_release(&sb);
}

static void test_parse(void)
{
	struct vals v = { 0 };
	const struct parse_opt options[] = TABLE(v);
	const struct cmd_usage usage = {
		"frob", OPERANDS("<file>..."), options, NULL
	};
	char *argv[] = { "frob", "--ra", "-q", "--max-size", "2k", "a",
			 "--root=r", "--model=m1", "--model", "m2", "--",
			 "--jcs", NULL };
	int argc = (int)(sizeof(argv) / sizeof(*argv)) - 1;

	argc = parse_options(argc, argv, &usage, 0);
	is_int(1, v.raw, "a unique prefix names the option");
	is_int(1, v.quiet, "short option");
	is_int(2048, (long long)v.size, "a size with a separate value");
	is_string("r", v.root, "an attached value");
	is_int(2, v.calls, "a callback runs once per occurrence");
	is_string("m2", v.last, "a callback sees the value");
	is_int(0, v.jcs, "nothing after -- is an option");
	is_int(2, argc, "two operands");
	is_string("a", argv[0], "options may follow operands");
	is_string("--jcs", argv[1], "the words after -- are operands");
	ok(!argv[2], "the operands end with NULL");
}

static void test_stop_and_dashdash(void)
{
	struct vals v = { 0 };
	const struct parse_opt options[] = TABLE(v);
	const struct cmd_usage usage = {
		"frob", OPERANDS("<file>..."), options, NULL
	};
	char *argv1[] = { "frob", "-", "--jcs", NULL };
	char *argv2[] = { "frob", "--print", "--", "--", "x", NULL };

	is_int(2, parse_options(3, argv1, &usage,
				PARSE_OPT_STOP_AT_NON_OPTION),
	       "the first operand ends the options");
	is_string("-", argv1[0], "\"-\" is an operand");
	is_int(0, v.jcs, "an option after an operand stays an operand");
	is_int(2, parse_options(5, argv2, &usage, PARSE_OPT_KEEP_DASHDASH),
	       "-- is kept");
	is_string("--", v.print, "an option's value may be --");
	is_string("--", argv2[0], "the -- that ended the options comes first");
}

static void test_dashdash_in_place(void)
{
	struct vals v = { 0 };
	const struct parse_opt options[] = TABLE(v);
	const struct cmd_usage usage = {
		"frob", OPERANDS("<file> [-- <program>...]"), options, NULL
	};
	char *argv[] = { "frob", "a", "-q", "--", "prog", "--jcs", NULL };

	is_int(4, parse_options(6, argv, &usage, PARSE_OPT_KEEP_DASHDASH),
	       "operands, --, then the program");
	is_string("a", argv[0], "the operand before --");
	is_string("--", argv[1], "-- stays where it was");
	is_string("--jcs", argv[3], "the program's options are its own");
	is_int(1, v.quiet, "an option after an operand is read");
	is_int(0, v.jcs, "an option after -- is not");
}

static int when_cb(const struct parse_opt *opt, const char *arg)
{
	*(const char **)opt->value = arg ? arg : "(none)";
	return 0;
}

static void test_optional_value(void)
{
	const char *when = NULL;
	const struct parse_opt options[] = {
		OPT_CALLBACK_F(0, "color", &when, "<when>", "colour",
			       OPT_OPTARG, when_cb),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"frob", OPERANDS("<file>"), options, NULL
	};
	char *argv1[] = { "frob", "--color", "never", NULL };
	char *argv2[] = { "frob", "x", "--color=never", NULL };
	struct strbuf sb = STRBUF_INIT;

	is_int(1, parse_options(3, argv1, &usage, 0),
	       "the next word is not an optional value");
	is_string("(none)", when, "--color alone passes NULL");
	is_string("never", argv1[0], "the next word stays an operand");
	is_int(1, parse_options(3, argv2, &usage, 0), "--color=never");
	is_string("never", when, "an attached optional value");
	usage_format(&sb, &usage);
	ok(strstr(sb.buf, "[--color[=<when>]] <file>") != NULL,
	   "the synopsis brackets the optional value");
	strbuf_release(&sb);
}

static void test_parse_size(void)
{
	size_t n = 0;

	ok(!parse_size("64m", &n) && n == (size_t)64 << 20, "64m");
	ok(parse_size("-1", &n) < 0, "no sign");
	ok(parse_size("1x", &n) < 0, "no unknown suffix");
	ok(parse_size("", &n) < 0, "not empty");
}

int main(void)
{
	plan_lazy();
	test_usage();
	test_alternative_operands();
	test_parse();
	test_stop_and_dashdash();
	test_dashdash_in_place();
	test_optional_value();
	test_parse_size();
	return 0;
}
