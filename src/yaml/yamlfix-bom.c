/*
 * The line a byte order mark starts, for the libyaml workaround layer.
 *
 * yaml drops a BOM at the start of the text or of a line outside
 * documents, and its parser then counts no indentation on that line:
 * its spaces and its "- " indicators add nothing, so everything on the
 * line sits at column 0 for the collections it opens.  libyaml gets the
 * line as yaml's parser sees it: without its leading spaces, and with
 * each "-" after the first starting a line of its own.
 */
#include "config.h"
#include "yamlfix-lex.h"
#include "yamlload.h"

#include <stdint.h>
#include <string.h>

static int is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * "- - #c": one sequence at column 0 with an empty item per "-".  What
 * follows on the line would sit at column 0 too, inside the entry:
 * yaml refuses it.
 */
static int dash_line(struct lexer *lx, size_t i)
{
	size_t first = i;
	int c;

	while (ch(lx, i) == '-' && is_empty(ch(lx, i + 1))) {
		if (i > first)
			yl_fix_add_ins(lx->fx, i, '\n');
		i++;
		while (is_blank(ch(lx, i)))
			i++;
	}
	c = ch(lx, i);
	if (!(c == -1 || c == '#' || c == '\n' ||
	      (c == '\r' && ch(lx, i + 1) == '\n')))
		return yl_lx_fail(lx, LOAD_EINVALID, i, "content after a block "
				  "sequence entry right after a byte order mark");
	return 0;
}

/* lx->pos is just past a BOM that yaml drops (or that the text began with). */
int yl_lx_bom_line(struct lexer *lx)
{
	size_t i = lx->pos, b;
	int c, tab = 0;

	for (; is_blank(c = ch(lx, i)); i++)
		tab |= c == '\t';
	/* yaml takes a tab after "?" right after a BOM for indentation. */
	if (c == '?' && is_empty(ch(lx, i + 1)))
		for (b = i + 1; is_blank(ch(lx, b)); b++)
			if (lx->s[b] == '\t')
				return yl_lx_fail(lx, LOAD_EINVALID, b,
						  "tabs are not allowed as indentation");
	if (c == -1 || c == '#' || c == '\n' || c == '\r')
		return 0;
	if (tab) {
		/* Tabs before content: yaml's verdict is not reproduced. */
		if (c == '[' || c == '{')
			return 0;
		return yl_lx_fail(lx, LOAD_EUNSUPPORTED, i, "white space with "
				  "a tab after a byte order mark before content");
	}
	/* At column 0 libyaml would take these for a directive or a marker. */
	if (c == '%' || ((c == '-' || c == '.') && i + 3 <= lx->n &&
			 lx->s[i + 1] == c && lx->s[i + 2] == c &&
			 is_empty(ch(lx, i + 3))))
		return 0;
	if (i > lx->pos) {
		yl_fix_add_edit(lx->fx, lx->pos, i - lx->pos, "", 0);
		lx->bom_cut = i - lx->pos;
		lx->bom_line = lx->pos;
	}
	if (c == '-' && is_empty(ch(lx, i + 1)))
		return dash_line(lx, i);
	return 0;
}

/*
 * A block scalar on a BOM's line whose spaces libyaml did not get: yaml's
 * lexer counts them for the scalar's lines, libyaml would not.
 */
int yl_lx_bom_block_scalar(struct lexer *lx)
{
	const unsigned char *nl;

	if (lx->bom_line == SIZE_MAX || lx->pos < lx->bom_line)
		return 0;
	nl = memchr(lx->s + lx->bom_line, '\n', lx->pos - lx->bom_line);
	if (nl) {
		lx->bom_line = SIZE_MAX;
		return 0;
	}
	return yl_lx_fail(lx, LOAD_EUNSUPPORTED, lx->pos, "a block scalar on "
			  "the line of a byte order mark after white space");
}
