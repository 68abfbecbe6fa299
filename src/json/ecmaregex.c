/*
 * ECMA-262 regular expressions (JSON Schema's "pattern") as POSIX
 * extended regular expressions, translated only where the translation
 * is exact for UTF-8 input; ecmaregex.h lists what is accepted.
 */
#include "config.h"
#include "ecmaregex.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <string.h>

/* POSIX guarantees at least this RE_DUP_MAX; ECMA-262 has no limit. */
#define MAX_REPEAT 255

struct pattern_state {
	const unsigned char *p, *end;
	struct strbuf *out;
	struct strbuf *err;
};

static int refuse(struct pattern_state *st, const char *why)
{
	strbuf_addf(st->err, "unsupported pattern construct: %s", why);
	return -1;
}

static int hexdigit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * \xHH or \uHHHH (st->p just past the 'x' or 'u'): the code unit, which
 * must be ASCII and not NUL, since matching is byte-wise.
 */
static int hex_escape(struct pattern_state *st, int digits)
{
	int v = 0, i;

	if (st->end - st->p < digits)
		return refuse(st, "incomplete \\x or \\u escape");
	for (i = 0; i < digits; i++) {
		int d = hexdigit(st->p[i]);

		if (d < 0)
			return refuse(st, "incomplete \\x or \\u escape");
		v = v * 16 + d;
	}
	st->p += digits;
	if (!v || v >= 0x80)
		return refuse(st, "\\x or \\u escape of NUL or a non-ASCII "
			      "character");
	return v;
}

/*
 * The escape after a backslash that stands for one character, in or out
 * of a class (st->p at the character after the backslash).  Returns the
 * byte, -1 with err set, or -2 when it is not a one-character escape
 * (\d, \w), which the caller handles.
 */
static int char_escape(struct pattern_state *st, int in_class)
{
	int c;

	if (st->p >= st->end)
		return refuse(st, "a pattern ending in a backslash");
	c = *st->p;
	switch (c) {
	case 'd':
	case 'w':
		return -2;
	case 't':
		st->p++;
		return '\t';
	case 'n':
		st->p++;
		return '\n';
	case 'r':
		st->p++;
		return '\r';
	case 'f':
		st->p++;
		return '\f';
	case 'v':
		st->p++;
		return '\v';
	case 'b':
		if (!in_class)
			return refuse(st, "\\b (word boundary)");
		st->p++;
		return '\b';
	case 'x':
		st->p++;
		return hex_escape(st, 2);
	case 'u':
		st->p++;
		if (st->p < st->end && *st->p == '{')
			return refuse(st, "\\u{...} (a Unicode-mode escape)");
		return hex_escape(st, 4);
	case 'B':
		return refuse(st, "\\B (word boundary)");
	case 'D':
	case 'W':
	case 's':
	case 'S':
		return refuse(st, "\\D, \\W, \\s and \\S (they match "
			      "non-ASCII characters)");
	case 'c':
		return refuse(st, "\\c (control escape)");
	}
	if (c >= '0' && c <= '9')
		return refuse(st, "backreferences and \\0");
	if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return refuse(st, "an identity escape of a letter or a "
			      "non-ASCII character");
	st->p++;
	return c;
}

static void set_add_range(unsigned char *set, int lo, int hi)
{
	for (; lo <= hi; lo++)
		set[lo] = 1;
}

static void set_add_class(unsigned char *set, int c)
{
	set_add_range(set, '0', '9');
	if (c == 'w') {
		set_add_range(set, 'A', 'Z');
		set_add_range(set, 'a', 'z');
		set['_'] = 1;
	}
}

/* Characters that are special in a POSIX ERE outside a bracket. */
static void emit_literal(struct strbuf *out, int c)
{
	if (strchr("^.[$()|*+?{\\", c))
		strbuf_addch(out, '\\');
	strbuf_addch(out, c);
}

/*
 * Write a set of ASCII characters as a POSIX bracket expression: ']'
 * first, '-' last and '^' never first keep every member literal, and
 * members in ascending order never put '.', ':' or '=' after '['.
 */
