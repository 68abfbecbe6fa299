#ifndef YAMLFIX_H
#define YAMLFIX_H

#include <stddef.h>
#include "strbuf.h"

/*
 * The libyaml workaround layer.  libyaml is a YAML 1.1 reader and parts
 * of what yaml@2.8.3 reads are beyond it.  yl_fix_scan() runs yaml's own
 * lexing rules over the source once and lists every spot libyaml would
 * refuse or misread, as edits to a private copy that libyaml reads:
 * same-length replacements, inserted spaces and deleted bytes.  Values,
 * names and scalar extents are always taken from the original text.
 *
 * It also records what libyaml cannot tell us: where yaml's lexer ends
 * each scalar, and the errors yaml raises on layout alone.
 */

enum yl_tok {
	YL_PLAIN = 1,
	YL_QUOTED,
	YL_BLOCK,
};

struct yl_span {
	size_t start, end;	/* the scalar's source, as yaml's lexer cuts it */
	int kind;		/* enum yl_tok */
};

struct yl_edit {
	size_t at;		/* offset in the original text */
	size_t len;		/* bytes replaced or deleted */
	int del;		/* deleted, not replaced */
	char with[8];
};

/* A byte libyaml gets before the original offset at, and yaml does not. */
struct yl_ins {
	size_t at;
	size_t seq;	/* bytes put before one offset keep their order */
	char c;
};

struct yl_fix {
	struct yl_edit *edits;		/* sorted by at, not overlapping */
	size_t nr_edits, edits_alloc;
	struct yl_ins *ins;		/* sorted by at */
	size_t nr_ins, ins_alloc;
	size_t *patched;		/* content bytes libyaml sees replaced */
	size_t nr_patched, patched_alloc;
	struct yl_span *spans;		/* every scalar, in source order */
	size_t nr_spans, spans_alloc;
	size_t span_cursor;		/* where yl_fix_span() looked last */

	int non_ascii;			/* a byte over 0x7F in the text */
	int bom_taken;			/* the caller dropped a leading BOM */
	int status;			/* 0, or LOAD_EINVALID / _EUNSUPPORTED */
	size_t err_at;

	/* libyaml's copy, built by yl_fix_build() */
	char *lib;
	size_t lib_len;
	size_t *shift_at;		/* lib offsets where the mapping shifts */
	long *shift;			/* original minus lib from there on */
	size_t nr_shifts;
};

/*
 * Scan len bytes at text.  Returns 0, or LOAD_EINVALID /
 * LOAD_EUNSUPPORTED with a reason appended to err (err_at is the offset).
 */
int yl_fix_scan(struct yl_fix *fx, const char *text, size_t len,
		struct strbuf *err);

/* Build fx->lib from text and the edits; lib stays NULL without edits. */
void yl_fix_build(struct yl_fix *fx, const char *text, size_t len);

/* The scalar span that starts at `at`, or NULL. */
const struct yl_span *yl_fix_span(struct yl_fix *fx, size_t at);

/* Is any content byte in [b, e) replaced for libyaml? */
int yl_fix_patched(const struct yl_fix *fx, size_t b, size_t e);

void yl_fix_release(struct yl_fix *fx);

/* Internal to yamlfix.c and yamlfix-text.c. */
void yl_fix_add_ins(struct yl_fix *fx, size_t at, char c);
void yl_fix_uri_hash(struct yl_fix *fx, size_t at);
void yl_fix_add_edit(struct yl_fix *fx, size_t at, size_t len,
		     const char *with, int content);
int yl_fix_characters(struct yl_fix *fx, const char *text, size_t len,
		      struct strbuf *err);
void yl_fix_bare_doc_end(struct yl_fix *fx, const char *s, size_t len);
int yl_fix_lex(struct yl_fix *fx, const char *text, size_t len,
	       struct strbuf *err);
void yl_fix_surrogates(struct yl_fix *fx, const unsigned char *s, size_t b,
		       size_t e);

/* Whether s[le..n) holds only blank and comment lines. */
int yl_fix_only_comments_after(const char *s, size_t n, size_t le);

#endif
