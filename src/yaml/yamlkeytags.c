/*
 * The tags' own printers for scalars inside a collection key, as
 * yaml@2.8.3 has them: the YAML 1.1 schema's (schema/yaml-1.1/bool.js,
 * int.js, float.js: booleans keep a 1.1 spelling of their own value,
 * numbers print in the format they were written in, 0b, 0 octal, 0x,
 * exponent, sexagesimal), the timestamp's and the binary's.
 */
#include "config.h"
#include "yamlkey-priv.h"
#include "yaml11.h"
#include "yamlload.h"
#include "json/numfmt.h"
#include "datetime.h"

#include <math.h>
#include <stdint.h>
#include <string.h>


void ykey11_bool(struct strbuf *out, const char *src, size_t n, int value)
{
	if (yaml11_bool_form(src, n) == value)
		strbuf_add(out, src, n);
	else
		strbuf_addstr(out, value ? "true" : "false");
}

/*
 * Number.prototype.toString(radix) of a non-negative integer a, radix 2,
 * 8 or 16: V8's digits are exact for a power of two.  a is m * 2^e with
 * a 53-bit m; a digit takes `bits` bits of that from the right.
 */
static void radix_digits(struct strbuf *out, double a, int radix)
{
	int bits = radix == 2 ? 1 : radix == 8 ? 3 : 4, ex, e, high, j, b;
	uint64_t m;

	if (a == 0) {
		strbuf_addch(out, '0');
		return;
	}
	m = (uint64_t)ldexp(frexp(a, &ex), 53);
	e = ex - 53;
	if (e < 0) {		/* an integer below 2^53: m has -e zero bits */
		m >>= -e;
		e = 0;
	}
	for (high = 63; !((m >> high) & 1); high--)
		;
	for (j = (high + e) / bits; j >= 0; j--) {
		int digit = 0;

		for (b = bits - 1; b >= 0; b--) {
			int p = j * bits + b - e;

			digit = 2 * digit +
				(p >= 0 && p < 64 ? (int)((m >> p) & 1) : 0);
		}
		strbuf_addch(out, "0123456789abcdef"[digit]);
	}
}

int ykey_radix_string(struct strbuf *out, double d, int radix,
		      const char *prefix)
{
	if (!isfinite(d) || d != floor(d)) {
		ykey_number_string(out, d, 0, 0);
		return 0;
	}
	if (d < 0)
		strbuf_addch(out, '-');
	strbuf_addstr(out, prefix);
	radix_digits(out, fabs(d), radix);
	return 0;
}

/* stringifySexagesimal(): [hours:]minutes:seconds, each part String()ed
 * and padded to two digits, float noise ("000000...") cut off the end. */
static void sexagesimal(struct strbuf *out, double d)
{
	char num[NUMFMT_MAX];
	double parts[3];
	size_t np = 0, i, start = out->len, len;

	if (isnan(d) || isinf(d)) {
		ykey_number_string(out, d, 0, 0);
		return;
	}
	if (d < 0) {
		strbuf_addch(out, '-');
		d = -d;
		start++;
	}
	parts[0] = fmod(d, 60);
	if (d < 60) {
		parts[1] = parts[0];
		parts[0] = 0;
		np = 2;
	} else {
		double m;

		d = (d - parts[0]) / 60;
		m = fmod(d, 60);
		if (d >= 60) {
			parts[2] = parts[0];
			parts[1] = m;
			parts[0] = (d - m) / 60;
			np = 3;
		} else {
			parts[1] = parts[0];
			parts[0] = m;
			np = 2;
		}
	}
	for (i = 0; i < np; i++) {
		size_t n = numfmt_es(num, parts[i]);

		if (i)
			strbuf_addch(out, ':');
		if (n < 2)
			strbuf_addch(out, '0');
		strbuf_add(out, num, n);
	}
	/* .replace(/000000\d*$/, '') */
	len = out->len;
	for (i = start; i + 6 <= len; i++) {
		size_t k = i;

		if (memcmp(out->buf + i, "000000", 6))
			continue;
		while (k < len && out->buf[k] >= '0' && out->buf[k] <= '9')
			k++;
		if (k == len) {
			strbuf_setlen(out, i);
			break;
		}
	}
}

