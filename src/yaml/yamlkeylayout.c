/*
 * The layout of a collection key that yaml's printer shows: blank lines
 * before a node (spaceBefore) and comments (commentBefore, and comment
 * after a node on its line).  yaml's composer takes them from the tokens
 * between nodes (resolveProps(), resolveEnd()); this walks the key's text
 * between the noted nodes and marks them as yaml would, for the printer
 * (yamlkey.c).  What it cannot place the way yaml does is refused.
 */
#include "config.h"
#include "yamlkey.h"

#include <stdint.h>
#include <string.h>

/*
 * The scan.  `before` and `after` hold whether blank lines came before
 * or after the last indicator crossed (`since`); the next node gets
 * spaceBefore from them:
 *  - after a ',' only (earlier ones went to the item before), and after
 *    a '[' or '{';
 *  - before or after a '?', before a '-' (yaml drops those after a
 *    '-'), or with no indicator (a block map's next key);
 *  - before or after a ':' they go to the value, which yaml prints on
 *    a line of its own: refused.
 * Comment lines (cb_*) go to the next item of a block collection as its
 * commentBefore, blank lines after the first of them into its text; a
 * comment after a scalar item or value on its line is that node's.
 */
struct scan {
	const char *text;
	size_t i, e, n;		/* position, end, next note */
	int at_nl, before, after, since;
	int flow;		/* open flow collections */
	size_t line;		/* where the current line starts */
	int first;		/* nothing on the current line yet */
	long item_col;		/* column of the last item's first token */
	struct ykey_node *prev;	/* a scalar item or value on this line */
	size_t cb_begin, cb_end;	/* comment lines waiting for a node */
	long cb_col;		/* the rightmost of them */
	unsigned cb_trail;	/* blank lines after them */
	int cb_ok;		/* their place checked, at an indicator */
};

/*
 * After a block scalar: yaml's lexer ends its token at its last line of
 * content, then takes back from the end the lines of no more spaces than
 * its first line of content is indented; those (unless the chomping
 * keeps them) are line breaks of their own, blank lines before what
 * follows.  The scan goes on at the next line with content.  An empty
 * scalar, or a tab in those lines, is refused.
 */
static int block_scalar_end(struct scan *sc, const struct ykey_node *n)
{
	const char *t = sc->text;
	size_t i = n->src_begin + 1, q = n->src_end, r, k, ind = 0;
	int keep = 0, dropped = 0;

	while (i < n->src_end && strchr("+-0123456789", t[i]))
		keep |= t[i++] == '+';
	while (i < sc->e && t[i] != '\n')
		if (t[i++] == '#')
			return -1;	/* a comment on the header line */
	for (k = i + 1; k < sc->e; k++) {
		if (t[k] == '\n')
			ind = 0;
		else if (t[k] == ' ')
			ind++;
		else if (t[k] != '\r')
			break;
	}
	if (k < sc->e && t[k] == '\t')
		return -1;
	while (q > n->src_begin && strchr(" \t\r\n", t[q - 1]))
		q--;
	if (q <= i)
		return -1;		/* no content */
	while (q < sc->e && t[q] != '\n')
		q++;			/* the end of the last line of content */
	for (r = q; r < sc->e && strchr(" \t\r\n", t[r]); r++)
		;
	while (r > q + 1 && t[r - 1] != '\n')
		r--;			/* the next line with content starts */
	sc->i = sc->line = r;
	sc->at_nl = sc->first = 1;
	for (k = r; !keep && k > q + 1; k = i) {
		size_t spaces = 0;

		for (i = k - 1; i > q + 1 && t[i - 1] != '\n'; i--)
			;		/* the line [i, k - 1) */
		for (r = i; r < k - 1; r++) {
			if (t[r] == '\t')
				return -1;
			spaces += t[r] == ' ';
		}
		if (spaces > ind)
			break;
		dropped = 1;
	}
	if (dropped)
		sc->before = 1;
	return 0;
}

