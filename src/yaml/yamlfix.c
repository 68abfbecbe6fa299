/*
 * The libyaml workaround layer (see yamlfix.h).
 *
 * struct lexer follows yaml@2.8.3's lexer state by state (stream,
 * line-start, block-start, document, flow, quoted, block scalar, plain
 * scalar) over the whole input at once, so that every decision below is
 * taken in the context yaml itself sees: inside or outside a flow
 * collection, a quoted or block scalar, a comment.  Each deviation of
 * libyaml gets one rule, marked "libyaml:" where it is applied.  The
 * scan is linear: every state moves forward, and lookahead never goes
 * past the current line except inside a scalar that is then consumed.
 */
#include "config.h"
#include "yamlfix.h"
#include "yamlfix-lex.h"
#include "yamlload.h"
#include "usage.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int yl_lx_fail(struct lexer *lx, int status, size_t at, const char *msg)
{
	if (!lx->fx->status) {
		lx->fx->status = status;
		lx->fx->err_at = at;
		strbuf_addf(lx->err, "%s%s",
			    status == LOAD_EUNSUPPORTED ?
			    "unsupported YAML construct: " : "invalid YAML: ", msg);
	}
	return ST_END;
}

void yl_fix_add_edit(struct yl_fix *fx, size_t at, size_t len,
		     const char *with, int content)
{
	struct yl_edit *ed;

	ALLOC_GROW(fx->edits, fx->nr_edits + 1, fx->edits_alloc);
	ed = &fx->edits[fx->nr_edits++];
	ed->at = at;
	ed->len = len;
	ed->del = !*with;
	if (!ed->del)
		memcpy(ed->with, with, len);
	while (content && len--) {
		ALLOC_GROW(fx->patched, fx->nr_patched + 1, fx->patched_alloc);
		fx->patched[fx->nr_patched++] = at++;
	}
}

void yl_lx_add_span(struct yl_fix *fx, size_t start, size_t end, int kind)
{
	struct yl_span *sp;

	ALLOC_GROW(fx->spans, fx->nr_spans + 1, fx->spans_alloc);
	sp = &fx->spans[fx->nr_spans++];
	sp->start = start;
	sp->end = end;
	sp->kind = kind;
}

void yl_fix_add_ins(struct yl_fix *fx, size_t at, char c)
{
	ALLOC_GROW(fx->ins, fx->nr_ins + 1, fx->ins_alloc);
	fx->ins[fx->nr_ins].at = at;
	fx->ins[fx->nr_ins].seq = fx->nr_ins;
	fx->ins[fx->nr_ins++].c = c;
}

/* libyaml: tabs are separation only in some places; spaces work in all. */
void yl_lx_tabs_to_spaces(struct lexer *lx, size_t b, size_t e)
{
	for (; b < e; b++)
		if (lx->s[b] == '\t')
			yl_fix_add_edit(lx->fx, b, 1, " ", 0);
}

static size_t push_spaces(struct lexer *lx, int tabs)
{
	size_t b = lx->pos;

	while (ch(lx, lx->pos) == ' ' || (tabs && ch(lx, lx->pos) == '\t'))
		lx->pos++;
	return lx->pos - b;
}

/* The end of the current line, its CR excluded (the lexer only moves on). */
static size_t line_end(struct lexer *lx)
{
	size_t e;

	if (lx->nl_at < lx->pos || lx->nl_at == SIZE_MAX) {
		const unsigned char *nl = memchr(lx->s + lx->pos, '\n',
						 lx->n - lx->pos);

		lx->nl_at = nl ? (size_t)(nl - lx->s) : lx->n;
	}
	e = lx->nl_at;
	if (e < lx->n && e > lx->pos && lx->s[e - 1] == '\r')
		e--;
	return e;
}

static size_t push_newline(struct lexer *lx)
{
	if (ch(lx, lx->pos) == '\n') {
		lx->pos++;
		return 1;
	}
	if (ch(lx, lx->pos) == '\r' && ch(lx, lx->pos + 1) == '\n') {
		lx->pos += 2;
		return 2;
	}
	return 0;
}

