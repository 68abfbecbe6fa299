/*
 * Tabs for the libyaml workaround layer: where yaml takes a tab for
 * indentation (an error) and where for separation, which libyaml then
 * gets as a space.
 */
#include "config.h"
#include "yamlfix-lex.h"
#include "yamlload.h"

#include <stdint.h>
#include <string.h>

/*
 * A tab separated a line-start indicator from what follows, and now
 * yaml meets `what` on that line: properties, another indicator or an
 * implicit key.  yaml takes the tab for indentation there.
 */
int yl_lx_tab_as_indent(struct lexer *lx)
{
	if (lx->tab_line == SIZE_MAX)
		return 0;
	if (memchr(lx->s + lx->tab_line, '\n', lx->pos - lx->tab_line)) {
		lx->tab_line = SIZE_MAX;
		return 0;
	}
	return yl_lx_fail(lx, LOAD_EINVALID, lx->tab_at,
			"tabs are not allowed as indentation");
}

/*
 * Tabs before the root node of a document: yaml takes them as white
 * space when the node is a flow collection (properties may come first)
 * and not a key.  libyaml gets spaces; a ':' later on the line is
 * refused as yaml refuses it.
 */
void yl_lx_root_flow_tabs(struct lexer *lx, size_t b, size_t le)
{
	size_t i = lx->pos, k;

	while (i < le && (lx->s[i] == '!' || lx->s[i] == '&')) {
		while (i < le && !strchr(" \t", lx->s[i]))
			i++;
		while (i < le && strchr(" \t", lx->s[i]))
			i++;
	}
	if (i >= le || (lx->s[i] != '[' && lx->s[i] != '{'))
		return;
	for (k = b; lx->s[k] != '\t'; k++)
		;
	lx->tab_line = b;
	lx->tab_at = k;
	lx->tab_props_ok = 1;
	yl_lx_tabs_to_spaces(lx, b, lx->pos);
}

/*
 * A line of only white space with a tab, while a node is still due (after
 * "---", a key's ':', '-', '?', an anchor or a tag).  yaml errs on the
 * tab as indentation when the line is the last one and starts with the
 * tab; elsewhere (and after a '?' whose key came, the value being
 * due) its verdict hangs on the parent's indentation and on what
 * follows, which this layer does not track.
 */
int yl_lx_due_tab_line(struct lexer *lx, size_t b)
{
	size_t ls = b, i;

	while (ls > 0 && lx->s[ls - 1] != '\n')
		ls--;
	for (i = ls; i < lx->pos && lx->s[i] != '\t'; i++)
		if (lx->s[i] != ' ')
			return 0;
	if (i == lx->pos)
		return 0;
	/*
	 * Blank and comment lines to the end or to a "...": yaml judges
	 * only the last line of the text.  (The run's end is kept: many
	 * such lines in a row are looked at once.)
	 */
	if (lx->pos >= lx->blank_end) {
		for (i = lx->pos; i < lx->n; i++) {
			if (lx->s[i] == '#' && (i == 0 || strchr(" \t\r\n", lx->s[i - 1])))
				while (i + 1 < lx->n && lx->s[i + 1] != '\n')
					i++;
			else if (!strchr(" \t\r\n", lx->s[i]))
				break;
		}
		lx->blank_end = i;
	}
	i = lx->blank_end;
	if (lx->pos < lx->n && (i == lx->n ||
	    (i > 0 && lx->s[i - 1] == '\n' && i + 3 <= lx->n &&
	     !memcmp(lx->s + i, "...", 3) &&
	     (i + 3 == lx->n || strchr(" \t\r\n", lx->s[i + 3])))))
		return 0;
	if (lx->node_due && lx->pos == lx->n && lx->s[ls] == '\t')
		yl_lx_fail(lx, LOAD_EINVALID, ls,
			 "tabs are not allowed as indentation");
	else
		yl_lx_fail(lx, LOAD_EUNSUPPORTED, i,
			 "a line of white space with a tab where a node is due");
	return 1;
}

/*
 * A tab after the spaces that indent a line, before a scalar or a flow
 * collection (b: after the spaces, lx->pos: the node; not before properties,
 * which yaml refuses, or a block scalar, not reproduced): yaml takes the tab
 * for separation and the node's column for the spaces' (DK95); libyaml
 * refuses the tab.  If the node turns out to be a key, yaml refuses the
 * tab as indentation; else libyaml gets the line without the white space
 * from the tab on (yl_lx_indent_tab_end()), its node on yaml's column.
 */
void yl_lx_indent_tab(struct lexer *lx, size_t b)
{
	size_t i;
	int c = ch(lx, lx->pos);

	if (b == lx->line_start || c == '|' || c == '>' || c == '!' || c == '&' ||
	    ((c == '-' || c == '?' || c == ':') && is_empty(ch(lx, lx->pos + 1))))
		return;
	for (i = lx->line_start; i < b; i++)
		if (lx->s[i] != ' ')
			return;		/* after an indicator: see above */
	lx->tab_cut = b;
	lx->tab_cut_end = lx->pos;
}

/* The line of yl_lx_indent_tab() has ended, or (key) its node is a key. */
void yl_lx_indent_tab_end(struct lexer *lx, int key)
{
	if (lx->tab_cut == SIZE_MAX)
		return;
	if (!key)
		yl_fix_add_edit(lx->fx, lx->tab_cut, lx->tab_cut_end - lx->tab_cut,
				"", 0);
	lx->tab_cut = SIZE_MAX;
}