int ykey11_number(struct walk *w, struct strbuf *out, const struct value *v,
		  const struct ykey_node *n)
{
	double d = v->u.number;
	size_t min_frac;
	int tagged_float = n->tag && !strcmp(n->tag, TAG_PREFIX "float");

	switch (yaml11_number_format(n->source, n->source_len, &min_frac)) {
	case 'b':
		return ykey_radix_string(out, d, 2, "0b");
	case 'o':
		return ykey_radix_string(out, d, 8, "0");
	case 'x':
		return ykey_radix_string(out, d, 16, "0x");
	case 'e':
		if (isfinite(d))
			ykey_to_exponential(out, d);
		else
			ykey_number_string(out, d, 0, 0);
		return 0;
	case 't':
		sexagesimal(out, d);
		return 0;
	default:
		ykey_number_string(out, d, min_frac, !n->tag || tagged_float);
		return 0;
	}
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* The numbers in s at i: digits, stopping at anything else. */
static int64_t read_num(const char *s, size_t n, size_t *i)
{
	int64_t v = 0;

	while (*i < n && s[*i] >= '0' && s[*i] <= '9')
		v = v * 10 + (s[(*i)++] - '0');
	return v;
}

/*
 * The timestamp tag's printer: the Date yaml's resolve() builds from s
 * (Date.UTC() of the parts, years 0..99 meaning 1900..1999, then the
 * zone, whose hours under 30 count as hours and otherwise as minutes),
 * as toISOString() prints it less a zero time and zero milliseconds.
 */
void ykey_date_string(struct strbuf *out, const char *s, size_t n)
{
	int64_t y, mo, d, h = 0, mi = 0, sec = 0, ms = 0, t, day;
	size_t i = 0;
	int m, dd;

	y = read_num(s, n, &i);
	i++;
	mo = read_num(s, n, &i);
	i++;
	d = read_num(s, n, &i);
	while (i < n && strchr("tT \t", s[i]))
		i++;
	if (i < n) {
		h = read_num(s, n, &i);
		i++;
		mi = read_num(s, n, &i);
		i++;
		sec = read_num(s, n, &i);
		if (i < n && s[i] == '.') {
			int k;

			i++;
			for (k = 0; k < 3; k++)
				ms = ms * 10 + (i < n && s[i] >= '0' &&
						s[i] <= '9' ? s[i++] - '0' : 0);
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
		}
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	}
	if (y <= 99)
		y += 1900;
	if (!mo) {		/* month -1 of Date.UTC: December before */
		y--;
		mo = 12;
	}
	y += (mo - 1) / 12;	/* months up to 99 carry into years */
	mo = (mo - 1) % 12 + 1;
	day = datetime_days_from_civil(y, (int)mo, 1) + d - 1;
	t = day * 86400000 + h * 3600000 + mi * 60000 + sec * 1000 + ms;
	if (i < n && s[i] != 'Z') {
		int neg = s[i] == '-';
		int64_t z;

		i++;
		z = read_num(s, n, &i);
		if (i < n && s[i] == ':') {
			i++;
			z = z * 60 + read_num(s, n, &i);
		}
		if (z < 30)
			z *= 60;
		t -= 60000 * (neg ? -z : z);
	}
	day = t >= 0 ? t / 86400000 : -((-t + 86399999) / 86400000);
	t -= day * 86400000;
	civil_from_days(day, &y, &m, &dd);
	if (y >= 0 && y <= 9999)
		strbuf_addf(out, "%04lld", (long long)y);
	else
		strbuf_addf(out, "%c%06lld", y < 0 ? '-' : '+',
			    (long long)(y < 0 ? -y : y));
	strbuf_addf(out, "-%02d-%02d", m, dd);
	if (t % 1000)
		strbuf_addf(out, "T%02d:%02d:%02d.%03dZ", (int)(t / 3600000),
			    (int)(t / 60000 % 60), (int)(t / 1000 % 60),
			    (int)(t % 1000));
	else if (t)
		strbuf_addf(out, "T%02d:%02d:%02d", (int)(t / 3600000),
			    (int)(t / 60000 % 60), (int)(t / 1000 % 60));
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/*
 * The binary tag's printer: base64, cut into lines of the width left
 * after the indentation (joined by line breaks for a literal block
 * scalar, by spaces otherwise, not cut when double-quoted), then printed
 * as a string in the scalar's own style.
 */
int ykey_binary_string(struct walk *w, struct strbuf *out,
		       const struct value *v, int style, const struct sctx *c)
{
	const unsigned char *p = (const unsigned char *)v->u.str.ptr;
	size_t n = v->u.str.len, i, width;
	struct strbuf enc = STRBUF_INIT, str = STRBUF_INIT;
	int ret;

	for (i = 0; i + 2 < n; i += 3) {
		strbuf_addch(&enc, b64[p[i] >> 2]);
		strbuf_addch(&enc, b64[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
		strbuf_addch(&enc, b64[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)]);
		strbuf_addch(&enc, b64[p[i + 2] & 63]);
	}
	if (i < n) {
		strbuf_addch(&enc, b64[p[i] >> 2]);
		if (i + 1 < n) {
			strbuf_addch(&enc, b64[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
			strbuf_addch(&enc, b64[(p[i + 1] & 15) << 2]);
		} else {
			strbuf_addch(&enc, b64[(p[i] & 3) << 4]);
			strbuf_addch(&enc, '=');
		}
		strbuf_addch(&enc, '=');
	}
	width = LINE_WIDTH > c->indent + MIN_CONTENT_WIDTH ?
		LINE_WIDTH - c->indent : MIN_CONTENT_WIDTH;
	for (i = 0; style != YKEY_DOUBLE && i < enc.len; i += width) {
		if (i)
			strbuf_addch(&str, style == YKEY_BLOCK ? '\n' : ' ');
		strbuf_add(&str, enc.buf + i,
			   enc.len - i < width ? enc.len - i : width);
	}
	if (style == YKEY_DOUBLE)
		ret = ykey_double_quoted(w, out, enc.buf, enc.len, c);
	else if (style == YKEY_PLAIN)
		ret = ykey_plain(w, out, str.buf, str.len, c, 0);
	else
		ret = ykey_string_scalar(w, out, str.buf, str.len, style, c);
	strbuf_release(&enc);
	strbuf_release(&str);
	return ret;
}
