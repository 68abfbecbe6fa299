/*
 * CommonMark HTML blocks (htmlblock.h), after the spec's section 4.6.
 */
#include "config.h"
#include "htmlblock.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Kind 6: the block-level tag names. */
static const char *const block_tags[] = {
	"address", "article", "aside", "base", "basefont", "blockquote",
	"body", "caption", "center", "col", "colgroup", "dd", "details",
	"dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
	"figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
	"h4", "h5", "h6", "head", "header", "hr", "html", "iframe",
	"legend", "li", "link", "main", "menu", "menuitem", "nav",
	"noframes", "ol", "optgroup", "option", "p", "param", "search",
	"section", "summary", "table", "tbody", "td", "tfoot", "th",
	"thead", "title", "tr", "track", "ul",
};

/* Kind 1: the tags whose block ends at their closing tag. */
static const char *const raw_tags[] = { "pre", "script", "style",
					"textarea" };

/* The markers that end kinds 2 to 5 (kind 1 ends at a closing tag). */
static const char *const end_marks[] = { NULL, NULL, "-->", "?>", ">",
					 "]]>" };

/* Does [p, e) contain s, letters compared without case? */
static int has_ci(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);

	for (; p + n <= e; p++)
		if (!strncasecmp(p, s, n))
			return 1;
	return 0;
}

static int blank(const char *p, const char *e)
{
	for (; p < e; p++)
		if (*p != ' ' && *p != '\t')
			return 0;
	return 1;
}

/* The tag name at p (letters, digits, '-'): its length. */
static size_t tag_name(const char *p, const char *e)
{
	size_t n = 0;

	if (p >= e || !isalpha((unsigned char)*p))
		return 0;
	while (p + n < e && (isalnum((unsigned char)p[n]) || p[n] == '-'))
		n++;
	return n;
}

/* Is name (n bytes) one of list, without case? */
static int one_of(const char *name, size_t n, const char *const *list,
		  size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strlen(list[i]) == n && !strncasecmp(name, list[i], n))
			return 1;
	return 0;
}

/* After a tag name: a space, a tab, the end, '>' or "/>". */
static int name_ends(const char *q, const char *e)
{
	return q == e || *q == ' ' || *q == '\t' || *q == '>' ||
		(*q == '/' && q + 1 < e && q[1] == '>');
}

/* The kind of HTML block the line at q (indentation skipped) starts. */
static int start_kind(const char *q, const char *e, int para)
{
	const char *t;
	size_t n;

	if (q >= e || *q != '<')
		return 0;
	if (e - q >= 4 && !memcmp(q, "<!--", 4))
		return 2;
	if (e - q >= 2 && q[1] == '?')
		return 3;
	if (e - q >= 9 && !memcmp(q, "<![CDATA[", 9))
		return 5;
	if (e - q >= 2 && q[1] == '!' && isalpha((unsigned char)q[2]))
		return 4;
	n = tag_name(q + 1, e);
	if (n && one_of(q + 1, n, raw_tags, 4) && name_ends(q + 1 + n, e) &&
	    (q + 1 + n == e || q[1 + n] != '/'))
		return 1;
	t = q + 1 + (q + 1 < e && q[1] == '/');
	n = tag_name(t, e);
	if (n && one_of(t, n, block_tags,
			sizeof(block_tags) / sizeof(*block_tags)) &&
	    name_ends(t + n, e))
		return 6;
	/* a complete tag alone on its line (approximated: ends in '>') */
	while (e > q && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (!para && n && e[-1] == '>')
		return 7;
	return 0;
}

/* Does the line end a block of kind 1 to 5? */
static int ends(int kind, const char *p, const char *e)
{
	size_t i;

	if (kind != 1)
		return has_ci(p, e, end_marks[kind]);
	for (i = 0; i < sizeof(raw_tags) / sizeof(*raw_tags); i++) {
		char close[16];

		strcpy(close, "</");
		strcat(close, raw_tags[i]);
		strcat(close, ">");
		if (has_ci(p, e, close))
			return 1;
	}
	return 0;
}

int html_block_line(struct html_block *h, const char *p, const char *e,
		    int para)
{
	const char *q = p;

	if (h->kind >= 6) {
		if (!blank(p, e))
			return 1;
		h->kind = 0;
		return 0;
	}
	if (h->kind) {
		if (ends(h->kind, p, e))
			h->kind = 0;
		return 1;
	}
	while (q < e && *q == ' ' && q - p < 3)
		q++;
	h->kind = start_kind(q, e, para);
	if (!h->kind)
		return 0;
	/* kinds 1 to 5 may end on their first line */
	if (h->kind <= 5 && ends(h->kind, q + 1, e))
		h->kind = 0;
	return 1;
}
