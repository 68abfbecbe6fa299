/*
 * Empty implicit keys for the libyaml workaround layer.
 *
 * yaml@2.8.3 reads a ':' with nothing before it as the value of an empty
 * (null) key: ": v", "- : v", "? : v", "{: v}", "[a, : b]".  libyaml:
 * a ':' with no key, other than the value of a pending "?" key, is
 * refused ("did not find expected key") or misread.  It gets a one-byte
 * plain key inserted before the ':', on the ':''s column.  An inserted
 * byte maps back to the offset it was put before (yamlfix.h), so the
 * key's source is empty and the loader reads it as the null it is.
 */
#include "config.h"
#include "yamlfix-lex.h"
#include "yamlload.h"
#include "usage.h"

#include <stdint.h>
#include <string.h>

#define EMPTY_KEY 'x'
#define LONG_FLOW_KEY 1000	/* bytes: fewer than 1024 characters */

static long column(const struct lexer *lx)
{
	return (long)(lx->pos - lx->line_start);
}

/* Forget the "?" keys of block mappings that ended before column col. */
static void pop_from(struct lexer *lx, long col)
{
	while (lx->nr_qcols && lx->qcols[lx->nr_qcols - 1] >= col)
		lx->nr_qcols--;
	if (lx->qcols_inner > lx->nr_qcols)
		lx->qcols_inner = lx->nr_qcols;
}

/* A mapping indicator: the "?" keys open hold a mapping now. */
static void mark_inner(struct lexer *lx)
{
	lx->qcols_inner = lx->nr_qcols;
}

/*
 * libyaml gets the ':' first on its line at column col moved left to
 * column to, where yaml's parser attaches it.
 */
static void move_left(struct lexer *lx, long col, long to)
{
	size_t i = lx->pos + 1;

	/*
	 * A block scalar after it takes its indentation from the ':' line
	 * in yaml and from the moved ':' in libyaml: the two read different
	 * content (yaml may even refuse the lines that follow).
	 */
	while (i < lx->n && (lx->s[i] == ' ' || lx->s[i] == '\t'))
		i++;
	if (i < lx->n && (lx->s[i] == '|' || lx->s[i] == '>')) {
		yl_lx_fail(lx, LOAD_EUNSUPPORTED, lx->pos, "a block scalar "
			   "after a ':' right of its mapping's column");
		return;
	}
	yl_fix_add_edit(lx->fx, lx->line_start, (size_t)(col - to), "", 0);
}

/*
 * A ':' first on its line at column col.  yaml's parser attaches it to
 * the innermost block mapping at or left of it: the value of a "?" key
 * waiting on that column, or else a pair with an empty key.  Further
 * right than the mapping, it is still the value of a "?" key waiting
 * there (unless a mapping opened inside the key), and after a pair whose
 * value came on its line, a new pair of that mapping; libyaml gets such a
 * ':' moved onto the mapping's column.  A ':' left of the last pair and
 * right of no open "?" is left to libyaml's indentation.
 */
static void line_colon(struct lexer *lx, long col)
{
	long pair = lx->pair_col, q;
	int open = lx->pair_open;

	pop_from(lx, col + 1);
	q = lx->nr_qcols ? lx->qcols[lx->nr_qcols - 1] : -1;
	lx->pair_open = 1;
	lx->pair_col = col;
	if (q == col) {
		pop_from(lx, col);	/* the value of "? key" */
	} else if (q >= 0) {
		lx->pair_col = -1;
		if (lx->qcols_inner == lx->nr_qcols)
			return;		/* a mapping opened inside the key */
		move_left(lx, col, q);
		lx->pair_col = q;
		pop_from(lx, q);
	} else if (pair >= 0 && pair < col && !open) {
		move_left(lx, col, pair);
		lx->pair_col = pair;
		yl_fix_add_ins(lx->fx, lx->pos, EMPTY_KEY);
	} else {
		yl_fix_add_ins(lx->fx, lx->pos, EMPTY_KEY);
	}
}

/*
 * A block indicator c at lx->pos, the first on its line when prev is 0,
 * else after the indicator prev on the same line.  "?" opens a key whose
 * ':' may come on a later line, after the key's content: lines further
 * right, and "- " on the "?"'s own column (a sequence needs no
 * indentation there).  A ':' after "- " or "? " on its line starts a
 * mapping there, with an empty key.  The ':' after another ':' on one
 * line is a compact nested mapping, which both refuse.
 */
void yl_lx_block_indicator(struct lexer *lx, int c, int prev)
{
	long col = column(lx);

	if (c == ':' && !prev) {
		line_colon(lx, col);
		return;
	}
	mark_inner(lx);
	lx->pair_col = -1;
	if (c == ':') {
		if (prev != ':')
			yl_fix_add_ins(lx->fx, lx->pos, EMPTY_KEY);
		lx->pair_col = col;
		lx->pair_open = 1;
		return;
	}
	pop_from(lx, c == '-' ? col + 1 : col);
	if (c == '?') {
		ALLOC_GROW(lx->qcols, lx->nr_qcols + 1, lx->qcols_alloc);
		lx->qcols[lx->nr_qcols++] = col;
	}
}

/*
 * Content at lx->pos after the line-start indicators of a block line,
 * the last of them prev (0 for none): a new node, or the value of a ':'.
 */
