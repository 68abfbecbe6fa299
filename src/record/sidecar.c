/*
 * The replay sidecar: reading, checking and writing.
 *
 * The checks follow the reference's ReplaySchema (zod) field by field,
 * with one deliberate difference the specification asks for: unknown
 * top-level fields are kept and reported, not refused, since the written
 * contract tells consumers to ignore them.
 */
#include "config.h"
#include "sidecar.h"
#include "sidecar-int.h"
#include "root/rootfile.h"
#include "json/jsonload.h"
#include "json/jsonout.h"
#include "fs/readfile.h"
#include "json/numfmt.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const sidecar_fields[] = {
	"schema_version", "kind", "ahd_version", "ahd_commit", "git_dirty",
	"node_version", "platform", "invoked_at", "argv", "token", "brief",
	"sampling", "models", "conditions", "backfilled", NULL,
};

void sidecar_path_for(struct strbuf *out, const char *report)
{
	size_t len = strlen(report);

	if (ends_with(report, ".replay.json")) {
		strbuf_addstr(out, report);
		return;
	}
	if (ends_with(report, ".md"))
		len -= 3;
	strbuf_add(out, report, len);
	strbuf_addstr(out, ".replay.json");
}

void sidecar_report_for(struct strbuf *out, const char *sidecar)
{
	size_t len = strlen(sidecar);

	if (ends_with(sidecar, ".replay.json"))
		len -= strlen(".replay.json");
	strbuf_add(out, sidecar, len);
	strbuf_addstr(out, ".md");
}

static int bad(struct strbuf *err, const char *path, const char *msg)
{
	strbuf_addf(err, "%s: %s", path, msg);
	return -1;
}

static int is_integer(const struct jval *v)
{
	double d;

	if (!jval_is_number(v))
		return 0;
	d = jval_number_value(v);
	return isfinite(d) && d == floor(d);
}

static int check_string(const struct jval *obj, const char *key, const char *path,
			int min_len, int nullable, struct strbuf *err)
{
	const struct jval *v = jval_object_get(obj, key);

	if (!v)
		return bad(err, path, "is required");
	if (nullable && jval_is_null(v))
		return 0;
	if (!jval_is_string(v))
		return bad(err, path, nullable ? "must be a string or null" :
			   "must be a string");
	if (min_len && !jval_string_length(v))
		return bad(err, path, "must not be empty");
	return 0;
}

static int check_string_array(const struct jval *v, const char *path,
			      struct strbuf *err)
{
	size_t i;
	struct jval *item;

	if (!jval_is_array(v))
		return bad(err, path, "must be an array of strings");
	jval_array_foreach(v, i, item)
		if (!jval_is_string(item))
			return bad(err, path, "must be an array of strings");
	return 0;
}

/* Objects nested in a sidecar allow exactly their own keys (zod .strict). */
static int only_keys(const struct jval *obj, const char *path,
		     const char *const *keys, struct strbuf *err)
{
	const char *key;
	struct jval *v;

	jval_object_foreach((struct jval *)obj, key, v) {
		const char *const *k;

		for (k = keys; *k; k++)
			if (!strcmp(*k, key))
				break;
		if (!*k) {
			strbuf_addf(err, "%s: unexpected key '%s'", path, key);
			return -1;
		}
	}
	return 0;
}

static int check_input(const struct jval *doc, const char *key,
		       struct sidecar_input *in, struct strbuf *err)
{
	static const char *const keys[] = { "path", "hash", NULL };
	const struct jval *obj = jval_object_get(doc, key);
	const struct jval *hash;
	char path[32];

