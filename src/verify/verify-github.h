#ifndef VERIFY_GITHUB_H
#define VERIFY_GITHUB_H

#include "ci/github.h"
#include "verify.h"

/*
 * verify --format=github: a ::group:: per report holding its verdict and
 * an annotation per failure or warning, each with a line (the line of
 * the report, else of the sidecar, that holds the recorded hash; 1 when
 * there is none); a row of the job summary per report, with the
 * attributed commits.
 */
struct verify_github {
	struct github_log log;
	struct github_summary summary;
	int quiet;		/* no group for intact reports */
};
#define VERIFY_GITHUB_INIT { { 0, 0 }, GITHUB_SUMMARY_INIT, 0 }

/*
 * Append r's group (its verdict, annotations, notes) to out and its row
 * of the job summary to row: the printer prints the one and adds the
 * other (github_summary_add_row()) in the report's turn.
 */
void verify_github_report(struct verify_github *g,
			  const struct verify_report *r,
			  const struct verify_options *opts,
			  struct strbuf *out, struct strbuf *row);

/*
 * After the last report: the caps note, and the job summary (counts is
 * the summary line) when GITHUB_STEP_SUMMARY is set.  Returns 0, or -1
 * after printing an error.
 */
int verify_github_finish(struct verify_github *g, const char *counts);

#endif
