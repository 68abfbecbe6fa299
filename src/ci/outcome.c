/*
 * Outcomes of a run for the CI formats (see outcome.h).
 */
#include "config.h"
#include "outcome.h"
#include "hash/digest.h"
#include "fs/readfile.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

/* Sidecars are small; one this large has no line worth pointing at. */
#define LINE_SEARCH_MAX (16u << 20)

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void case_release(struct outcome_case *c)
{
	free(c->group);
	free(c->name);
	free(c->message);
	free(c->file);
	free(c->fingerprint);
}

struct outcome_case *outcome_add(struct outcome *o, const char *group,
				 const char *name, enum outcome_status status,
				 const char *rule, const char *message)
{
	struct outcome_case *c;

	if (o->failures_only && (status == OUTCOME_PASS ||
				 status == OUTCOME_SKIPPED)) {
		c = &o->scratch;
		case_release(c);
	} else {
		ALLOC_GROW(o->v, o->nr + 1, o->alloc);
		c = &o->v[o->nr++];
	}
	memset(c, 0, sizeof(*c));
	c->group = xstrdup(group);
	c->name = xstrdup(name);
	c->status = status;
	c->rule = rule;
	c->message = dup_or_null(message);
	return c;
}

void outcome_set_location(struct outcome_case *c, const char *file, long line)
{
	free(c->file);
	c->file = dup_or_null(file);
	c->line = line;
}

void outcome_set_fingerprint(struct outcome_case *c, const char *const *parts,
			     size_t n)
{
	struct strbuf all = STRBUF_INIT;
	char hex[DIGEST_HEX_MAX];
	size_t i;

	/* NUL between parts: no two lists of parts give the same bytes. */
	for (i = 0; i < n; i++)
		strbuf_add(&all, parts[i], strlen(parts[i]) + 1);
	free(c->fingerprint);
	c->fingerprint = digest_buffer_hex(hex, all.buf, all.len) ? NULL :
		xstrdup(hex);
	strbuf_release(&all);
}

void outcome_release(struct outcome *o)
{
	size_t i;

	for (i = 0; i < o->nr; i++)
		case_release(&o->v[i]);
	case_release(&o->scratch);
	memset(&o->scratch, 0, sizeof(o->scratch));
	free(o->v);
	o->v = NULL;
	o->nr = o->alloc = 0;
}

long outcome_line_of(const char *path, const char *after, const char *needle)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	const char *start, *hit, *p;
	long line = 0;

	if (!*needle || read_file_limited(&text, path, LINE_SEARCH_MAX,
					  &why) < 0)
		goto out;
	start = text.buf;
	if (after && (hit = strstr(text.buf, after)))
		start = hit;
	hit = strstr(start, needle);
	if (!hit && start != text.buf)
		hit = strstr(text.buf, needle);
	if (!hit)
		goto out;
	line = 1;
	for (p = text.buf; p < hit; p++)
		if (*p == '\n')
			line++;
out:
	strbuf_release(&text);
	strbuf_release(&why);
	return line;
}
