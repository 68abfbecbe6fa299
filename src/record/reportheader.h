#ifndef REPORTHEADER_H
#define REPORTHEADER_H

#include <stddef.h>
#include "strbuf.h"

/*
 * The header of an eval report, read as the reference's backfill script
 * reads it: the same regular expressions, with JavaScript's semantics
 * (multi-line ^, \s including Unicode spaces and line breaks, lazy and
 * greedy quantifiers, first match wins).
 *
 *   # ahd (eval|eval-image|critique) · <token> · <runAt>
 *   - Brief: `<path>`
 *   - Samples per cell: **<n>**        (or the sum of every "(n=<k>)")
 *     - `<id>` (<provider>) · spec `<spec>`   (one per model)
 *   critic: `<id>`                     (critique reports without models)
 */

struct report_model {
	char *id;		/* the spec, as the reference records it */
	char *provider;
};

struct report_header {
	char *kind;		/* "eval-live", "eval-image", "critique" or NULL */
	char *token;
	char *run_at;
	char *brief;		/* NULL when there is no Brief line */
	int has_n;
	double n;
	struct report_model *models;
	size_t nr_models, alloc_models;
};

/* Parse text (valid UTF-8) into h, which the caller releases. */
void report_header_parse(struct report_header *h, const char *text,
			 size_t len);
void report_header_release(struct report_header *h);

#endif