	snprintf(path, sizeof(path), "/%s", key);
	if (!obj)
		return bad(err, path, "is required");
	if (jval_is_null(obj) && !strcmp(key, "brief"))
		return 0;
	if (!jval_is_object(obj))
		return bad(err, path, "must be an object");
	if (only_keys(obj, path, keys, err))
		return -1;
	snprintf(path, sizeof(path), "/%s/path", key);
	if (check_string(obj, "path", path, 1, 0, err))
		return -1;
	snprintf(path, sizeof(path), "/%s/hash", key);
	if (check_string(obj, "hash", path, 0, 0, err))
		return -1;
	hash = jval_object_get(obj, "hash");
	/* The reference's pattern is case-insensitive. */
	if (!is_sha256_hash(jval_string_value(hash), HEX_ANY_CASE))
		return bad(err, path, "must be sha256: followed by 64 hex digits");
	in->path = jval_string_value(jval_object_get(obj, "path"));
	in->hash = jval_string_value(hash);
	return 0;
}

static int check_sampling(const struct jval *doc, struct strbuf *err)
{
	static const char *const keys[] = { "n", "temperature", "seed", NULL };
	const struct jval *s = jval_object_get(doc, "sampling"), *v;

	if (!s)
		return bad(err, "/sampling", "is required");
	if (!jval_is_object(s))
		return bad(err, "/sampling", "must be an object");
	if (only_keys(s, "/sampling", keys, err))
		return -1;
	v = jval_object_get(s, "n");
	if (!is_integer(v) || jval_number_value(v) <= 0)
		return bad(err, "/sampling/n", "must be an integer > 0");
	v = jval_object_get(s, "temperature");
	if (!v || !(jval_is_null(v) || jval_is_number(v)))
		return bad(err, "/sampling/temperature", "must be a number or null");
	v = jval_object_get(s, "seed");
	if (!v || !(jval_is_null(v) || is_integer(v)))
		return bad(err, "/sampling/seed", "must be an integer or null");
	return 0;
}

static int check_models(const struct jval *doc, struct strbuf *err)
{
	static const char *const keys[] = {
		"id", "provider", "provider_request_ids", NULL,
	};
	const struct jval *models = jval_object_get(doc, "models");
	struct jval *m;
	size_t i;

	if (!models)
		return bad(err, "/models", "is required");
	if (!jval_is_array(models))
		return bad(err, "/models", "must be an array");
	jval_array_foreach(models, i, m) {
		char path[64];

		snprintf(path, sizeof(path), "/models/%zu", i);
		if (!jval_is_object(m))
			return bad(err, path, "must be an object");
		if (only_keys(m, path, keys, err))
			return -1;
		snprintf(path, sizeof(path), "/models/%zu/id", i);
		if (check_string(m, "id", path, 1, 0, err))
			return -1;
		snprintf(path, sizeof(path), "/models/%zu/provider", i);
		if (check_string(m, "provider", path, 1, 0, err))
			return -1;
		snprintf(path, sizeof(path), "/models/%zu/provider_request_ids",
			 i);
		if (check_string_array(jval_object_get(m, "provider_request_ids"),
				       path, err))
			return -1;
	}
	return 0;
}

static int check_conditions(const struct jval *doc, struct strbuf *err)
{
	static const char *const keys[] = { "requested", "effective", NULL };
	const struct jval *c = jval_object_get(doc, "conditions");

	if (!c)
		return bad(err, "/conditions", "is required");
	if (!jval_is_object(c))
		return bad(err, "/conditions", "must be an object");
	if (only_keys(c, "/conditions", keys, err) ||
	    check_string_array(jval_object_get(c, "requested"),
			       "/conditions/requested", err) ||
	    check_string_array(jval_object_get(c, "effective"),
			       "/conditions/effective", err))
		return -1;
	return 0;
}

int sidecar_kind_known(const char *kind)
{
	return !strcmp(kind, "eval-live") || !strcmp(kind, "critique") ||
	       !strcmp(kind, "eval-image");
}

/* The strings of arr (checked to be strings) from sc->strings[*at]. */
static void fill_list(struct sidecar_strings *out, struct sidecar *sc,
		      size_t *at, const struct jval *arr)
{
	size_t i;
	struct jval *item;

	out->items = sc->strings + *at;
	out->nr = jval_array_size(arr);
	jval_array_foreach(arr, i, item)
		sc->strings[(*at)++] = jval_string_value(item);
}

