#ifndef JSONEDIT_H
#define JSONEDIT_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Editing a user's JSON file in place: where each value of the text
 * lies (struct jnode), and filling in a member that is absent or null
 * without touching any other byte (spacing, number spellings, escapes
 * and member order stay as the user's tool wrote them).  Backfill fills
 * a record's fields with it (layout-backfill.h).
 */

enum jnode_kind {
	JNODE_OBJECT,
	JNODE_ARRAY,
	JNODE_STRING,
	JNODE_NULL,
	JNODE_OTHER,		/* a number, true or false */
};

/* One value of the text, and where it lies. */
struct jnode {
	enum jnode_kind kind;
	size_t start, end;	/* the value's bytes: [start, end) */
	size_t key_start;	/* a member: its key's opening quote */
	size_t key_end;		/* ... and just past its closing quote */
	char *key;		/* a member's key, decoded; NULL in an array
				   (and for a key holding "\u0000") */
	struct jnode *kids;	/* an object's members, an array's items */
	size_t nr, alloc;
};
#define JNODE_INIT { JNODE_OTHER, 0, 0, 0, 0, NULL, NULL, 0, 0 }

/*
 * Where the values of text (len bytes of JSON, already checked to be
 * valid: jsonload_parse()) lie, into out (JNODE_INIT).  Returns 0, or -1
 * with a reason in err.  Release out either way.
 */
int jnode_parse(struct jnode *out, const char *text, size_t len,
		struct strbuf *err);
void jnode_release(struct jnode *n);

/*
 * The member of obj named key (the last one, as JSON.parse keeps the
 * last of a repeated key), or the item of an array at the index key
 * spells; NULL when there is none.
 */
const struct jnode *jnode_child(const struct jnode *n, const char *key);

/*
 * A string value decoded (a new string), or NULL when n is no string or
 * holds "\u0000".
 */
char *jnode_string(const struct jnode *n, const char *text);

/*
 * Fill the member that the nr reference tokens toks name (a JSON
 * Pointer's, unescaped) with the string value: when it is absent it
 * is added after the last member of its object, spaced as that one is
 * (objects missing on the way are added with it, on one line); when it
 * is null the null is replaced.  Returns 1 when text changed, 0 when the
 * member has a value (never overwritten), -1 with a reason in err when
 * it cannot be filled (the way leads through something that is no
 * object, or an array item that is not there).
 */
int jnode_fill(struct strbuf *text, char *const *toks, size_t nr,
	       const char *value, struct strbuf *err);

#endif
