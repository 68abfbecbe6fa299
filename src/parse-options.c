/*
 * Declarative option parsing: one table per command gives both the
 * parsing and the usage text (see parse-options.h).
 */
#include "config.h"
#include "parse-options.h"
#include "advice.h"
#include "strbuf.h"
#include "suggest.h"
#include "usage.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Option help starts no further right than this, as in git. */
#define USAGE_OPTS_WIDTH 24
/* Help text wraps before this column. */
#define USAGE_WIDTH 74

static int takes_value(const struct parse_opt *o)
{
	return o->type != OPTION_BOOL && o->argh;
}

/* "--name=<arg>", "--name <arg>", "--name[=<arg>]" or "--name". */
static void add_long_form(struct strbuf *sb, const struct parse_opt *o)
{
	strbuf_addf(sb, "--%s", o->long_name);
	if (takes_value(o) && (o->flags & OPT_OPTARG))
		strbuf_addf(sb, "[=%s]", o->argh);
	else if (takes_value(o))
		strbuf_addf(sb, "%s%s", o->flags & OPT_SPACE_ARG ? " " : "=",
			    o->argh);
}

/* Is o the last option the synopsis shows? */
static int last_shown(const struct parse_opt *o)
{
	for (o++; o->type != OPTION_END; o++)
		if (!(o->flags & OPT_NO_SYNOPSIS))
			return 0;
	return 1;
}

static void add_synopsis_options(struct strbuf *sb,
				 const struct parse_opt *opts,
				 const char *operands)
{
	const struct parse_opt *o;
	int in_group = 0, bracket = 0;

	for (o = opts; o->type != OPTION_END; o++) {
		if (o->flags & OPT_NO_SYNOPSIS)
			continue;
		if (in_group)
			strbuf_addstr(sb, " | ");
		else {
			bracket = !(o->flags & OPT_REQUIRED);
			strbuf_addstr(sb, bracket ? " [" : " ");
		}
		add_long_form(sb, o);
		in_group = !!(o->flags & OPT_OR_NEXT);
		if (in_group && last_shown(o)) {
			/* the alternative is the operands themselves */
			strbuf_addf(sb, " | %s%s", operands, bracket ? "]" : "");
			return;
		}
		if (in_group)
			continue;
		if (bracket)
			strbuf_addch(sb, ']');
		if (o->flags & OPT_REPEAT)
			strbuf_addstr(sb, "...");
	}
	if (*operands)
		strbuf_addf(sb, " %s", operands);
}

