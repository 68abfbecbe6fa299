#ifndef VALIDATE_H
#define VALIDATE_H

#include "ci/outcome.h"
#include "config/rcfile.h"
#include "json/jsonschema.h"
#include "record/layout-list.h"
#include "strbuf.h"

/*
 * `validate`: a sidecar checked strictly against the replay JSON Schema,
 * every violation named by its JSON Pointer.  The sidecar is read as
 * JSON.parse reads it, from inside its root as verify reads it, and a
 * schema_version newer than ours says so.
 */

struct validation {
	struct strbuf path;	/* the sidecar checked */
	int checked;		/* read and validated; else error says why */
	struct strbuf error;
	struct jsonschema_errors errs;	/* the violations */
	int valid;
};
#define VALIDATION_INIT { STRBUF_INIT, 0, STRBUF_INIT, \
			  JSONSCHEMA_ERRORS_INIT, 0 }

/*
 * Validate the sidecar arg names (a .replay.json file, "-" for standard
 * input, or a report X.md for X.replay.json) against schema, into v
 * (VALIDATION_INIT; release it with validation_release()).
 */
void validation_check(struct validation *v, const struct jsonschema *schema,
		      const char *arg, int allow_outside);
void validation_release(struct validation *v);

/*
 * v as outcome cases (outcome.h): a pass, one failure per violation
 * (located at the line of its key, fingerprinted by file, pointer and
 * message), or an error when the file was unusable.
 */
void validation_outcome(struct outcome *o, const struct validation *v);

/*
 * The records of the repository's layouts (.ahd-replay.yml), each
 * checked against its layout's schema: the operands that are records
 * (and the records under a directory operand), or every record of a
 * layout with a schema when there are no operands.  A schema is read
 * beneath the top, as config check demands, and loaded once.
 */
struct record_validation {
	struct rcfile rc;
	struct layout_list list;
	struct jsonschema **schemas;	/* per layout: loaded, or NULL */
	struct strbuf *why;	/* per layout: why it has none */
	int *tried;
};
#define RECORD_VALIDATION_INIT { RCFILE_INIT, LAYOUT_LIST_INIT, NULL, \
				 NULL, NULL }

/*
 * Read the file of the repository around the current directory (of
 * root when given) and take the records out of argv (*argc updated;
 * directory operands searched are taken out too).  Returns 0, or -1
 * after printing why the file is malformed or a directory could not be
 * searched.
 */
int record_validation_collect(struct record_validation *rv,
			      const char *root, int *argc, char **argv);

/*
 * Validate record i of rv->list against its layout's schema, into v
 * (VALIDATION_INIT): unchecked, with the reason, when the layout names
 * no schema or it cannot be loaded.
 */
void record_validation_check(struct validation *v,
			     struct record_validation *rv, size_t i,
			     int allow_outside);
void record_validation_release(struct record_validation *rv);

#endif
