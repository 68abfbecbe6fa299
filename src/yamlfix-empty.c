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
#include "usage.h"

#include <stdint.h>
#include <string.h>

#define EMPTY_KEY 'x'

static long column(const struct lexer *lx)
{
	return (long)(lx->pos - lx->line_start);
}

/* Forget the "?" keys of block mappings that ended before column col. */
static void pop_from(struct lexer *lx, long col)
{
	while (lx->nr_qcols && lx->qcols[lx->nr_qcols - 1] >= col)
		lx->nr_qcols--;
}

/*
 * A block indicator c at lx->pos, the first on its line when prev is 0,
 * else after the indicator prev on the same line.  "?" opens a key whose
 * ':' may come on a later line, after the key's content: lines further
 * right, and "- " on the "?"'s own column (a sequence needs no
 * indentation there).  A ':' first on its line and further right than a
 * "?" still open may be that key's value for yaml, or an empty key inside
 * the key's content: libyaml gets it as it is, and refuses it.  The ':'
 * after another ':' on one line is a compact nested mapping, which both
 * refuse.
 */
void yl_lx_block_indicator(struct lexer *lx, int c, int prev)
{
	long col = column(lx);

	if (c != ':') {
		pop_from(lx, c == '-' ? col + 1 : col);
		if (c == '?') {
			ALLOC_GROW(lx->qcols, lx->nr_qcols + 1, lx->qcols_alloc);
			lx->qcols[lx->nr_qcols++] = col;
		}
		return;
	}
	pop_from(lx, col + 1);
	if (lx->nr_qcols && lx->qcols[lx->nr_qcols - 1] == col) {
		lx->nr_qcols--;		/* the value of "? key" */
		return;
	}
	if (prev == '-' || prev == '?' || (!prev && !lx->nr_qcols))
		yl_fix_add_ins(lx->fx, lx->pos, EMPTY_KEY);
}

/* Content at lx->pos after the line-start indicators of a block line. */
void yl_lx_block_content(struct lexer *lx)
{
	size_t i = lx->pos;

	while (i < lx->n && (lx->s[i] == ' ' || lx->s[i] == '\t'))
		i++;
	if (i >= lx->n || strchr("#\r\n", lx->s[i]))
		return;
	pop_from(lx, (long)(i - lx->line_start));
}

/* A document marker: no block mapping goes on. */
void yl_lx_block_reset(struct lexer *lx)
{
	lx->nr_qcols = 0;
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
	lx->flow_entry = FLOW_ENTRY_VALUE;
}