/* The next note at the scan's position (empty scalars passed over). */
static struct ykey_node *note_here(struct ykeys *k, struct scan *sc,
				   int *refuse)
{
	while (sc->n < k->nr) {
		struct ykey_node *n = &k->nodes[sc->n];
		int empty = n->style != YKEY_COLLECTION &&
			    n->src_begin == n->src_end;

		if (n->src_begin > sc->i)
			return NULL;
		if (!empty && n->src_begin < sc->i) {
			*refuse = 1;	/* a node the scan did not see start */
			return NULL;
		}
		sc->n++;
		if (!empty)
			return n;
		/*
		 * An empty node's place is not its own: libyaml marks it
		 * where the next token is.  A map value with no ':' takes
		 * no blank lines or comments; another empty node might.
		 */
		if ((sc->before || sc->after || sc->cb_begin != SIZE_MAX) &&
		    !n->absent)
			*refuse = 1;
	}
	return NULL;
}

/*
 * A token of the key's own layout (a node or an indicator) starts at the
 * scan's position: comment lines before it go to the item it starts, if
 * it starts the next item of the same block collection, left of or at
 * its column.  Returns 1 to refuse.
 */
static int token_start(struct scan *sc, char c)
{
	long col = (long)(sc->i - sc->line);

	if (sc->first)
		sc->prev = NULL;
	if (sc->cb_begin != SIZE_MAX && !sc->cb_ok) {
		if (!sc->first || c == ':' || c == ',' || sc->cb_col > col ||
		    col != sc->item_col)
			return 1;
		sc->cb_ok = 1;	/* an indicator: the node after it takes them */
	}
	if (sc->first && c != ':')
		sc->item_col = col;
	sc->first = 0;
	return 0;
}

static void take_comment(struct scan *sc, struct ykey_node *n)
{
	n->cb_begin = sc->cb_begin;
	n->cb_end = sc->cb_end;
	n->cb_trail = sc->cb_trail;
	sc->cb_begin = SIZE_MAX;
	sc->cb_ok = 0;
}

/*
 * A node starts at the scan's position: give it the blank lines and
 * comment lines.  next is the note after it, or NULL.
 */
static int node_start(struct scan *sc, struct ykey_node *n,
		      const struct ykey_node *next)
{
	int props, blank = sc->since == '-' ? sc->before :
			   sc->before || sc->after;
	int role = sc->since;

	if ((sc->since == ':' && (sc->before || sc->after)) ||
	    ((blank || sc->cb_begin != SIZE_MAX) && n->pair) ||
	    token_start(sc, 0))
		return 1;
	n->space_before = blank;
	if (sc->cb_begin != SIZE_MAX)
		take_comment(sc, n);
	sc->before = sc->after = sc->since = sc->at_nl = 0;
	if (n->style == YKEY_BLOCK || n->style == YKEY_FOLDED)
		return block_scalar_end(sc, n) != 0;
	if (n->style != YKEY_COLLECTION) {
		sc->i = n->src_end;
		/* a comment after it on its line is its own */
		sc->prev = !sc->flow && (role == '-' || role == ':') ? n : NULL;
		return 0;
	}
	/*
	 * A flow sequence's pair is a map that starts where its key does
	 * (libyaml does not always tell it from a flow map as a key).
	 */
	if (n->pair || (next && next->style == YKEY_COLLECTION &&
			next->src_begin == n->src_begin))
		return 0;
	/* a collection: past its own properties, into a flow one */
	for (props = !!n->anchor + !!n->tag; props && sc->i < sc->e &&
	     (sc->text[sc->i] == '&' || sc->text[sc->i] == '!'); props--) {
		while (sc->i < sc->e && !strchr(" \t\r\n", sc->text[sc->i]))
			sc->i++;
		while (sc->i < sc->e && strchr(" \t", sc->text[sc->i]))
			sc->i++;
	}
	if (sc->i < sc->e && (sc->text[sc->i] == '[' ||
			      sc->text[sc->i] == '{')) {
		sc->i++;
		sc->since = '[';
		sc->flow++;
	}
	return 0;
}

