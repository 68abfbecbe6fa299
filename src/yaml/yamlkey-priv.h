#ifndef YAMLKEY_PRIV_H
#define YAMLKEY_PRIV_H

/* Shared by yamlkey.c (collections) and yamlkeyscalar.c (scalars). */

#include <stddef.h>
#include "strbuf.h"
#include "json/value.h"
#include "yamlkey.h"

#define TAG_PREFIX "tag:yaml.org,2002:"
#define LINE_WIDTH 80
#define MIN_CONTENT_WIDTH 20
#define MIN_MULTILINE 40	/* doubleQuotedMinMultiLineLength */

/* The stringify context's fields that matter here. */
struct sctx {
	size_t indent;		/* ctx.indent, in spaces */
	int implicit_key;
	int all_null;		/* ctx.allNullValues */
	long indent_at_start;	/* ctx.indentAtStart, -1 when unset */
};

struct walk {
	struct ykeys *k;
	size_t next;		/* the next noted node */
	struct strbuf *why;
	int status;
};

/* Note the first reason to refuse; returns the walk's status. */
int ykey_refuse(struct walk *w, int status, const char *why);
void ykey_add_spaces(struct strbuf *sb, size_t n);
/* Length in UTF-16 units, as JavaScript's String#length. */
size_t ykey_u16len(const struct strbuf *sb);

/* yaml's stringify() of scalar v, written as note n says, in context c. */
int ykey_scalar_string(struct walk *w, struct strbuf *out,
		       const struct value *v, const struct ykey_node *n,
		       const struct sctx *c);

/* Number.prototype.toExponential() with no argument. */
void ykey_to_exponential(struct strbuf *out, double d);
/* yaml's stringifyNumber(): min_frac zeros after the point at least when
 * float_ok (no format, no tag other than !!float). */
void ykey_number_string(struct strbuf *out, double d, size_t min_frac,
			int float_ok);

/* String printers of yamlkeyscalar.c, in the style given. */
int ykey_plain(struct walk *w, struct strbuf *out, const char *s, size_t n,
	       const struct sctx *c, int actual_string);
int ykey_double_quoted(struct walk *w, struct strbuf *out, const char *s,
		       size_t n, const struct sctx *c);
int ykey_string_scalar(struct walk *w, struct strbuf *out, const char *s,
		       size_t n, int style, const struct sctx *c);

/*
 * The tags' printers (yamlkeytags.c).  ykey_radix_string() is yaml's
 * intStringify(): an integer as value.toString(radix) (2, 8 or 16)
 * behind prefix, the sign in front; anything else as stringifyNumber().
 */
int ykey_radix_string(struct strbuf *out, double d, int radix,
		      const char *prefix);
int ykey_binary_string(struct walk *w, struct strbuf *out,
		       const struct value *v, int style, const struct sctx *c);
void ykey11_bool(struct strbuf *out, const char *src, size_t n, int value);
/* A timestamp scalar's Date, as the timestamp tag prints it. */
void ykey_date_string(struct strbuf *out, const char *s, size_t n);
int ykey11_number(struct walk *w, struct strbuf *out, const struct value *v,
		  const struct ykey_node *n);

#endif
