/*
 * The plain reading of a sidecar (see sidecar-int.h): one pass over the
 * bytes straight into struct sidecar, with no tree and no allocation per
 * value; strings are cut in place.
 *
 * A sidecar as the reference writes it is plain JSON of one known
 * shape.  This reads exactly that and gives up on anything else (an
 * escape, a repeated or unknown key, a value of another type, a check
 * that fails), leaving the answer and its message to sidecar_parse().
 * So it only has to agree with sidecar_parse() on what it accepts:
 * plainness is jsonplain.h's, the very test jval_loadb_plain() makes,
 * and the checks are check_document()'s, field by field (t/unit/
 * t-sidecar-plain.c holds the two readings to the same fields on
 * thousands of generated and mangled sidecars).
 */
#include "config.h"
#include "sidecar-int.h"
#include "json/jsonplain.h"
#include "strutil.h"
#include "usage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A list of strings by index: q->strings moves while it grows. */
struct span {
	size_t first, nr;
};

struct quick {
	char *p, *end;
	struct sidecar *sc;
	const char **strings;
	size_t nr, alloc;
	struct span argv, requested, effective;
	struct sidecar_model *models;
	size_t models_alloc;
	struct sidecar_input *input;	/* the one being read */
};

/*
 * The top-level keys this reads, each of sidecar_fields[].  Its own
 * list, in the order of the enum: a field added there is a key unknown
 * here, so a sidecar that has it goes to sidecar_parse().
 */
enum {
	K_SCHEMA_VERSION, K_KIND, K_AHD_VERSION, K_AHD_COMMIT, K_GIT_DIRTY,
	K_NODE_VERSION, K_PLATFORM, K_INVOKED_AT, K_ARGV, K_TOKEN, K_BRIEF,
	K_SAMPLING, K_MODELS, K_CONDITIONS, K_BACKFILLED
};

static const char *const top_keys[] = {
	"schema_version", "kind", "ahd_version", "ahd_commit", "git_dirty",
	"node_version", "platform", "invoked_at", "argv", "token", "brief",
	"sampling", "models", "conditions", "backfilled", NULL,
};

/* All of them must be there but backfilled. */
#define TOP_REQUIRED ((1u << K_BACKFILLED) - 1)

/* Whether the next character past whitespace is c; if so, past it. */
static int next_is(struct quick *q, char c)
{
	q->p = (char *)jsonplain_space(q->p, q->end);
	if (q->p < q->end && *q->p == c) {
		q->p++;
		return 1;
	}
	return 0;
}

/* A plain string, NUL-terminated in place: the string, or NULL. */
static const char *string(struct quick *q)
{
	const char *next;
	char *s;
	long len;

	if (!next_is(q, '"'))
		return NULL;
	s = q->p;
	len = jsonplain_string(s, q->end, &next);
	if (len < 0)
		return NULL;
	s[len] = '\0';
	q->p = (char *)next;
	return s;
}

/* A string that is not empty into *out: 0, or -1. */
static int nonempty(struct quick *q, const char **out)
{
	*out = string(q);
	return *out && **out ? 0 : -1;
}

/*
 * The word (true, false, null) when it is next: 1 and past it, else 0.
 * What follows it is the caller's to check, as after any value.
 */
static int literal(struct quick *q, const char *word)
{
	size_t n = strlen(word);

	q->p = (char *)jsonplain_space(q->p, q->end);
	if ((size_t)(q->end - q->p) < n || memcmp(q->p, word, n))
		return 0;
	q->p += n;
	return 1;
}

static int number(struct quick *q, double *out)
{
	const char *next;

	q->p = (char *)jsonplain_space(q->p, q->end);
	if (jsonplain_number(out, q->p, q->end, &next))
		return -1;
	q->p = (char *)next;
	return 0;
}

/* A number that is a whole one, as sidecar.c's is_integer() says. */
static int integer(struct quick *q, double *out)
{
	if (number(q, out) || !isfinite(*out) || *out != floor(*out))
		return -1;
	return 0;
}

/* An array of strings, kept in q->strings when out is not NULL. */
static int strings(struct quick *q, struct span *out, size_t *nr)
{
	const char *s;

	*nr = 0;
	if (out)
		out->first = q->nr;
	if (!next_is(q, '['))
		return -1;
	if (next_is(q, ']'))
		return 0;
	do {
		if (!(s = string(q)))
			return -1;
		if (out) {
			ALLOC_GROW(q->strings, q->nr + 1, q->alloc);
			q->strings[q->nr++] = s;
		}
		(*nr)++;
	} while (next_is(q, ','));
	if (out)
		out->nr = *nr;
	return next_is(q, ']') ? 0 : -1;
}

typedef int (*member_fn)(struct quick *q, int which);

/*
 * An object whose keys are among keys (fewer than 32), none twice, the
 * ones in the mask required all there; member() reads each value.
 * Returns 0, or -1.
 */
static int object(struct quick *q, const char *const *keys,
		  unsigned required, member_fn member)
{
	unsigned seen = 0;
	int k = -1;

	if (!next_is(q, '{'))
		return -1;
	if (next_is(q, '}'))
		return required ? -1 : 0;
	do {
		const char *key = string(q);

		if (!key || !next_is(q, ':'))
			return -1;
		/* the key after the last one first: the reference's order */
		if (!keys[++k] || strcmp(keys[k], key))
			for (k = 0; keys[k] && strcmp(keys[k], key); k++)
				;
		if (!keys[k] || (seen & (1u << k)))
			return -1;
		seen |= 1u << k;
		if (member(q, k))
			return -1;
	} while (next_is(q, ','));
	if (!next_is(q, '}'))
		return -1;
	return (seen & required) == required ? 0 : -1;
}