void yl_lx_block_content(struct lexer *lx, int prev)
{
	size_t i = lx->pos;

	while (i < lx->n && (lx->s[i] == ' ' || lx->s[i] == '\t'))
		i++;
	if (i >= lx->n || strchr("#\r\n", lx->s[i]))
		return;
	lx->content_col = (long)(i - lx->line_start);
	if (prev == ':') {
		lx->pair_open = 0;
		return;
	}
	pop_from(lx, lx->content_col);
	lx->pair_col = -1;
}

/* A ':' after the first node of a block line: that node is a key. */
void yl_lx_block_pair(struct lexer *lx)
{
	mark_inner(lx);
	lx->pair_col = lx->content_col;
	lx->pair_open = 1;
}

/* A document marker: no block mapping goes on. */
void yl_lx_block_reset(struct lexer *lx)
{
	lx->nr_qcols = 0;
	lx->pair_col = -1;
}

/*
 * A value indicator ':' at lx->pos in a flow collection.  Its key is
 * empty when nothing came since the '[', '{', ',' or '?' before it
 * (properties count: libyaml reads "&a :" as it should).
 */
void yl_lx_flow_colon(struct lexer *lx)
{
	if (lx->flow_entry == FLOW_ENTRY_EMPTY)
		yl_fix_add_ins(lx->fx, lx->pos, EMPTY_KEY);
	else if (lx->flow_entry == FLOW_ENTRY_KEY && !lx->flow_q &&
		 lx->kinds[lx->flow_level - 1] == '{' &&
		 lx->key_start == lx->entry_at &&
		 lx->pos - lx->entry_at > LONG_FLOW_KEY) {
		/*
		 * libyaml: an implicit key ends 1024 characters after its
		 * start; yaml has no limit in a flow mapping.  A scalar key
		 * gets "? " before it, which makes it explicit.
		 */
		yl_fix_add_ins(lx->fx, lx->entry_at, '?');
		yl_fix_add_ins(lx->fx, lx->entry_at, ' ');
	} else if (lx->flow_entry == FLOW_ENTRY_KEY &&
		   lx->coll_key_at != SIZE_MAX &&
		   (memchr(lx->s + lx->coll_key_at, '\n',
			   lx->pos - lx->coll_key_at) ||
		    lx->pos - lx->coll_key_at > LONG_FLOW_KEY)) {
		/*
		 * libyaml: a flow collection as an implicit key must have
		 * its ':' on the line it starts on; yaml takes it on any
		 * later line.  "? " before it makes it explicit.
		 */
		yl_fix_add_ins(lx->fx, lx->coll_key_at, '?');
		yl_fix_add_ins(lx->fx, lx->coll_key_at, ' ');
	}
	lx->coll_key_at = SIZE_MAX;
	lx->flow_last = FLOW_LAST_OTHER;
	lx->flow_entry = FLOW_ENTRY_VALUE;
}

/* The column of the first character of the line at i that is not a space. */
static size_t line_indent(const struct lexer *lx, size_t i, size_t *at)
{
	size_t k = i;

	while (k < lx->n && lx->s[k] == ' ')
		k++;
	*at = k;
	return k - i;
}

/*
 * A block scalar from `header` to `end` is the key of "? " on its line.
 * yaml's parser drops a node that follows such a key on a line of its
 * own, right of the "?" (the pair keeps a null value; a ':' after that
 * starts a pair with an empty key).  That is reproduced for one plain
 * scalar on one line, followed by a line no further right than the "?":
 * libyaml gets blanks in its place, and the "?" no longer waits for its
 * ':'.
 */
void yl_lx_block_key_end(struct lexer *lx, size_t header, size_t end)
{
	size_t k = header, b, e, i, q;
	long col;

	while (k > lx->line_start && lx->s[k - 1] == ' ')
		k--;
	if (k == lx->line_start || lx->s[k - 1] != '?' || !lx->nr_qcols)
		return;
	col = (long)(k - 1 - lx->line_start);
	if (lx->qcols[lx->nr_qcols - 1] != col)
		return;
	while (end < lx->n && line_indent(lx, end, &b) < lx->n - end &&
	       (lx->s[b] == '\n' || (lx->s[b] == '\r' && b + 1 < lx->n &&
				     lx->s[b + 1] == '\n')))
		end = b + 1 + (lx->s[b] == '\r');
	if (end >= lx->n || (long)line_indent(lx, end, &b) <= col || b >= lx->n ||
	    !((lx->s[b] | 0x20) >= 'a' && (lx->s[b] | 0x20) <= 'z'))
		return;
	for (e = b; e < lx->n && lx->s[e] != '\n' && lx->s[e] != '\r'; e++) {
		if (lx->s[e] == '#' && lx->s[e - 1] == ' ')
			break;
		if (lx->s[e] == '\t' || (lx->s[e] == ':' &&
		    (e + 1 == lx->n || strchr(" \r\n", lx->s[e + 1]))))
			return;
	}
	/* Blank and comment lines, then a line no further right. */
	for (i = e;;) {
		const unsigned char *nl = memchr(lx->s + i, '\n', lx->n - i);

		if (!nl)
			break;
		i = (size_t)(nl - lx->s) + 1;
		if ((long)line_indent(lx, i, &q) <= col)
			break;
		if (q < lx->n && !strchr("#\r\n", lx->s[q]))
			return;
	}
	while (e > b && lx->s[e - 1] == ' ')
		e--;
	for (i = b; i < e; i++)
		yl_fix_add_edit(lx->fx, i, 1, " ", 0);
	pop_from(lx, col);
}
