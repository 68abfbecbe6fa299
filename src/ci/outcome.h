#ifndef OUTCOME_H
#define OUTCOME_H

#include <stddef.h>
#include "strbuf.h"

/*
 * What a run of verify, validate or log verify found, in the shape the
 * CI formats want: test cases (JUnit: one per report and checked field)
 * of which the failing ones are findings (SARIF: one result each, with a
 * rule, a location and a fingerprint).  The commands fill one in; the
 * writers (sarif.h, junit.h) print it.
 */

enum outcome_status {
	OUTCOME_PASS,
	OUTCOME_FAIL,		/* a "no": drift, a violation */
	OUTCOME_ERROR,		/* cannot tell */
	OUTCOME_SKIPPED,	/* not checked (verify --changed-since) */
	OUTCOME_WARNING,	/* passes, with a finding of level warning */
};

struct outcome_case {
	char *group;		/* the report or file: JUnit's classname */
	char *name;		/* the check: "token", "sidecar", a rule */
	enum outcome_status status;
	const char *rule;	/* a rule id (static storage) unless passed */
	char *message;		/* why, unless passed */
	char *file;		/* where, as shown; NULL: group */
	long line;		/* 1-based; 0: the whole file */
	char *fingerprint;	/* stable across commits; NULL: none */
};

struct outcome {
	const char *command;	/* "verify", "validate", "log verify" */
	struct outcome_case *v;
	size_t nr, alloc;
	/*
	 * Keep only the cases SARIF shows (failures and warnings): a run
	 * over many reports that writes no JUnit need not hold its passes.
	 */
	int failures_only;
	struct outcome_case scratch;	/* a dropped case, until the next */
};
#define OUTCOME_INIT(command) { (command), NULL, 0, 0, 0, \
	{ NULL, NULL, OUTCOME_PASS, NULL, NULL, NULL, 0, NULL } }

/*
 * Add a case; strings are copied (NULL stays NULL).  Returns it, for
 * the optional fields (with failures_only, a passed or skipped case is
 * not kept: what is returned is scratch, valid until the next call).
 */
struct outcome_case *outcome_add(struct outcome *o, const char *group,
				 const char *name, enum outcome_status status,
				 const char *rule, const char *message);
void outcome_set_location(struct outcome_case *c, const char *file,
			  long line);

/*
 * A fingerprint from parts that identify a finding whatever the commit
 * (a sidecar's path, the field, the recorded hash): their SHA-256, hex.
 */
void outcome_set_fingerprint(struct outcome_case *c, const char *const *parts,
			     size_t n);

void outcome_release(struct outcome *o);

/*
 * The 1-based line of the first occurrence of needle in the file at
 * path, after the first occurrence of after when given (a key that
 * precedes it); 0 when the file cannot be read or has none.
 */
long outcome_line_of(const char *path, const char *after, const char *needle);

#endif
