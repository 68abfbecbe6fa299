#ifndef SSHWIRE_H
#define SSHWIRE_H

#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"

/*
 * The SSH wire format (RFC 4251 section 5) as SSH keys and SSHSIG
 * signatures use it, read from untrusted bytes: every read checks the
 * bytes left first, so a hostile length can only fail, never read past
 * the end.  Also strict base64 (RFC 4648, standard alphabet).
 */

/* A cursor over borrowed bytes. */
struct sshwire {
	const unsigned char *p;
	size_t len;
};

static inline void sshwire_init(struct sshwire *r, const void *p, size_t len)
{
	r->p = p;
	r->len = len;
}

/* Read a big-endian uint32.  Returns 0, or -1 when too few bytes are left. */
int sshwire_u32(struct sshwire *r, uint32_t *out);

/* Read a byte.  Returns 0 or -1. */
int sshwire_byte(struct sshwire *r, unsigned char *out);

/*
 * Read a string (uint32 length, then the bytes): *out points into the
 * buffer.  Returns 0, or -1 when the length runs past the end.
 */
int sshwire_string(struct sshwire *r, const unsigned char **out, size_t *len);

/* Read a string as a sub-cursor. */
int sshwire_sub(struct sshwire *r, struct sshwire *out);

/* Read a string and compare it with s.  Returns 1 equal, 0 not, -1 short. */
int sshwire_string_is(struct sshwire *r, const char *s);

/*
 * Read an mpint that must be non-negative: *out points at its magnitude
 * with leading zero bytes stripped.  Returns 0, or -1 for a short buffer
 * or a negative number.
 */
int sshwire_mpint(struct sshwire *r, const unsigned char **out, size_t *len);

/*
 * Append untrusted bytes for a message: printable ASCII as is, anything
 * else as \xHH, at most 64 bytes of it (then "...").
 */
void sshwire_add_quoted(struct strbuf *out, const void *p, size_t len);

/* Append a uint32, a string. */
void sshwire_put_u32(struct strbuf *out, uint32_t v);
void sshwire_put_string(struct strbuf *out, const void *p, size_t len);

/*
 * Decode base64 text s[0..len): the standard alphabet, '=' padding only
 * at the end and only as much as needed, unused bits zero (so each
 * value has one text).  When skip_space is set, spaces, tabs, CR and LF
 * between characters are ignored (armour lines).  Appends to out.
 * Returns 0, or -1 for anything else.
 */
int base64_decode(struct strbuf *out, const char *s, size_t len,
		  int skip_space);

/* Append the base64 of data, with padding unless no_pad. */
void base64_encode(struct strbuf *out, const void *data, size_t len,
		   int no_pad);

#endif
