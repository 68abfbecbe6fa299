/*
 * validate's core (see validate.h): a sidecar read as JSON.parse reads
 * it and checked against the replay JSON Schema, and the result as
 * outcome cases.
 */
#include "config.h"
#include "validate.h"
#include "fs/readfile.h"
#include "json/jsonload.h"
#include "keylines.h"
#include "json/numfmt.h"
#include "record/sidecar.h"
#include "root/rootfile.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Sidecars are small; anything this large is not one. */
#define VALIDATE_MAX_SIZE ((size_t)16 << 20)

/*
 * Read and parse one sidecar as JSON.parse would: any value at the top,
 * every number a double, the last of repeated keys wins (jansson
 * replaces the value in place), "\u0000" allowed in strings.  Returns
 * NULL with a reason in err.
 */
static struct jval *load_sidecar(const char *path, int allow_outside,
			    struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT, real = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	struct jval *doc = NULL;
	struct jval_error jerr;

	/* Inside its root, as verify reads it (rootfile.h). */
	if (strcmp(path, "-") &&
	    (rootfile_root_for(&root, path, NULL, err) < 0 ||
	     rootfile_check(root.buf, path, allow_outside, &real, err)))
		goto out;
	if (read_file_limited(&buf, real.len ? real.buf : path,
			      VALIDATE_MAX_SIZE, &why) ==
	    INPUT_ETOOBIG) {
		strbuf_addstr(err, "larger than the limit of 16 MiB for a "
			      "sidecar");
		goto out;
	} else if (why.len) {
		strbuf_addbuf(err, &why);
		goto out;
	}
	/*
	 * Read as text the way the reference reads it (bytes that are not
	 * UTF-8 become U+FFFD, SPEC 4.1), as verify and sign do.
	 */
	utf8_repair(&text, buf.buf, buf.len);
	doc = jval_loadb(text.buf, text.len,
			 JVAL_DECODE_ANY | JVAL_DECODE_INT_AS_REAL |
			 JVAL_ALLOW_NUL, &jerr);
	if (!doc)
		jsonload_describe_error(err, &jerr);
out:
	strbuf_release(&text);
	strbuf_release(&buf);
	strbuf_release(&why);
	strbuf_release(&root);
	strbuf_release(&real);
	return doc;
}

/*
 * A schema_version above ours fails the schema's enum; say why, as the
 * written contract asks readers to.
 */
static void explain_newer_version(struct jsonschema_errors *errs,
				  const struct jval *doc)
{
	const struct jval *v = jval_object_get(doc, "schema_version");
	struct strbuf msg = STRBUF_INIT;
	char num[NUMFMT_MAX];
	size_t i;

	if (!jval_is_number(v) ||
	    jval_number_value(v) <= SIDECAR_SCHEMA_VERSION)
		return;
	for (i = 0; i < errs->nr; i++) {
		if (strcmp(errs->v[i].path, "/schema_version"))
			continue;
		numfmt_es(num, jval_number_value(v));
		strbuf_addf(&msg, "%s (schema_version %s was written by a "
			    "newer version; this tool understands %d)",
			    errs->v[i].message, num, SIDECAR_SCHEMA_VERSION);
		free(errs->v[i].message);
		errs->v[i].message = strbuf_detach(&msg, NULL);
	}
}

/*
 * The line of the value at JSON Pointer ptr, from the file's keys
 * (kl): where its key appears after its parent's key (an approximation
 * that needs no position-keeping parser); 1 when there is no key to look
 * for, or it is not found ("~" escapes make the search miss).
 */
static long pointer_line(const struct keylines *kl, const char *ptr)
{
	const char *last = strrchr(ptr, '/'), *prev;
	size_t start = 0;
	long line;

	if (!last || !last[1] || strspn(last + 1, "0123456789") ==
	    strlen(last + 1))
		return 1;
	for (prev = last; prev > ptr && prev[-1] != '/'; prev--)
		;
	if (prev > ptr &&
	    !keylines_find(kl, prev, (size_t)(last - prev), 0, &start))
		start = 0;
	line = keylines_find(kl, last + 1, strlen(last + 1), start, NULL);
	if (!line && start)
		line = keylines_find(kl, last + 1, strlen(last + 1), 0, NULL);
	return line ? line : 1;
}

void validation_check(struct validation *v, const struct jsonschema *schema,
		      const char *arg, int allow_outside)
{
	struct jval *doc;

	if (strlen(arg) > 3 && ends_with(arg, ".md"))
		sidecar_path_for(&v->path, arg);
	else
		strbuf_addstr(&v->path, arg);
	doc = load_sidecar(v->path.buf, allow_outside, &v->error);
	if (!doc)
		return;
	v->checked = 1;
	v->valid = !jsonschema_validate(&v->errs, schema, doc);
	explain_newer_version(&v->errs, doc);
	jval_decref(doc);
}

