#ifndef EXPLAIN_H
#define EXPLAIN_H

#include <stddef.h>
#include "strbuf.h"
#include "json/jval.h"

/*
 * verify --explain: what changed in a drifted input between the version
 * that had the recorded hash and today's.  A structured input (a token,
 * a brief recorded by its structured hash) is compared as the canonical
 * values that were hashed, change by change, each named by its JSON
 * Pointer (RFC 6901); a brief recorded by its raw hash (markdown) is
 * compared as text, in a unified diff as git computes it (git/linediff.h).
 * Both are bounded: past the limits, only a count of the rest.
 */

/* At most this many changes, or lines of a diff, are shown. */
#define EXPLAIN_MAX_CHANGES 20
#define EXPLAIN_MAX_DIFF_LINES 60

enum explain_op { EXPLAIN_CHANGED, EXPLAIN_ADDED, EXPLAIN_REMOVED };

struct explain_change {
	enum explain_op op;
	char *path;		/* JSON Pointer */
	char *old, *new;	/* compact JSON of the values; NULL: none */
};

struct explanation {
	enum { EXPLAIN_NONE, EXPLAIN_STRUCTURED, EXPLAIN_TEXT } kind;
	char from[16];		/* the commit of the old version, 12 hex */
	struct explain_change *v;
	size_t nr, alloc;
	size_t more;		/* changes, or diff lines, not shown */
	struct strbuf diff;	/* EXPLAIN_TEXT: the unified diff shown */
	struct strbuf why;	/* EXPLAIN_NONE: why there is no explanation */
};

void explanation_init(struct explanation *e);
void explanation_release(struct explanation *e);

/*
 * Compare old (the version with the recorded hash, from commit from)
 * with new (today's), both as read (UTF-8 repaired), for the path shown
 * as name.  raw: the recorded hash is of the bytes (compare text).
 */
void explain_compare(struct explanation *e, const char *from,
		     const char *old, size_t old_len, const char *new,
		     size_t new_len, int raw, const char *name);

/* The explanation for the text output, each line indented by indent. */
void explain_print(struct strbuf *out, const struct explanation *e,
		   const char *indent);

/* The explanation as JSON, for --format=json. */
struct jval *explain_json(const struct explanation *e);

#endif
