#ifndef PARSE_OPTIONS_H
#define PARSE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/*
 * Small pieces shared by the subcommands' getopt_long loops.  Each
 * subcommand keeps its own usage text (a NUL-terminated string, lines
 * separated by '\n', the first line starting "usage: ").
 */

/* Print usage to stdout and exit 0 (for -h and --help). */
void usage_help(const char *usage) __attribute__((noreturn));

/*
 * Print "ahd-replay: <message>" (when fmt is not NULL) and the usage to
 * stderr, and exit 2.
 */
void usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * Parse a byte count: digits with an optional k, m or g suffix (binary
 * multiples).  Returns 0, or -1 when s is not such a count.
 */
int parse_size(const char *s, size_t *out);

enum output_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_GITHUB };

/*
 * The value of a --format option: text, json, and github when the
 * command writes workflow annotations.  Anything else is a usage error.
 */
enum output_format parse_output_format(const char *arg, int allow_github,
				       const char *usage);

/* Reset getopt so the next subcommand's loop starts afresh. */
void reset_getopt(void);

#endif