/* The fields render_markdown() shows, from a document that checked. */
static void fill_shown(struct sidecar *sc)
{
	const struct jval *doc = sc->json, *v;
	const struct jval *s = jval_object_get(doc, "sampling");
	const struct jval *c = jval_object_get(doc, "conditions");
	const struct jval *argv = jval_object_get(doc, "argv");
	const struct jval *models = jval_object_get(doc, "models");
	const struct jval *req = jval_object_get(c, "requested");
	const struct jval *eff = jval_object_get(c, "effective");
	size_t at = 0, i;
	struct jval *m;

	sc->node_version = jval_string_value(jval_object_get(doc,
							     "node_version"));
	sc->platform = jval_string_value(jval_object_get(doc, "platform"));
	sc->n = jval_number_value(jval_object_get(s, "n"));
	v = jval_object_get(s, "temperature");
	sc->has_temperature = !jval_is_null(v);
	sc->temperature = jval_number_value(v);
	v = jval_object_get(s, "seed");
	sc->has_seed = !jval_is_null(v);
	sc->seed = jval_number_value(v);
	sc->strings = xcalloc(jval_array_size(argv) + jval_array_size(req) +
			      jval_array_size(eff) + 1, sizeof(*sc->strings));
	fill_list(&sc->argv, sc, &at, argv);
	fill_list(&sc->requested, sc, &at, req);
	fill_list(&sc->effective, sc, &at, eff);
	sc->models_nr = jval_array_size(models);
	sc->models = xcalloc(sc->models_nr + 1, sizeof(*sc->models));
	jval_array_foreach(models, i, m) {
		sc->models[i].id = jval_string_value(jval_object_get(m, "id"));
		sc->models[i].provider = jval_string_value(jval_object_get(m,
								   "provider"));
		sc->models[i].request_ids = jval_array_size(
			jval_object_get(m, "provider_request_ids"));
	}
	sc->backfilled = jval_is_true(jval_object_get(doc, "backfilled"));
}

static int check_document(struct sidecar *sc, struct strbuf *err)
{
	const struct jval *doc = sc->json, *v;
	const char *key;
	struct jval *val;

	if (!jval_is_object(doc))
		return bad(err, "(root)", "must be an object");
	v = jval_object_get(doc, "schema_version");
	if (!v || !jval_is_number(v))
		return bad(err, "/schema_version", "must be a number");
	sc->schema_version = jval_number_value(v);
	if (sc->schema_version > SIDECAR_SCHEMA_VERSION) {
		char num[NUMFMT_MAX];

		numfmt_es(num, sc->schema_version);
		strbuf_addf(err, "schema_version %s: written by a newer version; "
			    "this tool understands %d", num,
			    SIDECAR_SCHEMA_VERSION);
		return -1;
	}
	if (sc->schema_version != SIDECAR_SCHEMA_VERSION)
		return bad(err, "/schema_version", "must be 1");
	if (check_string(doc, "kind", "/kind", 0, 0, err))
		return -1;
	sc->kind = jval_string_value(jval_object_get(doc, "kind"));
	if (!sidecar_kind_known(sc->kind))
		return bad(err, "/kind", "must be one of \"eval-live\", "
			   "\"critique\", \"eval-image\"");
	if (check_string(doc, "ahd_version", "/ahd_version", 1, 0, err) ||
	    check_string(doc, "ahd_commit", "/ahd_commit", 0, 1, err) ||
	    check_string(doc, "node_version", "/node_version", 1, 0, err) ||
	    check_string(doc, "platform", "/platform", 1, 0, err) ||
	    check_string(doc, "invoked_at", "/invoked_at", 0, 0, err))
		return -1;
	sc->ahd_version = jval_string_value(jval_object_get(doc, "ahd_version"));
	sc->ahd_commit = jval_string_value(jval_object_get(doc, "ahd_commit"));
	sc->invoked_at = jval_string_value(jval_object_get(doc, "invoked_at"));
	v = jval_object_get(doc, "git_dirty");
	if (!v || !(jval_is_boolean(v) || jval_is_null(v)))
		return bad(err, "/git_dirty", "must be a boolean or null");
	sc->git_dirty = jval_is_null(v) ? -1 : jval_is_true(v);
	if (check_string_array(jval_object_get(doc, "argv"), "/argv", err) ||
	    check_input(doc, "token", &sc->token, err) ||
	    check_input(doc, "brief", &sc->brief, err) ||
	    check_sampling(doc, err) || check_models(doc, err) ||
	    check_conditions(doc, err))
		return -1;
	v = jval_object_get(doc, "backfilled");
	if (v && !jval_is_boolean(v))
		return bad(err, "/backfilled", "must be a boolean");

	jval_object_foreach((struct jval *)doc, key, val) {
		const char *const *k;

		for (k = sidecar_fields; *k; k++)
			if (!strcmp(*k, key))
				break;
		if (*k)
			continue;
		if (sc->unknown.len)
			strbuf_addstr(&sc->unknown, ", ");
		strbuf_addstr(&sc->unknown, key);
	}
	fill_shown(sc);
	return 0;
}

