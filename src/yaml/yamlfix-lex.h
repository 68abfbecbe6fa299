#ifndef YAMLFIX_LEX_H
#define YAMLFIX_LEX_H

/*
 * The lexer of the libyaml workaround layer (yamlfix.c), shared with
 * yamlfix-block.c which cuts block scalars.
 */
#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"
#include "yamlfix.h"

enum state {
	ST_END, ST_STREAM, ST_LINE_START, ST_DOC, ST_FLOW,
};

struct lexer {
	const unsigned char *s;
	size_t n, pos;
	long indent_next, indent_value;
	int flow_level, flow_key;
	int bs_indent, bs_keep;
	struct yl_fix *fx;
	struct strbuf *err;
	/* a tab separated a line-start indicator from what follows */
	size_t tab_line;	/* start of that line, or SIZE_MAX */
	size_t tab_at;
	int tab_props_ok;	/* ... and properties may follow that tab */
	int doc_content;	/* the document has content already */
	int node_due;		/* an indicator or property waits for its node */
	int value_due;		/* a block '?' has had no ':' yet */
	size_t nl_at;		/* the next line feed at or after pos, or n */
	unsigned char *kinds;	/* '{' or '[' for each open flow collection */
	size_t kinds_alloc;
	/*
	 * For each open flow collection inside another, where the entry it
	 * is the key of began (its properties or itself), else SIZE_MAX;
	 * and, once one closes, that for the entry it ends (coll_key_at).
	 */
	size_t *coll_starts;
	size_t coll_starts_alloc;
	size_t coll_key_at;
	size_t props_at;	/* properties that began the entry, or SIZE_MAX */
	int flow_last;		/* FLOW_LAST_*: the last token on the line */
	size_t key_start, key_end;	/* the last scalar in a flow collection */
	size_t line_start;	/* column 0 of the current block line */
	size_t tab_cut, tab_cut_end;	/* see yl_lx_indent_tab() */
	size_t blank_end;	/* where the last run of blank lines ended */
	size_t bom_cut;		/* spaces libyaml does not get on a BOM's line */
	size_t bom_line;	/* where that line starts, or SIZE_MAX */
	long *qcols;		/* columns of block "?" keys with no ':' yet */
	size_t nr_qcols, qcols_alloc;
	size_t qcols_inner;	/* the first ones: a mapping opened since */
	long pair_col;		/* the last block pair's key column, or -1 */
	int pair_open;		/* ... and its value has not come yet */
	long content_col;	/* the column of the line's first node */
	int flow_entry;		/* FLOW_ENTRY_*, in the innermost flow */
	int flow_q;		/* ... and the entry began with '?' */
	size_t entry_at;	/* where its key began */
	size_t *dirs;		/* directive lines since the last document */
	size_t nr_dirs, dirs_alloc;
	int doc_seen;		/* a document has started */
};

enum { DIRS_DOC, DIRS_CONTENT, DIRS_EOF };

/*
 * yaml's parser gives the line break after some nodes of a flow
 * collection to the node itself; a comment at column 0 on the next line
 * then has no white space before it, which yaml's composer refuses.
 */
enum {
	FLOW_LAST_OTHER,	/* a key, an item, an indicator, properties */
	FLOW_LAST_VALUE,	/* a value's node, or a collection that is a
				   value, an explicit key or a map's key */
	FLOW_LAST_SEQ_COLL,	/* a collection in a sequence: an item, or
				   a key if a ':' follows */
};

enum {
	FLOW_ENTRY_EMPTY,	/* nothing since '[', '{', ',' or '?' */
	FLOW_ENTRY_KEY,		/* content, no ':' yet */
	FLOW_ENTRY_VALUE,	/* after the ':' */
};

/* The character at i as the lexer sees it; -1 past either end. */
static inline int ch(const struct lexer *lx, size_t i)
{
	return i < lx->n ? lx->s[i] : -1;
}

static inline int is_empty(int c)
{
	return c == -1 || c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline int is_flow_ind(int c)
{
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

size_t yl_lx_find(const struct lexer *lx, int c, size_t from, size_t to);
size_t yl_lx_continue_scalar(const struct lexer *lx, size_t off);
void yl_lx_add_span(struct yl_fix *fx, size_t start, size_t end, int kind);

/* Content in a flow collection: the entry has a key now. */
static inline void flow_content(struct lexer *lx)
{
	lx->coll_key_at = SIZE_MAX;
	lx->props_at = SIZE_MAX;
	lx->flow_last = lx->flow_entry == FLOW_ENTRY_VALUE ? FLOW_LAST_VALUE :
			FLOW_LAST_OTHER;
	if (lx->flow_entry == FLOW_ENTRY_EMPTY) {
		lx->flow_entry = FLOW_ENTRY_KEY;
		lx->entry_at = lx->pos;
	}
}

int yl_lx_fail(struct lexer *lx, int status, size_t at, const char *msg);
void yl_lx_tabs_to_spaces(struct lexer *lx, size_t b, size_t e);

/* yamlfix-tabs.c */
int yl_lx_tab_as_indent(struct lexer *lx);
void yl_lx_root_flow_tabs(struct lexer *lx, size_t b, size_t le);
int yl_lx_due_tab_line(struct lexer *lx, size_t b);
void yl_lx_indent_tab(struct lexer *lx, size_t b);
void yl_lx_indent_tab_end(struct lexer *lx, int key);

/* yamlfix-bom.c */
int yl_lx_bom_line(struct lexer *lx);
int yl_lx_bom_block_scalar(struct lexer *lx);

/* yamlfix-dir.c */
int yl_lx_directive(struct lexer *lx, size_t b);
void yl_lx_directives_end(struct lexer *lx, int how);

/* yamlfix-empty.c */
void yl_lx_block_indicator(struct lexer *lx, int c, int prev);
void yl_lx_block_content(struct lexer *lx, int prev);
void yl_lx_block_pair(struct lexer *lx);
void yl_lx_block_reset(struct lexer *lx);
void yl_lx_flow_colon(struct lexer *lx);
void yl_lx_block_key_end(struct lexer *lx, size_t header, size_t end);

/* yamlfix-block.c */
void yl_lx_block_header(struct lexer *lx);
int yl_lx_block(struct lexer *lx, size_t header);

#endif
