#ifndef VERIFY_OUTCOME_H
#define VERIFY_OUTCOME_H

#include "ci/outcome.h"
#include "verify.h"

/*
 * A verified report as outcome cases (outcome.h): one per checked field
 * (token, brief), the signature when it was checked, the sidecar itself
 * when it could not be used or is missing, the markdown block when it
 * differs; one skipped case for a report --changed-since left out.
 * Failures are located at the sidecar's line holding the recorded hash
 * and fingerprinted by sidecar, field and recorded hash.
 */
void verify_outcome_add(struct outcome *o, const struct verify_report *r,
			const struct verify_options *opts);

#endif