static void emit_set(struct strbuf *out, const unsigned char *set)
{
	int c, n = 0, only = 0;

	for (c = 1; c < 0x80; c++)
		if (set[c]) {
			n++;
			only = c;
		}
	if (n == 1) {
		emit_literal(out, only);
		return;
	}
	strbuf_addch(out, '[');
	if (set[']'])
		strbuf_addch(out, ']');
	for (c = 1; c < 0x80; c++)
		if (set[c] && c != ']' && c != '^' && c != '-')
			strbuf_addch(out, c);
	if (set['^'] && n == 2 && set['-']) {
		strbuf_addstr(out, "-^]");
		return;
	}
	if (set['^'])
		strbuf_addch(out, '^');
	if (set['-'])
		strbuf_addch(out, '-');
	strbuf_addch(out, ']');
}

/* One class atom: a character (>= 0), a class escape (-2), or -1. */
static int class_atom(struct pattern_state *st, unsigned char *set)
{
	int c = *st->p;

	if (c == '\\') {
		st->p++;
		c = char_escape(st, 1);
		if (c == -2) {
			set_add_class(set, *st->p);
			st->p++;
		}
		return c;
	}
	if (c >= 0x80)
		return refuse(st, "a non-ASCII character in a class");
	st->p++;
	return c;
}

/* A class, st->p just past the '['. */
static int parse_class(struct pattern_state *st)
{
	unsigned char set[0x80] = { 0 };

	if (st->p < st->end && *st->p == '^')
		return refuse(st, "a negated class [^...] (it matches "
			      "non-ASCII characters)");
	if (st->p < st->end && *st->p == ']')
		return refuse(st, "an empty class []");
	while (st->p < st->end && *st->p != ']') {
		int lo = class_atom(st, set), hi;

		if (lo == -1)
			return -1;
		if (st->p + 1 < st->end && *st->p == '-' && st->p[1] != ']') {
			st->p++;
			hi = class_atom(st, set);
			if (hi == -1)
				return -1;
			if (lo == -2 || hi == -2)
				return refuse(st, "a range with a class "
					      "escape as an end");
			if (lo > hi)
				return refuse(st, "a range out of order");
			set_add_range(set, lo, hi);
		} else if (lo >= 0) {
			set[lo] = 1;
		}
	}
	if (st->p >= st->end)
		return refuse(st, "an unterminated class");
	st->p++;
	emit_set(st->out, set);
	return 0;
}

/* {n}, {n,} or {n,m} at st->p; returns 0 and copies it, or -1. */
static int parse_braces(struct pattern_state *st)
{
	const unsigned char *p = st->p + 1;
	unsigned long lo = 0, hi = 0;
	int has_hi = 0, comma = 0;

	if (p >= st->end || *p < '0' || *p > '9')
		return refuse(st, "a brace that is not a quantifier");
	while (p < st->end && *p >= '0' && *p <= '9' && lo <= MAX_REPEAT)
		lo = lo * 10 + (*p++ - '0');
	if (p < st->end && *p == ',') {
		comma = 1;
		p++;
		while (p < st->end && *p >= '0' && *p <= '9' &&
		       hi <= MAX_REPEAT) {
			hi = hi * 10 + (*p++ - '0');
			has_hi = 1;
		}
	}
	if (p >= st->end || *p != '}')
		return refuse(st, "a brace that is not a quantifier");
	if (lo > MAX_REPEAT || hi > MAX_REPEAT)
		return refuse(st, "a repetition count over 255");
	if (has_hi && lo > hi)
		return refuse(st, "a quantifier {n,m} with n > m");
	if (!comma)
		strbuf_addf(st->out, "{%lu}", lo);
	else if (!has_hi)
		strbuf_addf(st->out, "{%lu,}", lo);
	else
		strbuf_addf(st->out, "{%lu,%lu}", lo, hi);
	st->p = p + 1;
	return 0;
}

/*
 * Translate the ECMA-262 pattern src (len bytes of UTF-8) into a POSIX
 * ERE in out, or refuse it (see jsonschema.h for the subset).  Searching
 * with the result matches exactly the strings that RegExp.prototype.test
 * matches, because every construct we accept matches whole ASCII
 * characters or whole literal sequences, and UTF-8 never hides an ASCII
 * byte inside a multi-byte character.
 */