static void add_wrapped(struct strbuf *sb, const char *text, size_t col,
			size_t indent)
{
	while (*text) {
		size_t len = strcspn(text, " ");

		if (col > indent && col + 1 + len > USAGE_WIDTH) {
			strbuf_addch(sb, '\n');
			strbuf_addf(sb, "%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			strbuf_addch(sb, ' ');
			col++;
		}
		strbuf_add(sb, text, len);
		col += len;
		text += len;
		text += strspn(text, " ");
	}
	strbuf_addch(sb, '\n');
}

static void flags_of(struct strbuf *sb, const struct parse_opt *o)
{
	strbuf_reset(sb);
	if (o->short_name)
		strbuf_addf(sb, "-%c, ", o->short_name);
	add_long_form(sb, o);
}

static void add_option_lines(struct strbuf *sb, const struct parse_opt *opts)
{
	struct strbuf flags = STRBUF_INIT;
	const struct parse_opt *o;
	size_t width = 0, indent;

	for (o = opts; o->type != OPTION_END; o++) {
		flags_of(&flags, o);
		if (flags.len <= USAGE_OPTS_WIDTH && flags.len > width)
			width = flags.len;
	}
	indent = 4 + width + 2;
	for (o = opts; o->type != OPTION_END; o++) {
		flags_of(&flags, o);
		strbuf_addf(sb, "    %s", flags.buf);
		if (flags.len > width) {
			strbuf_addch(sb, '\n');
			strbuf_addf(sb, "%*s", (int)indent, "");
		} else
			strbuf_addf(sb, "%*s", (int)(width + 2 - flags.len),
				    "");
		add_wrapped(sb, o->help, indent, indent);
	}
	strbuf_release(&flags);
}

void usage_format(struct strbuf *sb, const struct cmd_usage *usage)
{
	const char *const *operands;
	const struct parse_opt *opts = usage->options;

	for (operands = usage->operands; *operands; operands++) {
		strbuf_addf(sb, "%s ahd-replay %s",
			    operands == usage->operands ? "usage:" : "   or:",
			    usage->name);
		add_synopsis_options(sb, opts, *operands);
		strbuf_addch(sb, '\n');
	}
	if (opts->type != OPTION_END) {
		strbuf_addch(sb, '\n');
		add_option_lines(sb, opts);
	}
	if (usage->text)
		strbuf_addf(sb, "\n%s", usage->text);
}

/* -h and --help: the usage on stdout, exit 0 */
static void __attribute__((noreturn))
show_help(const struct cmd_usage *usage)
{
	struct strbuf sb = STRBUF_INIT;

	usage_format(&sb, usage);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	exit(finish_stdout(0));
}

void usage_with_options(const struct cmd_usage *usage)
{
	struct strbuf sb = STRBUF_INIT;

	fflush(stdout);
	usage_format(&sb, usage);
	fwrite(sb.buf, 1, sb.len, stderr);
	strbuf_release(&sb);
	exit(2);
}

static void __attribute__((noreturn))
vusage_msg(const struct cmd_usage *usage, const char *fmt, va_list ap)
{
	verror(fmt, ap);
	usage_with_options(usage);
}

void usage_msg_opt(const struct cmd_usage *usage, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage_msg(usage, fmt, ap);
}

int parse_size(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	v <<= shift;
	if (v > (size_t)-1)
		return -1;
	*out = (size_t)v;
	return 0;
}

int parse_opt_format(const struct parse_opt *opt, const char *arg)
{
	enum output_format *format = opt->value;

	if (!strcmp(arg, "text"))
		*format = FORMAT_TEXT;
	else if (!strcmp(arg, "json"))
		*format = FORMAT_JSON;
	else if (opt->defval && !strcmp(arg, "github"))
		*format = FORMAT_GITHUB;
	else if (opt->defval == FORMAT_CI_FORMATS && !strcmp(arg, "sarif"))
		*format = FORMAT_SARIF;
	else if (opt->defval == FORMAT_CI_FORMATS && !strcmp(arg, "junit"))
		*format = FORMAT_JUNIT;
	else
		return error("unknown --format '%s' (%s)", arg,
			     opt->defval == FORMAT_CI_FORMATS ?
			     "text, json, github, sarif or junit" :
			     opt->defval ? "text, json or github" :
			     "text or json");
	return 0;
}

/* --- parsing --------------------------------------------------------- */

struct parse_state {
	const struct cmd_usage *usage;
	int argc;
	char **argv;
	int i;		/* the next argv element to read */
};

static void __attribute__((noreturn, format(printf, 2, 3)))
fail(const struct parse_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage_msg(st->usage, fmt, ap);
}

/*
 * Store one option's value.  `name` is how the user spelled the option
 * ("--max-size", "-q"), for messages; `value` is NULL for a boolean.
 */
static void set_value(const struct parse_state *st, const struct parse_opt *o,
		      const char *name, const char *value)
{
	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = 1;
		return;
	case OPTION_STRING:
		if ((o->flags & OPT_ONCE) && *(const char **)o->value)
			fail(st, "--%s given twice", o->long_name);
		*(const char **)o->value = value;
		return;
	case OPTION_SIZE:
		if (parse_size(value, o->value) || !*(size_t *)o->value)
			fail(st, "invalid %s '%s'", name, value);
		return;
	case OPTION_CALLBACK:
		if (o->callback(o, value))
			usage_with_options(st->usage);
		return;
	case OPTION_END:
		break;
	}
	BUG("option %s of unknown type", name);
}

/* The value of an option that takes one: attached, or the next word. */
static const char *take_value(struct parse_state *st, const char *name,
			      const char *attached)
{
	if (attached)
		return attached;
	if (st->i >= st->argc)
		fail(st, "option '%s' needs a value", name);
	return st->argv[st->i++];
}

/*
 * An unknown option: the message, a "did you mean" when an option of the
 * table is close to what was typed (name: without dashes or value), the
 * usage, exit 2.
 */
static void __attribute__((noreturn))
fail_unknown(const struct parse_state *st, const char *arg, const char *name,
	     size_t len)
{
	const struct parse_opt *o;
	struct suggest sg;
	struct strbuf word = STRBUF_INIT, hint = STRBUF_INIT;

	strbuf_add(&word, name, len);
	suggest_init(&sg, word.buf);
	for (o = st->usage->options; o->type != OPTION_END; o++)
		suggest_consider(&sg, o->long_name);
	error("unknown option '%s'", arg);
	if (suggest_format(&sg, &hint, "--"))
		advise("did you mean %s?", hint.buf);
	strbuf_release(&hint);
	strbuf_release(&word);
	usage_with_options(st->usage);
}