/* token and brief: "path" not empty, "hash" sha256: and 64 hex digits */
static int input_member(struct quick *q, int which)
{
	if (!which)
		return nonempty(q, &q->input->path);
	q->input->hash = string(q);
	/* The reference's pattern is case-insensitive. */
	return q->input->hash && is_sha256_hash(q->input->hash, HEX_ANY_CASE) ?
		0 : -1;
}

static int input(struct quick *q, struct sidecar_input *in, int nullable)
{
	static const char *const keys[] = { "path", "hash", NULL };

	if (nullable && literal(q, "null"))
		return 0;
	q->input = in;
	return object(q, keys, 3, input_member);
}

static int sampling_member(struct quick *q, int which)
{
	struct sidecar *sc = q->sc;

	switch (which) {
	case 0:
		return integer(q, &sc->n) || sc->n <= 0 ? -1 : 0;
	case 1:
		if (literal(q, "null"))
			return 0;
		sc->has_temperature = 1;
		return number(q, &sc->temperature);
	default:
		if (literal(q, "null"))
			return 0;
		sc->has_seed = 1;
		return integer(q, &sc->seed);
	}
}

static int model_member(struct quick *q, int which)
{
	struct sidecar_model *m = &q->sc->models[q->sc->models_nr - 1];

	switch (which) {
	case 0:
		return nonempty(q, &m->id);
	case 1:
		return nonempty(q, &m->provider);
	default:
		return strings(q, NULL, &m->request_ids);
	}
}

static int models(struct quick *q)
{
	static const char *const keys[] = {
		"id", "provider", "provider_request_ids", NULL,
	};
	struct sidecar *sc = q->sc;

	if (!next_is(q, '['))
		return -1;
	if (next_is(q, ']'))
		return 0;
	do {
		ALLOC_GROW(q->models, sc->models_nr + 1, q->models_alloc);
		sc->models = q->models;
		memset(&sc->models[sc->models_nr++], 0, sizeof(*sc->models));
		if (object(q, keys, 7, model_member))
			return -1;
	} while (next_is(q, ','));
	return next_is(q, ']') ? 0 : -1;
}

static int conditions_member(struct quick *q, int which)
{
	size_t nr;

	return strings(q, which ? &q->effective : &q->requested, &nr);
}

static int top_member(struct quick *q, int which)
{
	static const char *const sampling_keys[] = {
		"n", "temperature", "seed", NULL,
	};
	static const char *const conditions_keys[] = {
		"requested", "effective", NULL,
	};
	struct sidecar *sc = q->sc;
	size_t nr;

	switch (which) {
	case K_SCHEMA_VERSION:
		return number(q, &sc->schema_version) ||
		       sc->schema_version != SIDECAR_SCHEMA_VERSION ? -1 : 0;
	case K_KIND:
		sc->kind = string(q);
		return sc->kind && sidecar_kind_known(sc->kind) ? 0 : -1;
	case K_AHD_VERSION:
		return nonempty(q, &sc->ahd_version);
	case K_AHD_COMMIT:
		return literal(q, "null") || (sc->ahd_commit = string(q)) ?
			0 : -1;
	case K_GIT_DIRTY:
		sc->git_dirty = literal(q, "true") ? 1 :
			literal(q, "false") ? 0 : -1;
		return sc->git_dirty >= 0 || literal(q, "null") ? 0 : -1;
	case K_NODE_VERSION:
		return nonempty(q, &sc->node_version);
	case K_PLATFORM:
		return nonempty(q, &sc->platform);
	case K_INVOKED_AT:
		return (sc->invoked_at = string(q)) ? 0 : -1;
	case K_ARGV:
		return strings(q, &q->argv, &nr);
	case K_TOKEN:
		return input(q, &sc->token, 0);
	case K_BRIEF:
		return input(q, &sc->brief, 1);
	case K_SAMPLING:
		return object(q, sampling_keys, 7, sampling_member);
	case K_MODELS:
		return models(q);
	case K_CONDITIONS:
		return object(q, conditions_keys, 3, conditions_member);
	default:	/* K_BACKFILLED, the last of top_keys */
		sc->backfilled = literal(q, "true");
		return sc->backfilled || literal(q, "false") ? 0 : -1;
	}
}

static void set_list(struct sidecar_strings *out, const struct quick *q,
		     const struct span *s)
{
	out->items = q->strings + s->first;
	out->nr = s->nr;
}

int sidecar_read_plain(struct sidecar *sc, char *text, size_t len)
{
	struct sidecar got = SIDECAR_INIT;
	struct quick q;

	memset(&q, 0, sizeof(q));
	q.p = text;
	q.end = text + len;
	q.sc = &got;
	if (object(&q, top_keys, TOP_REQUIRED, top_member) ||
	    jsonplain_space(q.p, q.end) != q.end) {
		free(q.strings);
		free(q.models);
		return -1;
	}
	/* one array for all three lists, as sidecar.c's; never empty */
	ALLOC_GROW(q.strings, q.nr + 1, q.alloc);
	set_list(&got.argv, &q, &q.argv);
	set_list(&got.requested, &q, &q.requested);
	set_list(&got.effective, &q, &q.effective);
	got.strings = q.strings;
	got.unknown = sc->unknown;
	*sc = got;
	return 0;
}
