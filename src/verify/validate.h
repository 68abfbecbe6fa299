#ifndef VALIDATE_H
#define VALIDATE_H

#include "ci/outcome.h"
#include "json/jsonschema.h"
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

#endif
