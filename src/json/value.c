#include "config.h"
#include "value.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;
	size_t size;	/* bytes in data, for arena_clear() */
	max_align_t data[];
};

#define ARENA_BLOCK (64 * 1024)

/*
 * Nodes hold doubles and pointers: 8-byte alignment is all they need, and
 * the documents can be large, so max_align_t's 16 would waste memory.
 */
#define ARENA_ALIGN 8

void *arena_alloc(struct arena *a, size_t size)
{
	void *p;

	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (size > a->left) {
		size_t want = size > ARENA_BLOCK / 4 ? size : ARENA_BLOCK;
		struct arena_block *b = xmalloc(sizeof(*b) + want);

		b->size = want;
		if (size > ARENA_BLOCK / 4 && a->head) {
			/* A big request gets a block of its own behind the
			 * current one, so the current block's tail stays in
			 * use. */
			b->next = a->head->next;
			a->head->next = b;
			a->total += size;
			return b->data;
		}
		b->next = a->head;
		a->head = b;
		a->cur = (char *)b->data;
		a->left = want;
	}
	p = a->cur;
	a->cur += size;
	a->left -= size;
	a->total += size;
	return p;
}

char *arena_memdup(struct arena *a, const void *data, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	if (len)
		memcpy(p, data, len);
	p[len] = '\0';
	return p;
}

void arena_release(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
	a->head = NULL;
	a->cur = NULL;
	a->left = 0;
	a->total = 0;
}

void arena_clear(struct arena *a)
{
	struct arena_block *b = a->head, *keep = NULL;

	while (b) {
		struct arena_block *next = b->next;

		if (!keep && b->size == ARENA_BLOCK)
			keep = b;
		else
			free(b);
		b = next;
	}
	a->head = keep;
	a->cur = keep ? (char *)keep->data : NULL;
	a->left = keep ? ARENA_BLOCK : 0;
	a->total = 0;
	if (keep)
		keep->next = NULL;
}

struct value *value_new(struct arena *a, enum value_kind kind)
{
	struct value *v = arena_alloc(a, sizeof(*v));

	memset(v, 0, sizeof(*v));
	v->kind = kind;
	return v;
}
