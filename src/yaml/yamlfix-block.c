/*
 * Block scalars for the libyaml workaround layer: where yaml's lexer
 * ends them, and what libyaml gets in their place where it would read
 * them differently.
 */
#include "config.h"
#include "yamlfix-lex.h"

#include <stdint.h>
#include <string.h>

void yl_lx_block_header(struct lexer *lx)
{
	size_t i = lx->pos;
	int c;

	lx->bs_indent = -1;
	lx->bs_keep = 0;
	for (;;) {
		c = ch(lx, ++i);
		if (c == '+')
			lx->bs_keep = 1;
		else if (c > '0' && c <= '9')
			lx->bs_indent = c - '1';
		else if (c != '-')
			break;
	}
	while (!is_empty(c = ch(lx, lx->pos)) && c != '#')
		lx->pos++;
}

static int chs(const struct lexer *lx, long i)
{
	return i < 0 ? -1 : ch(lx, (size_t)i);
}

int yl_lx_block(struct lexer *lx, size_t header)
{
	size_t start = lx->pos, i, end;
	long nl = (long)start - 1, indent = 0, root = lx->indent_next == 0;
	int c = -1;

	for (i = start; i < lx->n; i++) {
		c = lx->s[i];
		if (c == ' ')
			indent++;
		else if (c == '\n') {
			nl = (long)i;
			indent = 0;
		} else if (!(c == '\r' && ch(lx, i + 1) == '\n'))
			break;
	}
	if (indent >= lx->indent_next) {
		size_t cs, f;

		if (lx->bs_indent == -1)
			lx->indent_next = indent;
		else
			lx->indent_next = lx->bs_indent +
				(lx->indent_next == 0 ? 1 : lx->indent_next);
		do {
			cs = yl_lx_continue_scalar(lx, (size_t)(nl + 1));
			if (cs == SIZE_MAX)
				break;
			f = yl_lx_find(lx, '\n', cs, lx->n);
			nl = f == SIZE_MAX ? -1 : (long)f;
		} while (nl != -1);
		if (nl == -1)
			nl = (long)lx->n;
	}
	i = (size_t)nl + 1;
	while ((c = ch(lx, i)) == ' ')
		i++;
	if (c == '\t') {
		while ((c = ch(lx, i)) == '\t' || c == ' ' || c == '\r' || c == '\n')
			i++;
		nl = (long)i - 1;
	} else if (!lx->bs_keep) {
		for (;;) {
			long j = nl - 1, last;

			c = chs(lx, j);
			if (c == '\r')
				c = chs(lx, --j);
			last = j;
			while (c == ' ')
				c = chs(lx, --j);
			if (c == '\n' && j >= (long)start && j + 1 + indent > last)
				nl = j;
			else
				break;
		}
	}
	end = (size_t)nl + 1 < lx->n ? (size_t)nl + 1 : lx->n;
	yl_lx_add_span(lx->fx, header, end, YL_BLOCK);
	yl_lx_block_key_end(lx, header, end);
	/*
	 * libyaml ends a top-level block scalar at a line less indented
	 * than its first, and takes "#" at column 0 for a comment; yaml
	 * reads on to a document marker.  libyaml also refuses a tab right
	 * after the indentation of the line that sets it.  In both cases
	 * it gets blanks: the value is read from the text.
	 */
	if (root && lx->bs_indent == -1) {
		for (i = start; i < end; i++)
			if (lx->s[i] != '\n' && lx->s[i] != '\r' && lx->s[i] != ' ')
				yl_fix_add_edit(lx->fx, i, 1, " ", 0);
	} else if (lx->bs_indent == -1) {
		for (i = start; i < end && strchr(" \r\n", lx->s[i]); i++)
			;
		if (i < end && lx->s[i] == '\t')
			yl_fix_add_edit(lx->fx, i, 1, "x", 1);
	}
	lx->pos = end;
	return ST_LINE_START;
}