/* A quantifier at st->p (c is its first character). */
static int quantifier(struct pattern_state *st, int c, int can_repeat)
{
	if (!can_repeat && c == '{')
		return refuse(st, "a brace that is not a quantifier");
	if (!can_repeat)
		return refuse(st, "a quantifier with nothing to repeat");
	if (c == '{') {
		if (parse_braces(st))
			return -1;
	} else {
		strbuf_addch(st->out, c);
		st->p++;
	}
	/* Laziness does not change whether a string matches. */
	if (st->p < st->end && *st->p == '?')
		st->p++;
	return 0;
}

/* An escape outside a class, st->p just past the backslash. */
static int atom_escape(struct pattern_state *st)
{
	int n = char_escape(st, 0);

	if (n == -1)
		return -1;
	if (n == -2) {
		unsigned char set[0x80] = { 0 };

		set_add_class(set, *st->p);
		st->p++;
		emit_set(st->out, set);
	} else {
		emit_literal(st->out, n);
	}
	return 0;
}

/* A literal character starting with byte c at st->p. */
static int literal_char(struct pattern_state *st, int c)
{
	int n = (int)utf8_seq_length(c);

	if (n == 4)
		return refuse(st, "a character outside the Basic "
			      "Multilingual Plane");
	if (st->end - st->p < n)
		return refuse(st, "invalid UTF-8");
	if (n == 1) {
		emit_literal(st->out, c);
	} else {
		/* A quantifier repeats the whole character. */
		strbuf_addch(st->out, '(');
		strbuf_add(st->out, st->p, n);
		strbuf_addch(st->out, ')');
	}
	st->p += n;
	return 0;
}

static int translate_pattern(struct strbuf *out, const char *src, size_t len,
			     struct strbuf *err)
{
	struct pattern_state st;
	int depth = 0, can_repeat = 0, branch_empty = 1;

	st.p = (const unsigned char *)src;
	st.end = st.p + len;
	st.out = out;
	st.err = err;
	if (!len) {
		/* The empty pattern matches every string. */
		strbuf_addch(out, '^');
		return 0;
	}
	if (memchr(src, '\0', len))
		return refuse(&st, "a NUL character");
	while (st.p < st.end) {
		int c = *st.p;

		switch (c) {
		case '*':
		case '+':
		case '?':
		case '{':
			if (quantifier(&st, c, can_repeat))
				return -1;
			can_repeat = 0;
			continue;
		case '}':
			return refuse(&st, "a brace that is not a quantifier");
		case '.':
			return refuse(&st, ". (it matches one UTF-16 code "
				      "unit, not one byte)");
		case '^':
		case '$':
			strbuf_addch(out, c);
			st.p++;
			can_repeat = 0;
			branch_empty = 0;
			continue;
		case '|':
			if (branch_empty)
				return refuse(&st, "an empty alternative");
			strbuf_addch(out, '|');
			st.p++;
			can_repeat = 0;
			branch_empty = 1;
			continue;
		case '(':
			st.p++;
			if (st.p < st.end && *st.p == '?') {
				if (st.p + 1 >= st.end || st.p[1] != ':')
					return refuse(&st, "lookaround, named "
						      "groups and flags");
				st.p += 2;
			}
			strbuf_addch(out, '(');
			depth++;
			can_repeat = 0;
			branch_empty = 1;
			continue;
		case ')':
			if (!depth)
				return refuse(&st, "an unmatched ')'");
			if (branch_empty)
				return refuse(&st, "an empty group or "
					      "alternative");
			strbuf_addch(out, ')');
			st.p++;
			depth--;
			can_repeat = 1;
			branch_empty = 0;
			continue;
		case '[':
			st.p++;
			if (parse_class(&st))
				return -1;
			break;
		case '\\':
			st.p++;
			if (atom_escape(&st))
				return -1;
			break;
		default:
			if (literal_char(&st, c))
				return -1;
			break;
		}
		can_repeat = 1;
		branch_empty = 0;
	}
	if (depth)
		return refuse(&st, "an unterminated group");
	if (branch_empty)
		return refuse(&st, "an empty alternative");
	return 0;
}

int ecmaregex_compile(regex_t *re, const char *src, size_t len,
		      struct strbuf *err)
{
	struct strbuf ere = STRBUF_INIT;
	int rc, ret = -1;

	if (translate_pattern(&ere, src, len, err))
		goto out;
	rc = regcomp(re, ere.buf, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char msg[256];

		regerror(rc, re, msg, sizeof(msg));
		strbuf_addf(err, "cannot compile pattern: %s", msg);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&ere);
	return ret;
}
