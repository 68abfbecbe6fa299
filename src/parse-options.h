#ifndef PARSE_OPTIONS_H
#define PARSE_OPTIONS_H

#include <stddef.h>

/*
 * Declarative option parsing, in the shape of git's parse-options.h.
 *
 * Each command declares its options once, in a table of OPT_* entries
 * ending with OPT_END(), and a struct cmd_usage naming the command, its
 * operands and a closing paragraph.  From these come both the parsing
 * and the whole usage text: the synopsis lines ("usage: ahd-replay
 * <name> <options> <operands>", one per operand form), one line per
 * option with its help, then the paragraph.  -h and --help print that
 * text to stdout and exit 0; every usage error prints its message and
 * the text to stderr and exits 2.
 *
 * Long options take "--name=value" or "--name value", and may be
 * abbreviated to any unambiguous prefix (as getopt_long allowed).
 * Short options may be grouped ("-qh").  Options may come before, between
 * and after the operands, as in git, cobra and argparse; "--" ends them,
 * so an operand that starts with "-" goes after it.  A mistyped option
 * gets a "did you mean" hint.
 */

struct parse_opt;

/*
 * Called for an OPTION_CALLBACK with the option's value (NULL for one
 * declared without argh).  Returns 0, or -1 after error() has said what
 * is wrong; the parser then shows the usage and exits 2.
 */
typedef int parse_opt_cb(const struct parse_opt *opt, const char *arg);

enum parse_opt_type {
	OPTION_END,
	OPTION_BOOL,		/* int: set to 1 */
	OPTION_STRING,		/* const char *: the value */
	OPTION_SIZE,		/* size_t: a byte count > 0 (parse_size) */
	OPTION_CALLBACK,	/* callback(opt, value) */
};

enum parse_opt_flags {
	/* A second occurrence is a usage error ("--kind given twice"). */
	OPT_ONCE = 1 << 0,
	/* The synopsis shows it without brackets (the command checks it). */
	OPT_REQUIRED = 1 << 1,
	/* The synopsis marks it repeatable: "[--model=<id>]...". */
	OPT_REPEAT = 1 << 2,
	/*
	 * The synopsis offers it and the next option as alternatives in
	 * one bracket, "[--raw | --jcs]"; on the last option shown, the
	 * alternative is the operands: "[--argv-json=<json> | -- <argv>...]".
	 */
	OPT_OR_NEXT = 1 << 3,
	/* Shown as "--print <hook>" rather than "--print=<hook>". */
	OPT_SPACE_ARG = 1 << 4,
	/* Left out of the synopsis, whose operand line spells it out. */
	OPT_NO_SYNOPSIS = 1 << 5,
	/*
	 * The value is optional and only ever attached: "--color" passes
	 * NULL to the callback, "--color=never" passes "never", and the word
	 * after "--color" is never its value.  Shown as "--color[=<when>]".
	 */
	OPT_OPTARG = 1 << 6,
};

struct parse_opt {
	enum parse_opt_type type;
	int short_name;		/* 0 for none */
	const char *long_name;
	void *value;
	const char *argh;	/* the value's name in the usage; NULL: none */
	const char *help;
	unsigned flags;		/* enum parse_opt_flags */
	parse_opt_cb *callback;
	long defval;		/* for callbacks' own use */
};

#define OPT_END() { OPTION_END, 0, NULL, NULL, NULL, NULL, 0, NULL, 0 }
#define OPT_BOOL(s, l, v, h) \
	{ OPTION_BOOL, (s), (l), (v), NULL, (h), 0, NULL, 0 }
#define OPT_BOOL_F(s, l, v, h, f) \
	{ OPTION_BOOL, (s), (l), (v), NULL, (h), (f), NULL, 0 }
#define OPT_STRING(s, l, v, a, h) \
	{ OPTION_STRING, (s), (l), (v), (a), (h), 0, NULL, 0 }