/* yaml wants white space before a comment; libyaml does not. */
static int comment_at(struct lexer *lx)
{
	size_t p = lx->pos;

	if (p > 0 && !strchr(" \t\r\n", lx->s[p - 1]))
		return yl_lx_fail(lx, LOAD_EINVALID, p,
				"comment not separated from the token before "
				"it by white space");
	return 0;
}

/*
 * A comment at column 0 in a flow collection, right below the line of a
 * node that takes the line break for itself (FLOW_LAST_*): yaml's
 * composer finds no white space before it.
 */
static int flow_comment_at(struct lexer *lx)
{
	size_t p = lx->pos, i = p;
	int last = lx->flow_last;

	if (p > 0 && lx->s[p - 1] != '\n') {
		/* a comment line right of column 0 has white space first */
		while (i > 0 && (lx->s[i - 1] == ' ' || lx->s[i - 1] == '\t'))
			i--;
		if (!i || lx->s[i - 1] == '\n')
			lx->flow_last = FLOW_LAST_OTHER;
		return comment_at(lx);
	}
	lx->flow_last = FLOW_LAST_OTHER;
	if (last == FLOW_LAST_SEQ_COLL) {
		/* a key if a ':' comes after the comment and blank lines */
		while (i < lx->n && (strchr(" \t\r\n", lx->s[i]) ||
				     lx->s[i] == '#'))
			if (lx->s[i++] == '#')
				while (i < lx->n && lx->s[i] != '\n')
					i++;
		if (i >= lx->n || lx->s[i] != ':')
			return 0;
	} else if (last != FLOW_LAST_VALUE)
		return 0;
	return yl_lx_fail(lx, LOAD_EINVALID, p, "comments must be separated "
			  "from other tokens by white space characters");
}

static int is_doc_marker(const struct lexer *lx, size_t i)
{
	return i + 3 <= lx->n &&
	       (!memcmp(lx->s + i, "---", 3) || !memcmp(lx->s + i, "...", 3)) &&
	       is_empty(ch(lx, i + 3));
}

/*
 * An anchor or alias name runs to white space or a flow indicator for
 * yaml.  libyaml: names are letters, digits, '-' and '_' only; it gets
 * letters in place of the rest (the name is read from the text).
 */
static void push_name(struct lexer *lx)
{
	size_t i = lx->pos + 1;
	int c;

	while ((c = ch(lx, i)) != -1 && !strchr(" ,[]{}\n\r\t", c)) {
		if (!(c >= '0' && c <= '9') && !((c | 0x20) >= 'a' &&
		    (c | 0x20) <= 'z') && c != '-' && c != '_')
			yl_fix_add_edit(lx->fx, i, 1, "x", 0);
		i++;
	}
	lx->pos = i;
}

static void push_tag(struct lexer *lx)
{
	size_t i = lx->pos + 1;
	int c;

	if (ch(lx, i) == '<') {
		for (i++; !is_empty(c = ch(lx, i)) && c != '>'; i++)
			if (c == '#')
				yl_fix_uri_hash(lx->fx, i);
		lx->pos = c == '>' ? i + 1 : i;
		return;
	}
	while ((c = ch(lx, i)) != -1) {
		if (c == '#')
			yl_fix_uri_hash(lx->fx, i++);
		else if (c != -1 && (strchr("-#;/?:@&=+$_.!~*'()", c) ||
				(c >= '0' && c <= '9') ||
				((c | 0x20) >= 'a' && (c | 0x20) <= 'z')))
			i++;
		else if (c == '%' && i + 2 < lx->n &&
			 strchr("0123456789ABCDEFabcdef", lx->s[i + 1]) &&
			 strchr("0123456789ABCDEFabcdef", lx->s[i + 2]))
			i += 3;
		else
			break;
	}
	lx->pos = i;
}

