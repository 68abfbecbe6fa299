#ifndef SUGGEST_H
#define SUGGEST_H

#include <stddef.h>

struct strbuf;

/*
 * "Did you mean ...?" for a mistyped command or option name: the names
 * of a list that are closest to what the user typed, as git's
 * help_unknown_cmd() offers them (the code is ours).
 *
 * Two names are close when one edit distance apart in proportion to the
 * word's length (a transposed pair counts as one edit), or when the word
 * is the beginning of the name ("inst" for "install-hooks").  Only the
 * closest names are kept, at most SUGGEST_MAX of them, in the order
 * considered.
 */

#define SUGGEST_MAX 3

struct suggest {
	const char *word;		/* borrowed */
	size_t best;			/* distance of the names kept */
	const char *names[SUGGEST_MAX];	/* borrowed */
	size_t nr;
};

void suggest_init(struct suggest *s, const char *word);

/* Weigh one candidate; name is borrowed until suggest_format(). */
void suggest_consider(struct suggest *s, const char *name);

/*
 * Append "'a'", "'a' or 'b'" or "one of 'a', 'b', 'c'" to out, each name
 * with prefix before it ("--" for options).  Returns the number of names
 * appended (0: nothing close, out unchanged).
 */
size_t suggest_format(const struct suggest *s, struct strbuf *out,
		      const char *prefix);

/*
 * The optimal string alignment distance between a and b (insertions,
 * deletions, substitutions and swaps of adjacent bytes each cost 1),
 * capped at SUGGEST_FAR: past that, names are not alike.
 */
#define SUGGEST_FAR 64
size_t suggest_distance(const char *a, const char *b);

#endif
