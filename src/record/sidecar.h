#ifndef SIDECAR_H
#define SIDECAR_H

#include "strbuf.h"
#include "json/jval.h"

/*
 * The replay sidecar (SPEC section 3): reading it as the reference's
 * JSON.parse does, a typed view of the fields verification and rendering
 * use, and writing one exactly as JSON.stringify(value, null, 2) + "\n".
 */

struct sidecar_input {
	const char *path;	/* borrowed from the document */
	const char *hash;
};

/* Strings of the document, in its order (borrowed like the fields). */
struct sidecar_strings {
	const char **items;
	size_t nr;
};

/* A member of "models": what render_markdown() shows of it. */
struct sidecar_model {
	const char *id;
	const char *provider;
	size_t request_ids;	/* how many provider_request_ids */
};

/*
 * The fields point into the document (json), or, when
 * sidecar_parse_fields() read the bytes straight into them, into text;
 * the lists' arrays are sc's own.  sidecar_release() frees all of it.
 */
struct sidecar {
	struct jval *json;	/* the whole document, owned, or NULL */
	double schema_version;
	const char *kind;
	const char *ahd_version;
	const char *ahd_commit;	/* NULL when null */
	int git_dirty;		/* 1, 0, or -1 for null */
	const char *invoked_at;
	struct sidecar_input token;
	struct sidecar_input brief;	/* path NULL when brief is null */
	struct strbuf unknown;	/* top-level keys we do not know, ", "-joined */
	/* the rest of what render_markdown() shows */
	const char *node_version;
	const char *platform;
	double n;
	int has_temperature, has_seed;	/* 0 when null */
	double temperature, seed;
	struct sidecar_model *models;
	size_t models_nr;
	struct sidecar_strings argv, requested, effective;
	int backfilled;		/* "backfilled": true */
	/* storage: the text fields point into, and the lists' items */
	char *text;
	const char **strings;
};
#define SIDECAR_INIT { NULL, 0, NULL, NULL, NULL, -1, NULL, { NULL, NULL }, \
		       { NULL, NULL }, STRBUF_INIT, NULL, NULL, 0, 0, 0, 0, 0, \
		       NULL, 0, { NULL, 0 }, { NULL, 0 }, { NULL, 0 }, 0, \
		       NULL, NULL }

/*
 * The top-level fields a sidecar may have, in the order the reference
 * writes them; NULL-terminated.  Others are kept but noted as unknown.
 */
extern const char *const sidecar_fields[];

/*
 * Sidecars are small; anything this large is not one (the limit of
 * every read of one, so that a caller reading the bytes itself, to parse
 * them with sidecar_parse(), refuses what sidecar_load() would).
 */
#define SIDECAR_MAX_SIZE ((size_t)16 << 20)

/* The newest schema_version this tool understands. */
#define SIDECAR_SCHEMA_VERSION 1

/* A sidecar's signature sits beside it under this suffix (sign/). */
#define SIDECAR_SIGNATURE_SUFFIX ".sig"

/*
 * Sidecar path for a report: a trailing ".md" becomes ".replay.json",
 * any other path gets ".replay.json" appended; a path that already ends
 * in ".replay.json" is the sidecar.  Appends to out.
 */
void sidecar_path_for(struct strbuf *out, const char *report);

/* The report of a sidecar: X.replay.json gives X.md.  Appends to out. */
void sidecar_report_for(struct strbuf *out, const char *sidecar);

/*
 * Read and check the sidecar at path.  Numbers are doubles (JSON.parse);
 * a repeated key keeps its last value.  Checks what verification relies
 * on: an object, schema_version a number not above SIDECAR_SCHEMA_VERSION,
 * token and brief of the right shape with "sha256:" + 64 hex hashes, and
 * the types of the fields shown.  Unknown top-level keys are kept and
 * listed in sc->unknown.  Returns 0, or -1 with a one-line reason in err
 * ("invalid JSON: ...", "/token/hash: must match ...", "written by a newer
 * version ...").  The caller releases sc with sidecar_release() either way.
 */
int sidecar_load(struct sidecar *sc, const char *path, struct strbuf *err);
/*
 * sidecar_load() of a sidecar that must lie inside root unless
 * allow_outside (rootfile.h): a symlink out of it is refused unread.
 */
int sidecar_load_in(struct sidecar *sc, const char *root, const char *path,
		    int allow_outside, struct strbuf *err);
/*
 * sidecar_load_in() with the root found from the sidecar's directory
 * (rootfile_root_for()): for the commands that read a sidecar a user
 * named.
 */
int sidecar_load_named(struct sidecar *sc, const char *path,
		       int allow_outside, struct strbuf *err);
/* The same for a sidecar's bytes already in memory (a blob, say). */
int sidecar_parse(struct sidecar *sc, const char *buf, size_t len,
		  struct strbuf *err);
/*
 * sidecar_parse() for a caller that reads only the fields of struct
 * sidecar, never sc->json: a sidecar as the reference writes it (plain
 * JSON, see jval_loadb_plain(), with only the fields above, each once)
 * is read straight into them, and sc->json stays NULL; any other text
 * is given to sidecar_parse(), so the answer, the fields and the error
 * are always the ones sidecar_parse() gives.
 */
int sidecar_parse_fields(struct sidecar *sc, const char *buf, size_t len,
			 struct strbuf *err);
void sidecar_release(struct sidecar *sc);

/*
 * Whether backfill may rewrite the sidecar at path: only a sidecar
 * backfill wrote, one that loads and says "backfilled": true.  A sidecar
 * captured during a run records what no history holds (request ids,
 * argv, the real commit and dirty state), so it is never rewritten.
 * Returns 1, or 0 with why the sidecar is kept in why.
 */
int sidecar_backfilled(const char *path, struct strbuf *why);

/*
 * A sidecar to write (capture, backfill).  Strings are borrowed and
 * written as UTF-8, invalid bytes becoming U+FFFD (as Node decodes its
 * command line); struct jval values are borrowed.
 */
struct sidecar_record {
	const char *kind;
	const struct jval *ahd_version;	/* any value: package.json's as it is */
	const char *ahd_commit;		/* NULL: null */
	int git_dirty;			/* 1, 0, or -1 for null */
	const char *node_version;
	const char *platform;
	const char *invoked_at;
	const struct jval *argv;		/* array of strings; NULL: [] */
	struct sidecar_input token;
	struct sidecar_input brief;	/* path NULL: null */
	double n;
	const double *temperature;	/* NULL: null */
	const double *seed;		/* NULL: null */
	const struct jval *models;		/* array of {id, provider,
					   provider_request_ids} */
	const struct jval *requested;	/* arrays of condition names */
	const struct jval *effective;
	int backfilled;			/* adds "backfilled": true */
};

/*
 * Append the text of the sidecar r describes, its fields in the order the
 * reference writes them: JSON.stringify(doc, null, 2) and a newline.
 */
void sidecar_to_json(struct strbuf *out, const struct sidecar_record *r);

#endif
