/*
 * ahd-replay validate: check sidecars strictly against the replay JSON
 * Schema, listing every violation with its JSON Pointer.
 */
#include "config.h"
#include "builtin.h"
#include "json/jsonload.h"
#include "json/jsonout.h"
#include "fs/readfile.h"
#include "json/jsonschema.h"
#include "json/numfmt.h"
#include "ci/github.h"
#include "ci/outcome.h"
#include "ci/output.h"
#include "parse-options.h"
#include "quote.h"
#include "root/rootfile.h"
#include "record/sidecar.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char validate_usage_text[] =
	"Each <sidecar> is a .replay.json file, or a report whose sidecar is\n"
	"checked (a trailing .md becomes .replay.json).  \"-\" reads standard\n"
	"input.  Unknown keys are violations here.  AHD_REPLAY_SCHEMA names\n"
	"the schema when --schema is not given.\n";

/* Sidecars are small; anything this large is not one. */
#define VALIDATE_MAX_SIZE ((size_t)16 << 20)

struct validate_opts {
	const char *schema;
	enum output_format format;
	struct output_list outputs;
	int allow_outside;
};

/* Totals for the summary line and the exit status. */
struct validate_counts {
	int valid;
	int invalid;
	int errors;
};

static json_t *json_str(const char *s)
{
	json_t *v = json_string(s);

	if (!v)
		die("out of memory");
	return v;
}

/*
 * Read and parse one sidecar as JSON.parse would: any value at the top,
 * every number a double, the last of repeated keys wins (jansson
 * replaces the value in place), "\u0000" allowed in strings.  Returns
 * NULL with a reason in err.
 */
static json_t *load_sidecar(const char *path, int allow_outside,
			    struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT, real = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	json_t *doc = NULL;
	json_error_t jerr;

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
	doc = json_loadb(text.buf, text.len,
			 JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL |
			 JSON_ALLOW_NUL, &jerr);
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
				  const json_t *doc)
{
	const json_t *v = json_object_get(doc, "schema_version");
	struct strbuf msg = STRBUF_INIT;
	char num[NUMFMT_MAX];
	size_t i;

	if (!json_is_number(v) ||
	    json_number_value(v) <= SIDECAR_SCHEMA_VERSION)
		return;
	for (i = 0; i < errs->nr; i++) {
		if (strcmp(errs->v[i].path, "/schema_version"))
			continue;
		numfmt_es(num, json_number_value(v));
		strbuf_addf(&msg, "%s (schema_version %s was written by a "
			    "newer version; this tool understands %d)",
			    errs->v[i].message, num, SIDECAR_SCHEMA_VERSION);
		free(errs->v[i].message);
		errs->v[i].message = strbuf_detach(&msg, NULL);
	}
}

static void print_text(const char *file, const struct jsonschema_errors *errs)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	if (!errs->nr) {
		quote_c_style(&line, file);
		printf("%s: valid\n", line.buf);
	}
	for (i = 0; i < errs->nr; i++) {
		strbuf_reset(&line);
		quote_c_style(&line, file);
		strbuf_addstr(&line, ": ");
		if (*errs->v[i].path)
			strbuf_add_printable(&line, errs->v[i].path);
		else
			strbuf_addstr(&line, "(root)");
		strbuf_addstr(&line, ": ");
		strbuf_add_printable(&line, errs->v[i].message);
		printf("%s\n", line.buf);
	}
	strbuf_release(&line);
}

static json_t *json_result(const char *file, int valid,
			   const struct jsonschema_errors *errs,
			   const char *error)
{
	json_t *res = json_object(), *list = json_array();
	size_t i;

	if (!res || !list)
		die("out of memory");
	for (i = 0; errs && i < errs->nr; i++) {
		json_t *e = json_object();

		if (!e || json_object_set_new(e, "path",
					      json_str(errs->v[i].path)) ||
		    json_object_set_new(e, "message",
					json_str(errs->v[i].message)) ||
		    json_array_append_new(list, e))
			die("out of memory");
	}
	if (json_object_set_new(res, "file", jsonout_text(file)) ||
	    json_object_set_new(res, "valid", json_boolean(valid)) ||
	    json_object_set_new(res, "errors", list) ||
	    (error && json_object_set_new(res, "error", json_str(error))))
		die("out of memory");
	return res;
}

/*
 * The line of the value at JSON Pointer ptr in file: where its key
 * appears after its parent's key (an approximation that needs no
 * position-keeping parser); 1 when there is no key to look for.
 */
static long pointer_line(const char *file, const char *ptr)
{
	const char *last = strrchr(ptr, '/'), *prev;
	struct strbuf key = STRBUF_INIT, parent = STRBUF_INIT;
	long line = 1;

	if (!last || !last[1] || strspn(last + 1, "0123456789") ==
	    strlen(last + 1))
		return 1;
	strbuf_addf(&key, "\"%s\":", last + 1);
	for (prev = last; prev > ptr && prev[-1] != '/'; prev--)
		;
	if (prev > ptr)
		strbuf_addf(&parent, "\"%.*s\":", (int)(last - prev), prev);
	/* "~" escapes make the search miss; the line stays 1 then */
	line = outcome_line_of(file, parent.len ? parent.buf : NULL, key.buf);
	strbuf_release(&key);
	strbuf_release(&parent);
	return line ? line : 1;
}