/* A '#' at the scan's position: the comment runs to the line's end. */
static int comment_at(struct scan *sc)
{
	const char *t = sc->text;
	size_t end = sc->i;
	long col = (long)(sc->i - sc->line);

	while (end < sc->e && t[end] != '\n')
		end++;
	if (sc->flow)
		return 1;	/* yaml moves those between items */
	if (!sc->first) {
		/* after a scalar item or value, nothing else between */
		if (!sc->prev || sc->since || sc->prev->c_end)
			return 1;
		sc->prev->c_begin = sc->i + 1;
		sc->prev->c_end = end;
	} else {
		/* after an indicator: the node to come, or an empty one */
		if (sc->since)
			return 1;
		if (sc->cb_begin == SIZE_MAX) {
			sc->cb_begin = sc->i;
			sc->cb_col = col;
			sc->cb_trail = 0;
		} else if (sc->cb_trail) {
			return 1;	/* blank lines between comments */
		}
		if (col > sc->cb_col)
			sc->cb_col = col;
		sc->cb_end = end;
	}
	sc->i = end;
	sc->at_nl = 0;
	return 0;
}

/* A line break at the scan's position. */
static void line_break(struct scan *sc)
{
	if (sc->at_nl && sc->cb_begin != SIZE_MAX)
		sc->cb_trail++;
	else if (sc->at_nl)
		*(sc->since ? &sc->after : &sc->before) = 1;
	sc->at_nl = sc->first = 1;
	sc->line = sc->i + 1;
}

/* An indicator, a closing bracket or an alias: 0, or 1 to refuse. */
static int other_token(struct scan *sc, char c)
{
	const char *t = sc->text;

	if (strchr("-?:,", c)) {
		if ((sc->since && (sc->before || sc->after)) ||
		    token_start(sc, c))
			return 1;
		sc->before = c != ',' && (sc->before || sc->after);
		sc->after = sc->at_nl = 0;
		sc->since = c;
	} else if (c == ']' || c == '}') {
		if (sc->cb_begin != SIZE_MAX || !sc->flow)
			return 1;
		sc->flow--;
		sc->first = 0;
		sc->prev = NULL;
		sc->before = sc->after = sc->since = sc->at_nl = 0;
	} else if (c == '*') {
		/* an alias: no note to give blank lines or comments to */
		if (sc->before || sc->after || token_start(sc, c) ||
		    sc->cb_begin != SIZE_MAX)
			return 1;
		while (sc->i + 1 < sc->e && !strchr(" \t\r\n,[]{}", t[sc->i + 1]))
			sc->i++;
		sc->prev = NULL;
		sc->since = sc->at_nl = 0;
	} else if (!strchr(" \t\r", c))
		return 1;	/* nothing this scan knows */
	return 0;
}

int ykeys_layout(struct ykeys *k, const char *text, size_t b, size_t e)
{
	struct scan sc;
	int refuse = 0;

	memset(&sc, 0, sizeof(sc));
	sc.text = text;
	sc.i = b;
	sc.e = e;
	/* the key's first item: at its column, maybe after "? " or "- " */
	for (sc.line = b; sc.line > 0 && text[sc.line - 1] != '\n'; sc.line--)
		;
	sc.item_col = (long)(b - sc.line);
	sc.first = strspn(text + sc.line, " ") == b - sc.line;
	sc.cb_begin = SIZE_MAX;
	while (sc.i < e) {
		struct ykey_node *n = note_here(k, &sc, &refuse);
		char c = text[sc.i];

		if (refuse)
			return 1;
		if (n) {
			if (node_start(&sc, n, sc.n < k->nr ?
				       &k->nodes[sc.n] : NULL))
				return 1;
			continue;
		}
		if (c == '#') {
			if (comment_at(&sc))
				return 1;
			continue;
		}
		if (c == '\n')
			line_break(&sc);
		else if (other_token(&sc, c))
			return 1;
		sc.i++;
	}
	/*
	 * Comment lines after the key's last node belong to a collection,
	 * which yaml does not print; further right than its items they
	 * would go on the comment of the last.
	 */
	return sc.cb_begin != SIZE_MAX && sc.cb_col > sc.item_col;
}