static void flow_open(struct lexer *lx, int c)
{
	size_t start = SIZE_MAX;

	/* A key unless a value or an explicit key ('?') began the entry. */
	/* SIZE_MAX - 1: a value or an explicit key, for flow_last */
	if (lx->flow_level && !lx->flow_q)
		start = lx->flow_entry == FLOW_ENTRY_EMPTY ? lx->pos - 1 :
			lx->flow_entry == FLOW_ENTRY_KEY ? lx->props_at :
			SIZE_MAX - 1;
	else if (lx->flow_level)
		start = SIZE_MAX - 1;
	lx->flow_last = FLOW_LAST_OTHER;
	ALLOC_GROW(lx->coll_starts, (size_t)lx->flow_level + 1,
		   lx->coll_starts_alloc);
	lx->coll_starts[lx->flow_level] = start;
	lx->coll_key_at = SIZE_MAX;
	ALLOC_GROW(lx->kinds, (size_t)lx->flow_level + 1, lx->kinds_alloc);
	lx->kinds[lx->flow_level++] = (unsigned char)c;
	lx->key_start = SIZE_MAX;
	lx->flow_entry = FLOW_ENTRY_EMPTY;
	lx->props_at = SIZE_MAX;
	lx->flow_q = 0;
}

/* A ']' or '}': the collection ends, and the entry it was in has one. */
static int flow_close(struct lexer *lx)
{
	lx->pos++;
	lx->flow_key = 1;
	lx->flow_level--;
	lx->key_start = SIZE_MAX;
	lx->flow_entry = FLOW_ENTRY_KEY;
	lx->coll_key_at = lx->coll_starts[lx->flow_level];
	lx->flow_last = lx->coll_key_at == SIZE_MAX - 1 ||
			(lx->flow_level && lx->kinds[lx->flow_level - 1] == '{') ?
			FLOW_LAST_VALUE : FLOW_LAST_SEQ_COLL;
	if (lx->coll_key_at == SIZE_MAX - 1)
		lx->coll_key_at = SIZE_MAX;
	lx->props_at = SIZE_MAX;
	return lx->flow_level ? ST_FLOW : ST_DOC;
}

/*
 * libyaml: a key in a flow mapping must be on one line with its ':';
 * yaml takes keys over several lines, and comments before the ':'.
 * libyaml gets the line breaks and comments between as spaces.
 */
static void join_key(struct lexer *lx, size_t colon)
{
	size_t i;

	if (lx->key_start == SIZE_MAX || !lx->flow_level ||
	    lx->kinds[lx->flow_level - 1] != '{' ||
	    !memchr(lx->s + lx->key_start, '\n', colon - lx->key_start))
		return;
	for (i = lx->key_start; i < colon; i++) {
		if (i >= lx->key_end && lx->s[i] == '#')
			while (i < colon && lx->s[i] != '\n' && lx->s[i] != '\r')
				yl_fix_add_edit(lx->fx, i++, 1, " ", 0);
		if (i < colon && (lx->s[i] == '\n' || lx->s[i] == '\r'))
			yl_fix_add_edit(lx->fx, i, 1, " ", 0);
	}
}

static int push_indicators(struct lexer *lx)
{
	for (;;) {
		int c = ch(lx, lx->pos), c1;

		if (c == '!' || c == '&') {
			size_t at = lx->pos, props_at = lx->props_at;
			int first = lx->flow_entry == FLOW_ENTRY_EMPTY;

			if (!lx->flow_level && !lx->tab_props_ok &&
			    yl_lx_tab_as_indent(lx))
				return -1;
			if (c == '!')
				push_tag(lx);
			else
				push_name(lx);
			if (!lx->flow_level)
				lx->node_due = 1;
			else {
				flow_content(lx);
				lx->props_at = first ? at : props_at;
				lx->flow_last = FLOW_LAST_OTHER;
			}
			push_spaces(lx, 1);
			continue;
		}
		if (c != '-' && c != '?' && c != ':')
			return 0;
		c1 = ch(lx, lx->pos + 1);
		if (!is_empty(c1) && !(lx->flow_level && is_flow_ind(c1)))
			return 0;
		if (!lx->flow_level) {
			if (yl_lx_tab_as_indent(lx))
				return -1;
			yl_lx_indent_tab_end(lx, c == ':');
			if (c == ':')
				yl_lx_block_pair(lx);
			lx->indent_next = lx->indent_value + 1;
			lx->node_due = 1;
			lx->value_due = c == '?';
		} else {
			lx->flow_key = 0;
			if (c == ':')
				join_key(lx, lx->pos);
			if (c == ':')
				yl_lx_flow_colon(lx);
			else if (c == '?') {
				lx->flow_last = FLOW_LAST_OTHER;
				lx->flow_entry = FLOW_ENTRY_EMPTY;
				lx->props_at = SIZE_MAX;
				lx->flow_q = 1;
			}
			lx->key_start = SIZE_MAX;
			/* libyaml: an indicator needs a blank after it. */
			if (!is_empty(c1))
				yl_fix_add_ins(lx->fx, lx->pos + 1, ' ');
		}
		lx->pos++;
		if (lx->flow_level)
			yl_lx_tabs_to_spaces(lx, lx->pos, lx->pos + push_spaces(lx, 1));
		else
			push_spaces(lx, 1);
	}
}