int record_validation_collect(struct record_validation *rv,
			      const char *root, int *argc, char **argv)
{
	int i, kept = 0, none = !*argc, ret;
	struct stat st;

	if (rcfile_here(&rv->rc, root))
		return -1;
	rv->schemas = xcalloc(rv->rc.nr + 1, sizeof(*rv->schemas));
	rv->why = xcalloc(rv->rc.nr + 1, sizeof(*rv->why));
	rv->tried = xcalloc(rv->rc.nr + 1, sizeof(*rv->tried));
	ret = layout_list_collect(&rv->list, rv->rc.layouts, rv->rc.nr,
				  rv->rc.top.buf, argc, argv, 0);
	/* a directory operand was searched for records: not a sidecar */
	for (i = 0; rv->rc.nr && i < *argc; i++)
		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode))
			argv[kept++] = argv[i];
	if (rv->rc.nr)
		*argc = kept;
	/* no operands: the records of the layouts that name a schema */
	for (i = 0; none && (size_t)i < rv->list.nr; )
		if (!rv->list.items[i].layout->schema) {
			free(rv->list.items[i].shown);
			free(rv->list.items[i].sidecar);
			rv->list.items[i] = rv->list.items[--rv->list.nr];
		} else
			i++;
	return ret;
}

/* The schema of layout k, loaded on first use; NULL with rv->why[k]. */
static const struct jsonschema *layout_schema(struct record_validation *rv,
					      size_t k)
{
	const struct layout *lay = &rv->rc.layouts[k];
	struct strbuf path = STRBUF_INIT, real = STRBUF_INIT;

	if (rv->tried[k]++)
		return rv->schemas[k];
	strbuf_init(&rv->why[k], 0);
	if (!lay->schema) {
		strbuf_addf(&rv->why[k], "layout '%s' names no schema",
			    lay->name);
		goto out;
	}
	strbuf_addf(&path, "%s/%s", rv->rc.top.buf, lay->schema);
	/* beneath the top: a symlink out of it is refused, as a sidecar's */
	if (rootfile_check(rv->rc.top.buf, path.buf, 0, &real, &rv->why[k]) ||
	    jsonschema_load(&rv->schemas[k], real.buf, &rv->why[k])) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "layout '%s': schema %s: ", lay->name,
			    lay->schema);
		strbuf_addbuf(&msg, &rv->why[k]);
		strbuf_reset(&rv->why[k]);
		strbuf_addbuf(&rv->why[k], &msg);
		strbuf_release(&msg);
		rv->schemas[k] = NULL;
	}
out:
	strbuf_release(&path);
	strbuf_release(&real);
	return rv->schemas[k];
}

void record_validation_check(struct validation *v,
			     struct record_validation *rv, size_t i,
			     int allow_outside)
{
	const struct layout_record *r = &rv->list.items[i];
	const struct jsonschema *schema;
	struct jval *doc;

	/* the record's JSON: its sidecar, for a layout that gives it one */
	strbuf_addstr(&v->path, r->sidecar ? r->sidecar : r->shown);
	schema = layout_schema(rv, r->layout - rv->rc.layouts);
	if (!schema) {
		strbuf_addbuf(&v->error,
			      &rv->why[r->layout - rv->rc.layouts]);
		return;
	}
	doc = load_sidecar(v->path.buf, allow_outside, &v->error);
	if (!doc)
		return;
	v->checked = 1;
	v->valid = !jsonschema_validate(&v->errs, schema, doc);
	jval_decref(doc);
}

void record_validation_release(struct record_validation *rv)
{
	size_t k;

	for (k = 0; rv->tried && k < rv->rc.nr; k++) {
		jsonschema_free(rv->schemas[k]);
		if (rv->tried[k])
			strbuf_release(&rv->why[k]);
	}
	free(rv->schemas);
	free(rv->why);
	free(rv->tried);
	layout_list_release(&rv->list);
	rcfile_release(&rv->rc);
}

void validation_release(struct validation *v)
{
	strbuf_release(&v->path);
	strbuf_release(&v->error);
	jsonschema_errors_release(&v->errs);
	v->checked = v->valid = 0;
}

void validation_outcome(struct outcome *o, const struct validation *v)
{
	const struct jsonschema_errors *errs = &v->errs;
	const char *file = v->path.buf;
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct keylines kl = KEYLINES_INIT;
	struct outcome_case *c;
	size_t i;

	if (!v->checked) {
		c = outcome_add(o, file, "sidecar", OUTCOME_ERROR,
				"invalid-sidecar", v->error.buf);
		outcome_set_location(c, file, 0);
		return;
	}
	if (!errs->nr) {
		c = outcome_add(o, file, "schema", OUTCOME_PASS, NULL, NULL);
		outcome_set_location(c, file, 0);
	}
	/* the file read once for every error's line; unread, lines are 1 */
	if (errs->nr &&
	    read_file_limited(&text, file, VALIDATE_MAX_SIZE, &why) >= 0)
		keylines_build(&kl, text.buf, text.len);
	for (i = 0; i < errs->nr; i++) {
		const char *parts[3];
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "%s: %s", *errs->v[i].path ?
			    errs->v[i].path : "(root)", errs->v[i].message);
		c = outcome_add(o, file, *errs->v[i].path ? errs->v[i].path :
				"(root)", OUTCOME_FAIL, "schema", msg.buf);
		outcome_set_location(c, file, pointer_line(&kl,
							   errs->v[i].path));
		parts[0] = file;
		parts[1] = errs->v[i].path;
		parts[2] = errs->v[i].message;
		outcome_set_fingerprint(c, parts, 3);
		strbuf_release(&msg);
	}
	keylines_release(&kl);
	strbuf_release(&text);
	strbuf_release(&why);
}

