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
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

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