#define OPT_STRING_F(s, l, v, a, h, f) \
	{ OPTION_STRING, (s), (l), (v), (a), (h), (f), NULL, 0 }
#define OPT_SIZE(s, l, v, a, h) \
	{ OPTION_SIZE, (s), (l), (v), (a), (h), 0, NULL, 0 }
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ OPTION_CALLBACK, (s), (l), (v), (a), (h), 0, (cb), 0 }
#define OPT_CALLBACK_F(s, l, v, a, h, f, cb) \
	{ OPTION_CALLBACK, (s), (l), (v), (a), (h), (f), (cb), 0 }

enum output_format {
	FORMAT_TEXT, FORMAT_JSON, FORMAT_GITHUB, FORMAT_SARIF, FORMAT_JUNIT
};

/* The callback behind OPT_FORMAT and OPT_FORMAT_CI. */
int parse_opt_format(const struct parse_opt *opt, const char *arg);

/*
 * --format=text|json, or text|json|github when the command writes
 * workflow annotations; v points to an enum output_format.
 */
#define OPT_FORMAT(v, github, h) \
	{ OPTION_CALLBACK, 0, "format", (v), \
	  (github) ? "text|json|github" : "text|json", (h), 0, \
	  parse_opt_format, (github) }

/* The commands CI reads: github annotations, SARIF and JUnit too. */
#define FORMAT_CI_FORMATS 2
#define OPT_FORMAT_CI(v, h) \
	{ OPTION_CALLBACK, 0, "format", (v), \
	  "text|json|github|sarif|junit", (h), 0, parse_opt_format, \
	  FORMAT_CI_FORMATS }

struct cmd_usage {
	const char *name;		/* "hash", "log verify" */
	/*
	 * NULL-terminated; one synopsis line each, after the options
	 * (""  when a form takes no operands).
	 */
	const char *const *operands;
	const struct parse_opt *options;
	const char *text;		/* the closing paragraph, or NULL */
};

/* A compound literal for cmd_usage.operands. */
#define OPERANDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

enum parse_options_flags {
	/*
	 * The first operand ends the options: only for a command whose first
	 * operand is a subcommand ("log verify", "hooks status") or whose
	 * later words belong to someone else (the hook's arguments from
	 * git).  Every other command takes options anywhere.
	 */
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
	/*
	 * Keep the "--" that ended the options, in its place after the
	 * operands before it: "replay <report> -- <program>..." gives
	 * { "<report>", "--", "<program>", ... }.
	 */
	PARSE_OPT_KEEP_DASHDASH = 1 << 1,
};

/*
 * "ahd-replay <command> --list-opts" (first argument only) prints the
 * command's table for the completion scripts and exits 0; it is left out
 * of the usage text, like "ahd-replay --list-cmds".
 */
#define PARSE_OPT_LIST_OPTS "--list-opts"

/*
 * Parse argv[1..argc) (argv[0] is the command's name) against
 * usage->options, storing each value where its entry points.  Returns
 * the number of operands, which are moved to argv[0..n) in order.
 * Usage errors and -h do not return.
 */
int parse_options(int argc, char **argv, const struct cmd_usage *usage,
		  unsigned flags);

/* Append the full usage text to sb. */
struct strbuf;
void usage_format(struct strbuf *sb, const struct cmd_usage *usage);

/* Print the usage to stderr and exit 2. */
void usage_with_options(const struct cmd_usage *usage)
	__attribute__((noreturn));

/* Print "ahd-replay: <message>" and the usage to stderr, and exit 2. */
void usage_msg_opt(const struct cmd_usage *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * Parse a byte count: digits with an optional k, m or g suffix (binary
 * multiples).  Returns 0, or -1 when s is not such a count.
 */
int parse_size(const char *s, size_t *out);

/*
 * An OPT_CALLBACK for -j/--jobs: a count of threads from 1 to 1024 (1:
 * serial) into the int at opt->value.
 */
int parse_opt_jobs(const struct parse_opt *opt, const char *arg);

#endif