/* One file's verdict as outcome cases: a pass, or one per violation. */
static void add_outcome(struct outcome *o, const char *file,
			const struct jsonschema_errors *errs, const char *error)
{
	struct outcome_case *c;
	size_t i;

	if (error) {
		c = outcome_add(o, file, "sidecar", OUTCOME_ERROR,
				"invalid-sidecar", error);
		outcome_set_location(c, file, 0);
		return;
	}
	if (!errs->nr) {
		c = outcome_add(o, file, "schema", OUTCOME_PASS, NULL, NULL);
		outcome_set_location(c, file, 0);
	}
	for (i = 0; i < errs->nr; i++) {
		const char *parts[3];
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "%s: %s", *errs->v[i].path ?
			    errs->v[i].path : "(root)", errs->v[i].message);
		c = outcome_add(o, file, *errs->v[i].path ? errs->v[i].path :
				"(root)", OUTCOME_FAIL, "schema", msg.buf);
		outcome_set_location(c, file, pointer_line(file,
							   errs->v[i].path));
		parts[0] = file;
		parts[1] = errs->v[i].path;
		parts[2] = errs->v[i].message;
		outcome_set_fingerprint(c, parts, 3);
		strbuf_release(&msg);
	}
}

/*
 * Validate one operand; adds to counts, to results (the JSON document)
 * when there is one, and to the outcome.
 */
static void validate_one(const struct jsonschema *schema,
			 const struct validate_opts *opts, const char *arg,
			 struct validate_counts *counts, json_t *results,
			 struct outcome *oc)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct jsonschema_errors errs = JSONSCHEMA_ERRORS_INIT;
	json_t *doc = NULL;
	size_t len = strlen(arg);
	int valid;

	if (len > 3 && ends_with(arg, ".md"))
		sidecar_path_for(&path, arg);
	else
		strbuf_addstr(&path, arg);
	doc = load_sidecar(path.buf, opts->allow_outside, &err);
	if (!doc) {
		struct strbuf msg = STRBUF_INIT;

		quote_c_style(&msg, path.buf);
		strbuf_addstr(&msg, ": ");
		quote_escape(&msg, err.buf, err.len);
		error("%s", msg.buf);
		strbuf_release(&msg);
		counts->errors++;
		if (results && json_array_append_new(results,
				json_result(path.buf, 0, NULL, err.buf)))
			die("out of memory");
		add_outcome(oc, path.buf, NULL, err.buf);
		goto out;
	}
	valid = !jsonschema_validate(&errs, schema, doc);
	explain_newer_version(&errs, doc);
	if (valid)
		counts->valid++;
	else
		counts->invalid++;
	if (opts->format == FORMAT_TEXT)
		print_text(path.buf, &errs);
	if (results && json_array_append_new(results,
					     json_result(path.buf, valid,
							 &errs, NULL)))
		die("out of memory");
	add_outcome(oc, path.buf, &errs, NULL);
out:
	json_decref(doc);
	jsonschema_errors_release(&errs);
	strbuf_release(&path);
	strbuf_release(&err);
}

int cmd_validate(int argc, char **argv)
{
	struct validate_opts opts = { NULL, FORMAT_TEXT, OUTPUT_LIST_INIT, 0 };
	struct outcome oc = OUTCOME_INIT("validate");
	struct validate_counts counts = { 0, 0, 0 };
	struct strbuf schema_path = STRBUF_INIT, err = STRBUF_INIT;
	struct jsonschema *schema = NULL;
	json_t *results = NULL;
	int i, status;
	const struct parse_opt options[] = {
		OPT_STRING(0, "schema", &opts.schema, "<file>", "validate "
			   "against this JSON Schema instead of the installed "
			   "replay.schema.json"),
		OPT_FORMAT_CI(&opts.format, "text (default): one line per "
			      "violation; json: one document for all files; "
			      "github annotations, SARIF 2.1.0 or JUnit XML"),
		OPT_OUTPUT(&opts.outputs),
		OPT_BOOL(0, "allow-outside-root", &opts.allow_outside, "read "
			 "a sidecar that a symlink leads out of the root"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"validate", OPERANDS("<sidecar>..."), options,
		validate_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	if (!argc)
		usage_msg_opt(&usage, "no sidecar given");
	if (opts.schema)
		strbuf_addstr(&schema_path, opts.schema);
	else if (jsonschema_find_replay(&schema_path, &err))
		die("%s", err.buf);
	if (jsonschema_load(&schema, schema_path.buf, &err))
		die("schema %s: %s", schema_path.buf, err.buf);
	if (output_check(&opts.outputs))
		return 2;
	if (output_wants(&opts.outputs, opts.format, FORMAT_JSON) &&
	    !(results = json_array()))
		die("out of memory");

	for (i = 0; i < argc; i++)
		validate_one(schema, &opts, argv[i], &counts, results, &oc);

	status = counts.errors ? 2 : counts.invalid ? 1 : 0;
	if (opts.format == FORMAT_GITHUB && output_github(&oc))
		status = 2;
	if (results) {
		struct strbuf text = STRBUF_INIT;

		jsonout_pretty(&text, results);
		strbuf_addch(&text, '\n');
		if (opts.format == FORMAT_JSON)
			fwrite(text.buf, 1, text.len, stdout);
		if (output_write(&opts.outputs, FORMAT_JSON, text.buf,
				 text.len))
			status = 2;
		strbuf_release(&text);
	}
	if ((opts.format == FORMAT_TEXT || opts.format == FORMAT_GITHUB) &&
	    argc > 1)
		printf("%d sidecars: %d valid, %d invalid, %d errors\n",
		       argc, counts.valid, counts.invalid,
		       counts.errors);
	if (output_outcome(&opts.outputs, opts.format, &oc, status))
		status = 2;
	outcome_release(&oc);
	output_list_release(&opts.outputs);
	json_decref(results);
	jsonschema_free(schema);
	strbuf_release(&schema_path);
	strbuf_release(&err);
	return finish_stdout(status);
}
