#ifndef OUTPUT_H
#define OUTPUT_H

#include "outcome.h"
#include "parse-options.h"
#include "strbuf.h"

/*
 * --output=<format>:<file>, repeatable: the same run written to files in
 * other formats (json, sarif, junit) beside the one on stdout.  A file is
 * written atomically (readers see the old or the new one), and only
 * where nothing would be lost: a path where nothing is, an empty file,
 * or an earlier output of ours in the same format; a symbolic link, a
 * directory, anything else, or a path named twice is refused before
 * anything is checked.
 */

struct output_target {
	enum output_format format;
	const char *path;	/* borrowed from argv */
};

struct output_list {
	struct output_target *v;
	size_t nr, alloc;
};
#define OUTPUT_LIST_INIT { NULL, 0, 0 }

/* The OPT_CALLBACK behind --output; opt->value is a struct output_list. */
int parse_opt_output(const struct parse_opt *opt, const char *arg);

#define OPT_OUTPUT(v) \
	OPT_CALLBACK_F(0, "output", (v), "<format>:<file>", "also write " \
		       "the json, sarif or junit format to <file> " \
		       "(atomically; only over an earlier such output)", \
		       OPT_REPEAT, parse_opt_output)

/* Is any target (or fmt, the format on stdout) in this format? */
int output_wants(const struct output_list *l, enum output_format stdout_fmt,
		 enum output_format format);

/* Refuse targets that would lose a file; -1 after printing why. */
int output_check(const struct output_list *l);

/*
 * Write text to every target in format; -1 after printing an error for
 * any that failed (the others are still written).
 */
int output_write(const struct output_list *l, enum output_format format,
		 const char *text, size_t len);

/*
 * The CI formats of an outcome: SARIF or JUnit into out (status is the
 * exit status, for SARIF's invocation).
 */
void output_format_outcome(struct strbuf *out, enum output_format format,
			   const struct outcome *o, int status);

/* Write the SARIF and JUnit targets (and stdout's, when one of them). */
int output_outcome(const struct output_list *l, enum output_format stdout_fmt,
		   const struct outcome *o, int status);

void output_list_release(struct output_list *l);

#endif