size_t yl_lx_find(const struct lexer *lx, int c, size_t from, size_t to)
{
	const unsigned char *p;

	if (from >= to)
		return SIZE_MAX;
	p = memchr(lx->s + from, c, to - from);
	return p ? (size_t)(p - lx->s) : SIZE_MAX;
}

/* yaml's continueScalar(): where the next line of a scalar starts. */
size_t yl_lx_continue_scalar(const struct lexer *lx, size_t off)
{
	int c = ch(lx, off);

	if (lx->indent_next > 0) {
		long indent = 0;

		while (c == ' ')
			c = ch(lx, off + ++indent);
		if (c == '\r' && ch(lx, off + indent + 1) == '\n')
			return off + indent + 1;
		return c == '\n' || indent >= lx->indent_next ?
		       off + indent : SIZE_MAX;
	}
	if ((c == '-' || c == '.') && is_doc_marker(lx, off))
		return SIZE_MAX;
	return off;
}

static int lex_quoted(struct lexer *lx)
{
	size_t start = lx->pos, end, nl, lim;
	int q = lx->s[start];

	end = yl_lx_find(lx, q, start + 1, lx->n);
	if (q == '\'') {
		while (end != SIZE_MAX && ch(lx, end + 1) == '\'')
			end = yl_lx_find(lx, q, end + 2, lx->n);
	} else {
		while (end != SIZE_MAX) {
			size_t k = 0;

			while (lx->s[end - 1 - k] == '\\')
				k++;
			if (k % 2 == 0)
				break;
			end = yl_lx_find(lx, q, end + 1, lx->n);
		}
	}
	lim = end == SIZE_MAX ? start : end;
	nl = yl_lx_find(lx, '\n', start, lim);
	while (nl != SIZE_MAX) {
		size_t cs = yl_lx_continue_scalar(lx, nl + 1);

		if (cs == SIZE_MAX)
			break;
		nl = yl_lx_find(lx, '\n', cs, lim);
	}
	if (nl != SIZE_MAX) {
		end = nl - (lx->s[nl - 1] == '\r' ? 2 : 1);
		/*
		 * Cut at a line end, the scalar is closed for yaml if the
		 * line ends in its quote (escaped, so libyaml reads on): it
		 * gets one more quote there.
		 */
		if (end > start && lx->s[end] == q)
			yl_fix_add_ins(lx->fx, end + 1, (char)q);
	}
	if (end == SIZE_MAX)
		end = lx->n;
	lx->pos = end + 1 < lx->n ? end + 1 : lx->n;
	yl_lx_add_span(lx->fx, start, lx->pos, YL_QUOTED);
	if (q == '"')
		yl_fix_surrogates(lx->fx, lx->s, start, lx->pos);
	return lx->flow_level ? ST_FLOW : ST_DOC;
}