int sidecar_parse(struct sidecar *sc, const char *buf, size_t len,
		  struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct jval_error jerr;
	int ret = -1;

	/*
	 * The reference reads the file as UTF-8 text (bad bytes become
	 * U+FFFD), then JSON.parse: every number a double, the last of
	 * repeated keys wins (jansson replaces the value in place).
	 */
	utf8_repair(&text, buf, len);
	/* the same tree, quickly, for the plain JSON the reference writes */
	sc->json = jval_loadb_plain(text.buf, text.len);
	if (!sc->json)
		sc->json = jval_loadb(text.buf, text.len,
				      JVAL_DECODE_ANY | JVAL_DECODE_INT_AS_REAL,
				      &jerr);
	if (!sc->json && jerr.code == JVAL_ERROR_NULL_CHARACTER) {
		/*
		 * JSON.parse takes it, but paths and hashes travel as C
		 * strings here, where "a\u0000b" would equal "a".
		 */
		strbuf_addf(err, "unsupported: a string holding \\u0000 "
			    "(line %d, column %d)", jerr.line, jerr.column);
		goto out;
	}
	if (!sc->json) {
		jsonload_describe_error(err, &jerr);
		goto out;
	}
	ret = check_document(sc, err);
out:
	strbuf_release(&text);
	return ret;
}

int sidecar_load(struct sidecar *sc, const char *path, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = -1;

	if (!read_file_limited(&buf, path, SIDECAR_MAX_SIZE, err))
		ret = sidecar_parse(sc, buf.buf, buf.len, err);
	strbuf_release(&buf);
	return ret;
}

int sidecar_load_in(struct sidecar *sc, const char *root, const char *path,
		    int allow_outside, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = -1;

	if (!rootfile_read(&buf, root, path, allow_outside, SIDECAR_MAX_SIZE,
			   err))
		ret = sidecar_parse(sc, buf.buf, buf.len, err);
	strbuf_release(&buf);
	return ret;
}

int sidecar_load_named(struct sidecar *sc, const char *path,
		       int allow_outside, struct strbuf *err)
{
	struct strbuf root = STRBUF_INIT;
	int ret = -1;

	if (rootfile_root_for(&root, path, NULL, err) >= 0)
		ret = sidecar_load_in(sc, root.buf, path, allow_outside, err);
	strbuf_release(&root);
	return ret;
}

int sidecar_parse_fields(struct sidecar *sc, const char *buf, size_t len,
			 struct strbuf *err)
{
	/*
	 * A copy to cut strings in.  Not repaired as sidecar_parse() does
	 * first: the plain reading takes only well-formed UTF-8, which the
	 * repair leaves as it is, and leaves anything else to it.
	 */
	char *text = xmemdupz(buf, len);

