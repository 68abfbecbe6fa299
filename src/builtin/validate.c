/*
 * ahd-replay validate: check sidecars strictly against the replay JSON
 * Schema, listing every violation with its JSON Pointer.  The checking
 * is verify/validate.c's; this file parses the options and prints.
 */
#include "config.h"
#include "builtin.h"
#include "json/jsonout.h"
#include "json/jsonschema.h"
#include "ci/github.h"
#include "ci/outcome.h"
#include "ci/output.h"
#include "parse-options.h"
#include "quote.h"
#include "usage.h"
#include "verify/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char validate_usage_text[] =
	"Each <sidecar> is a .replay.json file, or a report whose sidecar is\n"
	"checked (a trailing .md becomes .replay.json).  \"-\" reads standard\n"
	"input.  Unknown keys are violations here.  AHD_REPLAY_SCHEMA names\n"
	"the schema when --schema is not given.  A record of a layout\n"
	"(.ahd-replay.yml) is checked against its layout's schema; with no\n"
	"operands, every record of a layout that names one.\n";

struct validate_opts {
	const char *schema;
	enum output_format format;
	struct output_list outputs;
	int allow_outside;
	int quiet;		/* text: no line for a valid sidecar */
};

/* Totals for the summary line and the exit status. */
struct validate_counts {
	int valid;
	int invalid;
	int errors;
};

static struct jval *str_value(const char *s)
{
	struct jval *v = jval_string(s);

	if (!v)
		die("out of memory");
	return v;
}

static void print_text(const char *file, const struct jsonschema_errors *errs,
		       int quiet)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	if (!errs->nr && !quiet) {
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

static struct jval *result_json(const char *file, int valid,
			   const struct jsonschema_errors *errs,
			   const char *error)
{
	struct jval *res = jval_object(), *list = jval_array();
	size_t i;

	if (!res || !list)
		die("out of memory");
	for (i = 0; errs && i < errs->nr; i++) {
		struct jval *e = jval_object();

		if (!e || jval_object_set_new(e, "path",
					      str_value(errs->v[i].path)) ||
		    jval_object_set_new(e, "message",
					str_value(errs->v[i].message)) ||
		    jval_array_append_new(list, e))
			die("out of memory");
	}
	if (jval_object_set_new(res, "file", jsonout_text(file)) ||
	    jval_object_set_new(res, "valid", jval_boolean(valid)) ||
	    jval_object_set_new(res, "errors", list) ||
	    (error && jval_object_set_new(res, "error", str_value(error))))
		die("out of memory");
	return res;
}

/*
 * Count and print one file validated (v, released here); adds to
 * results (the JSON document) when there is one, and to the outcome.
 */
static void validated(struct validation *v, const struct validate_opts *opts,
		      struct validate_counts *counts, struct jval *results,
		      struct outcome *oc)
{
	if (!v->checked) {
		error_path(v->path.buf, &v->error);
		counts->errors++;
	} else if (v->valid)
		counts->valid++;
	else
		counts->invalid++;
	if (v->checked && opts->format == FORMAT_TEXT)
		print_text(v->path.buf, &v->errs, opts->quiet);
	if (results && jval_array_append_new(results, result_json(
			v->path.buf, v->valid, &v->errs,
			v->checked ? NULL : v->error.buf)))
		die("out of memory");
	validation_outcome(oc, v);
	validation_release(v);
}

int cmd_validate(int argc, char **argv)
{
	struct validate_opts opts = { NULL, FORMAT_TEXT, OUTPUT_LIST_INIT, 0,
				      0 };
	struct outcome oc = OUTCOME_INIT("validate");
	struct validate_counts counts = { 0, 0, 0 };
	struct strbuf schema_path = STRBUF_INIT, err = STRBUF_INIT;
	struct jsonschema *schema = NULL;
	struct jval *results = NULL;
	struct record_validation rv = RECORD_VALIDATION_INIT;
	struct validation v;
	int i, status;
	size_t r;
	const struct parse_opt options[] = {
		OPT_STRING(0, "schema", &opts.schema, "<file>", "validate "
			   "against this JSON Schema instead of the installed "
			   "replay.schema.json"),
		OPT_FORMAT_CI(&opts.format, "text (default): one line per "
			      "violation; json: one document for all files; "
			      "github annotations, SARIF 2.1.0 or JUnit XML"),
		OPT_OUTPUT(&opts.outputs),
		OPT_BOOL('q', "quiet", &opts.quiet, "text: print only the "
			 "violations and the summary"),
		OPT_BOOL(0, "allow-outside-root", &opts.allow_outside, "read "
			 "a sidecar that a symlink leads out of the root"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"validate", OPERANDS("[<sidecar>...]"), options,
		validate_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	/* the layouts' records: each against its layout's schema */
	if (record_validation_collect(&rv, NULL, &argc, argv))
		die("cannot use %s", RCFILE_NAME);
	if (!argc && !rv.list.nr)
		usage_msg_opt(&usage, "no sidecar given");
	if (opts.schema)
		strbuf_addstr(&schema_path, opts.schema);
	else if (argc && jsonschema_find_replay(&schema_path, &err))
		die("%s", err.buf);
	if (argc && jsonschema_load(&schema, schema_path.buf, &err))
		die("schema %s: %s", schema_path.buf, err.buf);
	if (output_check(&opts.outputs))
		return 2;
	if (output_wants(&opts.outputs, opts.format, FORMAT_JSON) &&
	    !(results = jval_array()))
		die("out of memory");

	for (i = 0; i < argc; i++) {
		v = (struct validation)VALIDATION_INIT;
		validation_check(&v, schema, argv[i], opts.allow_outside);
		validated(&v, &opts, &counts, results, &oc);
	}
	for (r = 0; r < rv.list.nr; r++) {
		v = (struct validation)VALIDATION_INIT;
		record_validation_check(&v, &rv, r, opts.allow_outside);
		validated(&v, &opts, &counts, results, &oc);
	}

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
	    argc + rv.list.nr > 1)
		printf("%zu %s: %d valid, %d invalid, %d errors\n",
		       argc + rv.list.nr, rv.list.nr ? "files" : "sidecars",
		       counts.valid, counts.invalid, counts.errors);
	if (output_outcome(&opts.outputs, opts.format, &oc, status))
		status = 2;
	outcome_release(&oc);
	output_list_release(&opts.outputs);
	jval_decref(results);
	jsonschema_free(schema);
	record_validation_release(&rv);
	strbuf_release(&schema_path);
	strbuf_release(&err);
	return finish_stdout(status);
}
