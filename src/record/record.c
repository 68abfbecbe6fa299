/*
 * A record and AHD's layout of it (see record.h).
 */
#include "config.h"
#include "record.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

void record_add_input(struct record *r, const char *name, const char *path,
		      const char *hash, enum pin_mode mode)
{
	struct pinned_input *in;

	ALLOC_GROW(r->inputs, r->nr + 1, r->alloc);
	in = &r->inputs[r->nr++];
	in->name = name;
	in->own_name = NULL;
	in->path = xstrdup(path);
	in->hash = xstrdup(hash);
	in->mode = mode;
}

void record_from_sidecar(struct record *out, const struct sidecar *sc,
			 const char *file, const char *report)
{
	strbuf_addstr(&out->file, file);
	if (report)
		strbuf_addstr(&out->report, report);
	out->commit = sc->ahd_commit ? xstrdup(sc->ahd_commit) : NULL;
	record_add_input(out, "token", sc->token.path, sc->token.hash,
			 PIN_STRUCTURED);
	/* The reference's rule: a brief's bytes first, then its structure. */
	if (sc->brief.path)
		record_add_input(out, "brief", sc->brief.path, sc->brief.hash,
				 PIN_RAW_THEN_STRUCTURED);
}

void record_release(struct record *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->inputs[i].own_name);
		free(r->inputs[i].path);
		free(r->inputs[i].hash);
	}
	free(r->inputs);
	free(r->commit);
	strbuf_release(&r->file);
	strbuf_release(&r->report);
	r->commit = NULL;
	r->inputs = NULL;
	r->nr = r->alloc = 0;
}