/* Characters a plain scalar must look at: 1 in any context, 2 in flow. */
static const unsigned char plain_stop[256] = {
	['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [' '] = 1, [':'] = 1,
	[','] = 2, ['['] = 2, [']'] = 2, ['{'] = 2, ['}'] = 2,
};

static int lex_plain(struct lexer *lx)
{
	int in_flow = lx->flow_level > 0, c;
	unsigned mask = in_flow ? 3 : 1;
	size_t start = lx->pos, i = lx->pos, end = lx->pos;

	for (; i < lx->n; i++) {
		size_t run = i;

		while (i < lx->n && !(plain_stop[lx->s[i]] & mask))
			i++;
		if (i > run)
			end = i;
		if (i >= lx->n)
			break;
		c = lx->s[i];
		if (c == ':') {
			int nx = ch(lx, i + 1);

			if (is_empty(nx) || (in_flow && is_flow_ind(nx)))
				break;
			end = i + 1;
		} else if (is_empty(c)) {
			int nx = ch(lx, i + 1);

			if (c == '\r') {
				if (nx == '\n') {
					i++;
					c = '\n';
					nx = ch(lx, i + 1);
				} else
					end = i + 1;
			}
			if (nx == '#' || (in_flow && is_flow_ind(nx)))
				break;
			if (c == '\n') {
				size_t cs = yl_lx_continue_scalar(lx, i + 1);

				if (cs == SIZE_MAX)
					break;
				if (cs >= 2 && cs - 2 > i)
					i = cs - 2;
			}
		} else {
			if (in_flow && is_flow_ind(c))
				break;
			end = i + 1;
		}
	}
	lx->pos = end;
	yl_lx_add_span(lx->fx, start, end, YL_PLAIN);
	return in_flow ? ST_FLOW : ST_DOC;
}

static int lex_flow(struct lexer *lx)
{
	long indent = -1;
	size_t nl, sp, b, le;
	int c, lines = 0;

	do {
		nl = push_newline(lx);
		/* a blank line: the node had one line break, this is another */
		if (nl && lines++)
			lx->flow_last = FLOW_LAST_OTHER;
		if (nl) {
			sp = push_spaces(lx, 0);
			lx->indent_value = indent = (long)sp;
		} else
			sp = 0;
		b = lx->pos;
		sp += push_spaces(lx, 1);
		yl_lx_tabs_to_spaces(lx, b, lx->pos);
	} while (nl + sp > 0);
	le = line_end(lx);
	c = lx->pos < le ? lx->s[lx->pos] : -1;
	if ((indent != -1 && indent < lx->indent_next && c != '#') ||
	    (indent == 0 && is_doc_marker(lx, lx->pos))) {
		if (!(indent == lx->indent_next - 1 && lx->flow_level == 1 &&
		      (c == ']' || c == '}'))) {
			lx->flow_level = 0;
			return ST_LINE_START;
		}
	}
	while (ch(lx, lx->pos) == ',') {
		lx->pos++;
		lx->key_start = SIZE_MAX;
		lx->coll_key_at = SIZE_MAX;
		b = lx->pos;
		yl_lx_tabs_to_spaces(lx, b, b + push_spaces(lx, 1));
		lx->flow_key = 0;
		lx->flow_entry = FLOW_ENTRY_EMPTY;
		lx->props_at = SIZE_MAX;
		lx->flow_last = FLOW_LAST_OTHER;
		lx->flow_q = 0;
	}
	if (push_indicators(lx))
		return ST_END;
	c = lx->pos < le ? lx->s[lx->pos] : -1;
	switch (c) {
	case -1:
		return ST_FLOW;
	case '#':
		if (flow_comment_at(lx))
			return ST_END;
		lx->pos = le;
		return ST_FLOW;
	case '{':
	case '[':
		lx->pos++;
		lx->flow_key = 0;
		flow_open(lx, c);
		return ST_FLOW;
	case '}':
	case ']':
		return flow_close(lx);
	case '*':
		push_name(lx);
		lx->key_start = SIZE_MAX;
		flow_content(lx);
		return ST_FLOW;
	case '"':
	case '\'':
		lx->flow_key = 1;
		flow_content(lx);
		b = lx->pos;
		c = lex_quoted(lx);
		lx->key_start = b;
		lx->key_end = lx->pos;
		return c;
	case ':': {
		int nx = ch(lx, lx->pos + 1);

		if (lx->flow_key || is_empty(nx) || nx == ',') {
			lx->flow_key = 0;
			join_key(lx, lx->pos);
			lx->key_start = SIZE_MAX;
			yl_lx_flow_colon(lx);
			/* libyaml: a value indicator needs a blank after it. */
			if (!is_empty(nx))
				yl_fix_add_ins(lx->fx, lx->pos + 1, ' ');
			lx->pos++;
			b = lx->pos;
			yl_lx_tabs_to_spaces(lx, b, b + push_spaces(lx, 1));
			return ST_FLOW;
		}
	}
		/* fall through */
	default:
		lx->flow_key = 0;
		/*
		 * libyaml: "?x" and ":x" in a flow collection are an
		 * indicator and x; for YAML 1.2 they are plain scalars.
		 */
		if (c == '?' || c == ':')
			yl_fix_add_edit(lx->fx, lx->pos, 1, "x", 0);
		flow_content(lx);
		b = lx->pos;
		c = lex_plain(lx);
		lx->key_start = b;
		lx->key_end = lx->pos;
		return c;
	}
}

static int lex_doc(struct lexer *lx, int lead)
{
	size_t b = lx->pos, le;
	int c;

	push_spaces(lx, 1);
	le = line_end(lx);
	if (lead && lx->pos == le && (lx->node_due || lx->value_due) &&
	    yl_lx_due_tab_line(lx, b))
		return ST_END;
	if (lead && (lx->pos == le || lx->s[lx->pos] == '#'))
		yl_lx_tabs_to_spaces(lx, b, lx->pos);	/* libyaml: blank line */
	else if (lead && !lx->doc_content && memchr(lx->s + b, '\t', lx->pos - b))
		yl_lx_root_flow_tabs(lx, b, le);
	else if (lead && lx->s[b] == '\t')
		yl_lx_indent_tab(lx, b);
	if (push_indicators(lx))
		return ST_END;
	c = lx->pos < le ? lx->s[lx->pos] : -1;
	if (c != -1 && c != '#') {
		lx->doc_content = 1;
		lx->node_due = 0;
		lx->pair_open = 0;
	}
	switch (c) {
	case '#':
		if (comment_at(lx))
			return ST_END;
		lx->pos = le;
		/* fall through */
	case -1:
		push_newline(lx);
		return ST_LINE_START;
	case '{':
	case '[':
		lx->pos++;
		lx->flow_key = 0;
		lx->flow_level = 0;
		flow_open(lx, c);
		return ST_FLOW;
	case '}':
	case ']':
		lx->pos++;
		return ST_DOC;
	case '*':
		push_name(lx);
		return ST_DOC;
	case '"':
	case '\'':
		return lex_quoted(lx);
	case '|':
	case '>':
		if (yl_lx_bom_block_scalar(lx))
			return ST_END;
		b = lx->pos;
		yl_lx_block_header(lx);
		push_spaces(lx, 1);
		if (ch(lx, lx->pos) == '#' && comment_at(lx))
			return ST_END;
		lx->pos = le > lx->pos ? le : lx->pos;
		push_newline(lx);
		return yl_lx_block(lx, b);
	default:
		return lex_plain(lx);
	}
}

static int lex_block_start(struct lexer *lx)
{
	int prev = 0;

	for (;;) {
		int c0 = ch(lx, lx->pos), c1 = ch(lx, lx->pos + 1);
		size_t b, k;

		if (!((c0 == '-' || c0 == '?' || c0 == ':') && is_empty(c1))) {
			yl_lx_block_content(lx, prev);
			return lex_doc(lx, 1);
		}
		if (yl_lx_tab_as_indent(lx))
			return ST_END;
		yl_lx_block_indicator(lx, c0, prev);
		prev = c0;
		lx->doc_content = 1;
		lx->node_due = 1;
		lx->value_due = c0 == '?';
		b = ++lx->pos;
		push_spaces(lx, 1);
		for (k = b; k < lx->pos && lx->s[k] != '\t'; k++)
			;
		if (k < lx->pos) {
			/* libyaml: no tab after a line-start indicator */
			lx->tab_line = b;
			lx->tab_at = k;
			lx->tab_props_ok = 0;
			yl_lx_tabs_to_spaces(lx, b, lx->pos);
		}
		lx->indent_next = lx->indent_value + 1;
		lx->indent_value += (long)(lx->pos - b) + 1;
	}
}

static int lex_line_start(struct lexer *lx)
{
	if (is_doc_marker(lx, lx->pos)) {
		int c = lx->s[lx->pos];

		lx->pos += 3;
		yl_lx_block_reset(lx);
		lx->indent_value = lx->indent_next = 0;
		lx->doc_content = 0;
		lx->node_due = c == '-';
		lx->value_due = 0;
		return c == '-' ? ST_DOC : ST_STREAM;
	}
	yl_lx_indent_tab_end(lx, 0);
	lx->line_start = lx->pos + lx->bom_cut;
	lx->bom_cut = 0;
	lx->indent_value = (long)push_spaces(lx, 0);
	if (lx->indent_next > lx->indent_value && !is_empty(ch(lx, lx->pos + 1)))
		lx->indent_next = lx->indent_value;
	return lex_block_start(lx);
}

static int lex_stream(struct lexer *lx)
{
	size_t le = line_end(lx), i, b;
	int c, bom = 0;

	/* yaml drops one BOM at the start of a line outside documents. */
	if ((lx->pos || !lx->fx->bom_taken) && lx->pos + 3 <= lx->n &&
	    !memcmp(lx->s + lx->pos, "\xef\xbb\xbf", 3)) {
		/* libyaml: a byte order mark only starts the stream */
		size_t i = lx->pos + 3;

		yl_fix_add_edit(lx->fx, lx->pos, 3, "", 0);
		lx->pos = i;
		bom = 1;
	}
	if (((lx->pos == 0 && lx->fx->bom_taken) || bom) && yl_lx_bom_line(lx))
		return ST_END;
	if (ch(lx, lx->pos) == '%') {
		if (yl_lx_directive(lx, lx->pos))
			return ST_END;
		lx->pos = le;
		push_newline(lx);
		return ST_STREAM;
	}
	for (i = lx->pos; (c = ch(lx, i)) == ' ' || c == '\t'; i++)
		;
	if (c == -1 || c == '#' || c == '\n' || (c == '\r' && ch(lx, i + 1) == '\n')) {
		b = lx->pos;
		push_spaces(lx, 1);
		yl_lx_tabs_to_spaces(lx, b, lx->pos);	/* libyaml: blank line */
		lx->pos = le;
		push_newline(lx);
		return ST_STREAM;
	}
	yl_lx_directives_end(lx, lx->pos + 3 <= lx->n &&
			     !memcmp(lx->s + lx->pos, "---", 3) &&
			     is_doc_marker(lx, lx->pos) ? DIRS_DOC : DIRS_CONTENT);
	lx->doc_seen = 1;
	return lex_line_start(lx);
}

static void lex(struct lexer *lx)
{
	int state = ST_STREAM;
	size_t last = SIZE_MAX;
	int stalled = 0;

	while (state != ST_END && lx->pos < lx->n && !lx->fx->status) {
		if (lx->pos == last && ++stalled > 4) {
			yl_lx_fail(lx, LOAD_EUNSUPPORTED, lx->pos,
				 "a spot yaml's lexer does not get past");
			return;
		}
		if (lx->pos != last)
			stalled = 0;
		last = lx->pos;
		switch (state) {
		case ST_STREAM:
			state = lex_stream(lx);
			break;
		case ST_LINE_START:
			state = lex_line_start(lx);
			break;
		case ST_DOC:
			state = lex_doc(lx, 0);
			break;
		case ST_FLOW:
			state = lex_flow(lx);
			break;
		}
	}
}

/* yaml's lexing rules over the text: edits, spans and layout errors. */
int yl_fix_lex(struct yl_fix *fx, const char *text, size_t len,
	       struct strbuf *err)
{
	struct lexer lx;

	memset(&lx, 0, sizeof(lx));
	lx.s = (const unsigned char *)text;
	lx.n = len;
	lx.fx = fx;
	lx.err = err;
	lx.tab_line = SIZE_MAX;
	lx.nl_at = SIZE_MAX;
	lx.key_start = SIZE_MAX;
	lx.coll_key_at = SIZE_MAX;
	lx.props_at = SIZE_MAX;
	lx.bom_line = SIZE_MAX;
	lx.tab_cut = SIZE_MAX;
	lx.pair_col = -1;
	lex(&lx);
	if (!fx->status) {
		yl_lx_indent_tab_end(&lx, 0);
		yl_lx_directives_end(&lx, DIRS_EOF);
	}
	free(lx.kinds);
	free(lx.coll_starts);
	free(lx.qcols);
	free(lx.dirs);
	return fx->status;
}
