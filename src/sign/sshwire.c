#include "config.h"
#include "sshwire.h"
#include "strutil.h"

#include <string.h>

int sshwire_u32(struct sshwire *r, uint32_t *out)
{
	if (r->len < 4)
		return -1;
	*out = (uint32_t)r->p[0] << 24 | (uint32_t)r->p[1] << 16 |
		(uint32_t)r->p[2] << 8 | (uint32_t)r->p[3];
	r->p += 4;
	r->len -= 4;
	return 0;
}

int sshwire_byte(struct sshwire *r, unsigned char *out)
{
	if (!r->len)
		return -1;
	*out = *r->p++;
	r->len--;
	return 0;
}

int sshwire_string(struct sshwire *r, const unsigned char **out, size_t *len)
{
	struct sshwire save = *r;
	uint32_t n;

	if (sshwire_u32(r, &n) || n > r->len) {
		*r = save;
		return -1;
	}
	*out = r->p;
	*len = n;
	r->p += n;
	r->len -= n;
	return 0;
}

int sshwire_sub(struct sshwire *r, struct sshwire *out)
{
	const unsigned char *p;
	size_t len;

	if (sshwire_string(r, &p, &len))
		return -1;
	sshwire_init(out, p, len);
	return 0;
}

int sshwire_string_is(struct sshwire *r, const char *s)
{
	const unsigned char *p;
	size_t len;

	if (sshwire_string(r, &p, &len))
		return -1;
	return len == strlen(s) && !memcmp(p, s, len);
}

int sshwire_mpint(struct sshwire *r, const unsigned char **out, size_t *len)
{
	const unsigned char *p;
	size_t n;

	if (sshwire_string(r, &p, &n))
		return -1;
	if (n && (p[0] & 0x80))
		return -1;
	while (n && !p[0]) {
		p++;
		n--;
	}
	*out = p;
	*len = n;
	return 0;
}

void sshwire_add_quoted(struct strbuf *out, const void *p, size_t len)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < len && i < 64; i++)
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
			strbuf_addch(out, (char)s[i]);
		else
			strbuf_addf(out, "\\x%02x", s[i]);
	if (len > 64)
		strbuf_addstr(out, "...");
}

void sshwire_put_u32(struct strbuf *out, uint32_t v)
{
	unsigned char b[4];

	b[0] = (unsigned char)(v >> 24);
	b[1] = (unsigned char)(v >> 16);
	b[2] = (unsigned char)(v >> 8);
	b[3] = (unsigned char)v;
	strbuf_add(out, b, 4);
}

void sshwire_put_string(struct strbuf *out, const void *p, size_t len)
{
	sshwire_put_u32(out, (uint32_t)len);
	strbuf_add(out, p, len);
}

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_decode(struct strbuf *out, const char *s, size_t len,
		  int skip_space)
{
	size_t start = out->len, i, pad = 0;
	unsigned acc = 0;
	int bits = 0, nchars = 0;

	for (i = 0; i < len; i++) {
		char c = s[i];
		int v;

		if (skip_space && (c == ' ' || c == '\t' || c == '\r' ||
				   c == '\n'))
			continue;
		if (c == '=') {
			pad++;
			continue;
		}
		if (pad)
			goto fail;	/* data after padding */
		v = base64_digit((unsigned char)c, 0);
		if (v < 0)
			goto fail;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		nchars++;
		if (bits >= 8) {
			bits -= 8;
			strbuf_addch(out, (char)((acc >> bits) & 0xff));
		}
	}
	/* Padding brings the characters to a multiple of four, no more. */
	if (pad && (nchars + pad) % 4)
		goto fail;
	if (pad > 2 || nchars % 4 == 1)
		goto fail;
	if (bits && (acc & ((1u << bits) - 1)))
		goto fail;
	return 0;
fail:
	strbuf_setlen(out, start);
	return -1;
}

void base64_encode(struct strbuf *out, const void *data, size_t len,
		   int no_pad)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		strbuf_addch(out, b64_alphabet[p[i] >> 2]);
		strbuf_addch(out, b64_alphabet[(p[i] & 3) << 4 | p[i + 1] >> 4]);
		strbuf_addch(out, b64_alphabet[(p[i + 1] & 15) << 2 |
					       p[i + 2] >> 6]);
		strbuf_addch(out, b64_alphabet[p[i + 2] & 63]);
	}
	if (len - i == 1) {
		strbuf_addch(out, b64_alphabet[p[i] >> 2]);
		strbuf_addch(out, b64_alphabet[(p[i] & 3) << 4]);
		if (!no_pad)
			strbuf_addstr(out, "==");
	} else if (len - i == 2) {
		strbuf_addch(out, b64_alphabet[p[i] >> 2]);
		strbuf_addch(out, b64_alphabet[(p[i] & 3) << 4 | p[i + 1] >> 4]);
		strbuf_addch(out, b64_alphabet[(p[i + 1] & 15) << 2]);
		if (!no_pad)
			strbuf_addch(out, '=');
	}
}