static const struct parse_opt *find_long(const struct parse_state *st,
					 const char *arg, size_t len)
{
	const struct parse_opt *o, *found = NULL;
	int matches = 0;

	if (!len)
		fail(st, "unknown option '%s'", arg);
	for (o = st->usage->options; o->type != OPTION_END; o++) {
		if (strncmp(o->long_name, arg + 2, len))
			continue;
		if (!o->long_name[len])
			return o;
		found = o;
		matches++;
	}
	/* --help, even abbreviated, when no option of ours starts so */
	if (!matches && len && !strncmp("help", arg + 2, len))
		show_help(st->usage);
	if (matches > 1)
		fail(st, "ambiguous option '%.*s'", (int)len + 2, arg);
	if (!found)
		fail_unknown(st, arg, arg + 2, len);
	return found;
}

static void parse_long(struct parse_state *st, const char *arg)
{
	const char *eq = strchr(arg, '='), *value = NULL;
	size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	const struct parse_opt *o = find_long(st, arg, len);
	struct strbuf name = STRBUF_INIT;

	strbuf_addf(&name, "--%s", o->long_name);
	if (o->type == OPTION_BOOL || !o->argh) {
		if (eq)
			fail(st, "option '%s' takes no value", name.buf);
	} else if (o->flags & OPT_OPTARG)
		value = eq ? eq + 1 : NULL;
	else
		value = take_value(st, name.buf, eq ? eq + 1 : NULL);
	set_value(st, o, name.buf, value);
	strbuf_release(&name);
}

/*
 * An unknown short option.  "-format=json" is a long option typed with
 * one dash: say so, as git does, rather than complain about "-f".
 */
static void __attribute__((noreturn))
fail_short(const struct parse_state *st, const char *arg, const char *name)
{
	const struct parse_opt *o;
	size_t len = strcspn(arg + 1, "=");

	/* a group of short options ("-qx"): only the letter is wrong */
	if (name[1] != arg[1])
		len = 0;
	for (o = st->usage->options; len > 1 && o->type != OPTION_END; o++) {
		if (strncmp(o->long_name, arg + 1, len) || o->long_name[len])
			continue;
		error("unknown option '%s'", arg);
		advise("did you mean '-%s' (with two dashes)?", arg);
		usage_with_options(st->usage);
	}
	if (len > 1)
		fail_unknown(st, arg, arg + 1, len);
	fail(st, "unknown option '%s'", name);
}

static void parse_short(struct parse_state *st, const char *arg)
{
	const char *p;

	for (p = arg + 1; *p; p++) {
		const struct parse_opt *o;
		char name[3] = { '-', *p, '\0' };

		for (o = st->usage->options; o->type != OPTION_END; o++)
			if (o->short_name == *p)
				break;
		if (o->type == OPTION_END) {
			if (*p == 'h')
				show_help(st->usage);
			fail_short(st, arg, name);
		}
		if (o->type == OPTION_BOOL || !o->argh ||
		    (o->flags & OPT_OPTARG)) {
			set_value(st, o, name, NULL);
			continue;
		}
		set_value(st, o, name, take_value(st, name, p[1] ? p + 1 :
						  NULL));
		return;
	}
}

/*
 * The table as data for the shell completion scripts (contrib/completion),
 * so that they offer exactly what the parser accepts: "command", each
 * "operands" form, then one "option" line per entry with its short name,
 * long name, value name and help, tab-separated (an empty field: none).
 */
static void list_options(const struct cmd_usage *usage)
{
	const struct parse_opt *o;
	const char *const *form;

	printf("command\t%s\n", usage->name);
	for (form = usage->operands; *form; form++)
		printf("operands\t%s\n", *form);
	for (o = usage->options; o->type != OPTION_END; o++) {
		char s[2] = { (char)o->short_name, '\0' };

		printf("option\t%s\t%s\t%s\t%s\n", s, o->long_name,
		       takes_value(o) ? o->argh : "", o->help ? o->help : "");
	}
	exit(finish_stdout(0));
}

int parse_options(int argc, char **argv, const struct cmd_usage *usage,
		  unsigned flags)
{
	struct parse_state st = { usage, argc, argv, 1 };
	int nr = 0;

	/* Only as the first argument, so that it never shadows an operand. */
	if (argc > 1 && !strcmp(argv[1], PARSE_OPT_LIST_OPTS))
		list_options(usage);

	while (st.i < argc) {
		char *arg = argv[st.i++];

		if (!strcmp(arg, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[nr++] = arg;
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			argv[nr++] = arg;
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			continue;
		}
		if (arg[1] == '-')
			parse_long(&st, arg);
		else
			parse_short(&st, arg);
	}
	while (st.i < argc)
		argv[nr++] = argv[st.i++];
	argv[nr] = NULL;
	return nr;
}

int parse_opt_jobs(const struct parse_opt *opt, const char *arg)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > 1024)
		return error("--jobs wants a number from 1 to 1024, not '%s'",
			     arg);
	*(int *)opt->value = (int)n;
	return 0;
}
