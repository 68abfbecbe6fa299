#ifndef VERIFY_KEYLINES_H
#define VERIFY_KEYLINES_H

#include <stddef.h>

/*
 * The line of each object key in a JSON text, found in one pass, so that
 * a sidecar with many errors costs its size once, not once per error.
 * Keys are kept as their raw bytes between the quotes (escapes as
 * written); the text must outlive the index.
 */
struct keyline {
	const char *key;
	size_t len;
	size_t off;	/* of the opening quote */
	long line;
};

struct keylines {
	struct keyline *v;
	size_t nr, alloc;
};
#define KEYLINES_INIT { NULL, 0, 0 }

/* Index every key of text (len bytes): a string followed by ':'. */
void keylines_build(struct keylines *kl, const char *text, size_t len);

/*
 * The line of the first key spelled key (len bytes) at or after byte
 * off, or 0 when there is none; with off_out, its offset there.
 */
long keylines_find(const struct keylines *kl, const char *key, size_t len,
		   size_t off, size_t *off_out);

void keylines_release(struct keylines *kl);

#endif
