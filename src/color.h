#ifndef COLOR_H
#define COLOR_H

/*
 * Whether to colour what we print, decided as git decides (git's color.c
 * in behaviour; the code is ours), plus the NO_COLOR convention:
 *
 *  1. --color[=<when>] / --no-color on the command line
 *     (color_set_cmdline());
 *  2. git config ahd-replay.color, else color.ui: never, always, auto,
 *     or a boolean (false is never, true is auto), as git reads color.ui;
 *  3. auto.
 *
 * "auto" colours a stream only when it is a terminal and TERM is set and
 * not "dumb", and never when NO_COLOR is set to a non-empty value (an
 * explicit "always", from the command line or the configuration, wins
 * over NO_COLOR, as no-color.org asks).  Machine formats (json, github,
 * sarif, junit) and files are never coloured: callers only colour text
 * meant for a person, and ask color_want() for the stream they write to.
 */

enum color_when {
	COLOR_UNSET = -1,
	COLOR_NEVER = 0,
	COLOR_ALWAYS = 1,
	COLOR_AUTO = 2,
};

struct strbuf;

/*
 * How a setting is read, as advice_config_fn (advice.h): main() hands
 * over the git configuration reader for the commands that start
 * libgit2.  Set once, before color_want(); with read NULL the setting is
 * the command line's, else auto.
 */
typedef int color_config_fn(struct strbuf *out, const char *key,
			    struct strbuf *err);
void color_init(color_config_fn *read);

/*
 * Parse a value: never, always or auto; with from_config, also a git
 * boolean (false, no, off, 0: never; true, yes, on, 1: auto).  Returns
 * the enum color_when, or -1 for anything else.
 */
int color_parse_when(const char *value, int from_config);

/* What --color[=<when>] or --no-color said (COLOR_UNSET: nothing). */
void color_set_cmdline(enum color_when when);

/*
 * Whether to colour what goes to fd (1 or 2): the setting above, "auto"
 * resolved for that stream.  Decided once per stream; an invalid
 * configuration value is warned about and taken as auto.
 */
int color_want(int fd);

/* SGR sequences for the text printers; COLOR_RESET after each span. */
#define COLOR_RESET	"\033[m"
#define COLOR_BOLD	"\033[1m"
#define COLOR_RED	"\033[31m"
#define COLOR_GREEN	"\033[32m"
#define COLOR_YELLOW	"\033[33m"
#define COLOR_CYAN	"\033[36m"

/* code when fd is to be coloured, else "" (for printf's "%s"). */
const char *color_code(int fd, const char *code);

/*
 * The callback behind OPT_COLOR: "--color" is always, "--color=<when>"
 * is never, always or auto, and "--no-color" (defval 1) is never.
 */
struct parse_opt;
int parse_opt_color(const struct parse_opt *opt, const char *arg);

/*
 * "--color[=always|auto|never]" and "--no-color" for an option table; the value is
 * an int, COLOR_UNSET until given, also handed to color_set_cmdline().
 */
#define OPT_COLOR(v) \
	OPT_CALLBACK_F(0, "color", (v), "always|auto|never", \
		       "colour the output (alone: always; default: " \
		       "color.ui, else auto)", OPT_OPTARG, \
		       parse_opt_color), \
	{ OPTION_CALLBACK, 0, "no-color", (v), NULL, "do not colour the " \
	  "output", OPT_NO_SYNOPSIS, parse_opt_color, 1 }

#endif
