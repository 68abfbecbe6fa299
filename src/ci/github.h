#ifndef GITHUB_H
#define GITHUB_H

#include <stddef.h>
#include "outcome.h"
#include "strbuf.h"

/*
 * GitHub Actions workflow commands and the job summary.
 *
 * GitHub shows at most 10 error and 10 warning annotations of a step
 * (and 50 of a job) and drops the rest silently; the runner also caps
 * a step summary at 1 MiB.  So every annotation carries a line, the
 * reports are grouped in the log (::group::), github_caps() says in the
 * log when annotations went past the cap, and the summary table lists
 * every report (bounded, with a count of the rows left out).
 */

#define GITHUB_ANNOTATION_CAP 10

struct github_log {
	size_t errors, warnings;	/* annotations printed */
};

/*
 * Append "::<level> file=F,line=N,title=T::message" and a newline to out
 * (level "error" or "warning"; a line of 0 is written as 1: an
 * annotation without one is shown on no line at all), every part
 * escaped, and count it in g.  github_annotate() prints it.
 */
void github_annotate_to(struct strbuf *out, struct github_log *g,
			const char *level, const char *file, long line,
			const char *title, const char *message);
void github_annotate(struct github_log *g, const char *level,
		     const char *file, long line, const char *title,
		     const char *message);

/* Append "::group::name" and "::endgroup::", each a line, to out. */
void github_group(struct strbuf *out, const char *name);
void github_endgroup(struct strbuf *out);

/* When more annotations were printed than GitHub keeps, say so. */
void github_caps(const struct github_log *g);

/* The job summary: rows of a markdown table, written at the end. */
struct github_summary {
	struct strbuf rows;
	size_t nr, left_out;
};
#define GITHUB_SUMMARY_INIT { STRBUF_INIT, 0, 0 }

/*
 * A row of cells (n of them); each is escaped for markdown.  Formatted
 * into a line (github_summary_format_row()) and added in its turn
 * (github_summary_add_row()), when a printer formats rows ahead.
 */
void github_summary_row(struct github_summary *s, const char *const *cells,
			size_t n);
void github_summary_format_row(struct strbuf *row, const char *const *cells,
			       size_t n);
void github_summary_add_row(struct github_summary *s, const struct strbuf *row);

/*
 * Append "### title", the line of counts, and the table (header cells)
 * to the file $GITHUB_STEP_SUMMARY names, when it is set.  Returns 0,
 * or -1 after printing an error.
 */
int github_summary_write(struct github_summary *s, const char *title,
			 const char *counts, const char *const *header,
			 size_t n);
void github_summary_release(struct github_summary *s);

/*
 * A whole outcome in this format (validate): a group per file with an
 * annotation per failure or warning, the caps note, and a summary table
 * with a row per file.
 */
int output_github(const struct outcome *o);

#endif
