#ifndef JCSSCAN_H
#define JCSSCAN_H

#include <stddef.h>
#include "value.h"

/*
 * A fast path for JSON text that is already in RFC 8785 canonical form,
 * as each line of a well-kept event log is: one pass over the bytes that
 * both checks the form and builds the tree, where the full path parses
 * with jansson, converts, prints the canonical form again and compares.
 *
 * jcs_scan_object() returns 1 when text is a JSON object that
 * jsonload_ijson() accepts and canon_write(CANON_JCS) prints back byte
 * for byte.  It then stores in *out, allocated in arena, the tree that
 * jsonload_ijson() builds (the same kinds, strings, numbers, and members
 * in the same order), and in *spans, also in arena, where the text of the
 * value of each of the root's members lies in text: that text is the
 * value's canonical form.
 *
 * It returns 0 for any other text, and for some canonical text it leaves
 * to the full path (a key with an escape, nesting deeper than
 * JCS_SCAN_MAX_DEPTH): the caller then takes the full path, which
 * decides.  After 0, the arena may hold allocations of no use.
 */

#define JCS_SCAN_MAX_DEPTH 64

struct jcs_span {
	size_t off, len;
};

int jcs_scan_object(struct value **out, struct jcs_span **spans,
		    struct arena *arena, const char *text, size_t len);

#endif