	if (!sidecar_read_plain(sc, text, len)) {
		sc->text = text;
		return 0;
	}
	free(text);
	return sidecar_parse(sc, buf, len, err);
}

void sidecar_release(struct sidecar *sc)
{
	jval_decref(sc->json);
	sc->json = NULL;
	strbuf_release(&sc->unknown);
	/* what pointed into the storage goes with it */
	sc->node_version = sc->platform = NULL;
	free(sc->models);
	sc->models = NULL;
	sc->models_nr = 0;
	free(sc->strings);
	sc->strings = NULL;
	memset(&sc->argv, 0, sizeof(sc->argv));
	memset(&sc->requested, 0, sizeof(sc->requested));
	memset(&sc->effective, 0, sizeof(sc->effective));
	free(sc->text);
	sc->text = NULL;
}

static struct jval *copy_or_empty(const struct jval *v)
{
	return v ? jval_deep_copy(v) : jval_array();
}

static struct jval *input_json(const struct sidecar_input *in)
{
	struct jval *o = jval_object();

	if (!o)
		die("out of memory");
	jsonout_set(o, "path", jsonout_text(in->path));
	jsonout_set(o, "hash", jsonout_text(in->hash));
	return o;
}

static struct jval *number_or_null(const double *v)
{
	return v ? jval_real(*v) : jval_null();
}

void sidecar_to_json(struct strbuf *out, const struct sidecar_record *r)
{
	struct jval *doc = jval_object(), *sampling = jval_object();
	struct jval *conditions = jval_object();

	if (!doc || !sampling || !conditions)
		die("out of memory");
	jsonout_set(doc, "schema_version", jval_integer(SIDECAR_SCHEMA_VERSION));
	jsonout_set(doc, "kind", jsonout_text(r->kind));
	jsonout_set(doc, "ahd_version", jval_deep_copy(r->ahd_version));
	jsonout_set(doc, "ahd_commit", r->ahd_commit ? jsonout_text(r->ahd_commit) :
	    jval_null());
	jsonout_set(doc, "git_dirty", r->git_dirty < 0 ? jval_null() :
	    jval_boolean(r->git_dirty));
	jsonout_set(doc, "node_version", jsonout_text(r->node_version));
	jsonout_set(doc, "platform", jsonout_text(r->platform));
	jsonout_set(doc, "invoked_at", jsonout_text(r->invoked_at));
	jsonout_set(doc, "argv", copy_or_empty(r->argv));
	jsonout_set(doc, "token", input_json(&r->token));
	jsonout_set(doc, "brief", r->brief.path ? input_json(&r->brief) : jval_null());
	jsonout_set(sampling, "n", jval_real(r->n));
	jsonout_set(sampling, "temperature", number_or_null(r->temperature));
	jsonout_set(sampling, "seed", number_or_null(r->seed));
	jsonout_set(doc, "sampling", sampling);
	jsonout_set(doc, "models", copy_or_empty(r->models));
	jsonout_set(conditions, "requested", copy_or_empty(r->requested));
	jsonout_set(conditions, "effective", copy_or_empty(r->effective));
	jsonout_set(doc, "conditions", conditions);
	if (r->backfilled)
		jsonout_set(doc, "backfilled", jval_true());
	jsonout_pretty(out, doc);
	strbuf_addch(out, '\n');
	jval_decref(doc);
}

int sidecar_backfilled(const char *path, struct strbuf *why)
{
	struct sidecar sc = SIDECAR_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (sidecar_load(&sc, path, &err))
		strbuf_addf(why, "it does not load (%s), so it is not known "
			    "to be one backfill wrote", err.buf);
	else if (!sc.backfilled)
		strbuf_addstr(why, "it was captured during a run (no "
			      "\"backfilled\": true); backfill never "
			      "rewrites one");
	else
		ret = 1;
	sidecar_release(&sc);
	strbuf_release(&err);
	return ret;
}
