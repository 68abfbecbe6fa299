/*
 * verify's JSON document (version 1, doc/ahd-replay-verify.1):
 * every report checked with its checks and integrity events, the errors
 * of the scope, the summary and the exit status.  Members keep their
 * order: scripts and the tests compare documents as text.
 */
#include "config.h"
#include "verify-batch.h"
#include "explain.h"
#include "json/jsonout.h"
#include "root/root.h"

#include <string.h>

static struct jval *str_or_null(const char *s)
{
	return s ? jval_string(s) : jval_null();
}

static struct jval *strbuf_or_null(const struct strbuf *sb)
{
	return sb->len ? jval_string(sb->buf) : jval_null();
}

/*
 * The signature check as an integrity event: what was checked, the
 * outcome, and whether it counts against the report.
 */
static struct jval *signature_event_json(const struct verify_report *r,
				    const struct verify_options *opts)
{
	const struct sig_result *s = &r->sig;
	struct jval *e = jval_object();

	jval_object_set_new(e, "type", jval_string("signature"));
	jval_object_set_new(e, "status",
			    jval_string(sig_status_name(s->status)));
	jval_object_set_new(e, "ok", jval_boolean(
		!verify_signature_failed(r, opts)));
	jval_object_set_new(e, "signature", jval_string(s->sig_path.buf));
	jval_object_set_new(e, "kind", str_or_null(s->kind));
	jval_object_set_new(e, "covers", s->status != SIG_OK ? jval_null() :
			    jval_string(s->sidecar_only ? "sidecar" :
					"statement"));
	jval_object_set_new(e, "principal", strbuf_or_null(&s->principal));
	jval_object_set_new(e, "key_id", strbuf_or_null(&s->key_id));
	jval_object_set_new(e, "expected", strbuf_or_null(&s->expected));
	jval_object_set_new(e, "actual", strbuf_or_null(&s->actual));
	jval_object_set_new(e, "reason", strbuf_or_null(&s->reason));
	return e;
}

/* --require-signed-commit's check as an integrity event. */
static struct jval *commit_event_json(const struct verify_report *r)
{
	const struct commitsig_result *c = &r->commit_sig;
	struct jval *e = jval_object();

	jval_object_set_new(e, "type", jval_string("signed-commit"));
	jval_object_set_new(e, "ok", jval_boolean(c->ok));
	jval_object_set_new(e, "commit", *c->commit ?
			    jval_string(c->commit) : jval_null());
	jval_object_set_new(e, "principal", strbuf_or_null(&c->principal));
	jval_object_set_new(e, "reason", strbuf_or_null(&c->reason));
	return e;
}

static struct jval *check_json(const struct verify_check *c)
{
	struct jval *cj = jval_object();

	jval_object_set_new(cj, "field", jval_string(c->field));
	jval_object_set_new(cj, "ok", jval_boolean(c->ok));
	jval_object_set_new(cj, "error", jval_boolean(c->error));
	jval_object_set_new(cj, "expected", jval_string(c->expected));
	jval_object_set_new(cj, "actual", strbuf_or_null(&c->actual));
	jval_object_set_new(cj, "reason", strbuf_or_null(&c->reason));
	jval_object_set_new(cj, "note", strbuf_or_null(&c->note));
	if (c->explain)
		jval_object_set_new(cj, "explain", explain_json(c->explain));
	return cj;
}

static struct jval *report_json(const struct verify_report *r,
			   const struct verify_options *opts)
{
	static const char *const verdicts[] = {
		"intact", "drift", "error", "untrusted", "missing-sidecar",
	};
	struct jval *o = jval_object(), *checks = jval_array();
	struct jval *events = jval_array();
	int i;

	jval_object_set_new(o, "report", jval_string(r->report.buf));
	jval_object_set_new(o, "sidecar", jval_string(r->sidecar_path.buf));
	jval_object_set_new(o, "status", jval_string(verdicts[r->verdict]));
	jval_object_set_new(o, "error", strbuf_or_null(&r->error));
	if (r->loaded) {
		jval_object_set_new(o, "root", jval_string(r->root.buf));
		jval_object_set_new(o, "root_from", jval_string(
			root_origin_name(r->root_origin)));
		jval_object_set_new(o, "kind", jval_string(r->sc.kind));
		jval_object_set_new(o, "ahd_version",
				    jval_string(r->sc.ahd_version));
		/* a layout's record: its commit field, and the layout */
		jval_object_set_new(o, "ahd_commit", str_or_null(r->layout ?
				    r->rec.commit : r->sc.ahd_commit));
		if (r->layout)
			jval_object_set_new(o, "layout",
					    jval_string(r->layout->name));
		jval_object_set_new(o, "git_dirty", r->sc.git_dirty < 0 ?
				    jval_null() : jval_boolean(r->sc.git_dirty));
		jval_object_set_new(o, "invoked_at",
				    jval_string(r->sc.invoked_at));
	}
	for (i = 0; i < r->nr_checks; i++)
		jval_array_append_new(checks, check_json(&r->checks[i]));
	jval_object_set_new(o, "checks", checks);
	if (r->loaded)
		jval_array_append_new(events, signature_event_json(r, opts));
	if (r->commit_checked)
		jval_array_append_new(events, commit_event_json(r));
	jval_object_set_new(o, "integrity_events", events);
	jval_object_set_new(o, "unknown_fields", strbuf_or_null(&r->sc.unknown));
	jval_object_set_new(o, "markdown_warning",
			    strbuf_or_null(&r->md_warning));
	return o;
}

static struct jval *count(size_t n)
{
	return jval_integer((int64_t)n);
}

static struct jval *summary_json(const struct verify_batch *b)
{
	const struct verify_tally *t = &b->tally;
	const char *since = b->run.opts.changed_since;
	struct jval *summary = jval_object();

	jval_object_set_new(summary, "reports", count(t->reports));
	jval_object_set_new(summary, "intact", count(t->nr[VERIFY_INTACT]));
	jval_object_set_new(summary, "drifted", count(t->nr[VERIFY_DRIFTED]));
	jval_object_set_new(summary, "errors", count(t->nr[VERIFY_ERRORED]));
	jval_object_set_new(summary, "untrusted",
			    count(t->nr[VERIFY_UNTRUSTED]));
	/* Only with the options, so the object stays as it was. */
	if (t->requiring)
		jval_object_set_new(summary, "missing_sidecars",
				    count(t->nr[VERIFY_MISSING]));
	if (since) {
		jval_object_set_new(summary, "skipped", count(t->skipped));
		jval_object_set_new(summary, "changed_since",
				    jsonout_text(since));
		jval_object_set_new(summary, "merge_base",
				    str_or_null(b->run.since_base));
	}
	return summary;
}

/*
 * v pretty-printed as it shows inside the document: each line after the
 * first indented by indent spaces.  JSON strings hold no raw newline, so
 * every newline is a line of the layout.
 */
static void pretty_nested(struct strbuf *out, const struct jval *v,
			  size_t indent)
{
	struct strbuf text = STRBUF_INIT;
	const char *p, *nl;

	jsonout_pretty(&text, v);
	for (p = text.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		strbuf_add(out, p, (size_t)(nl - p) + 1);
		strbuf_addf(out, "%*s", (int)indent, "");
	}
	strbuf_addstr(out, p);
	strbuf_release(&text);
}

void verify_json_head(struct strbuf *out, const struct verify_batch *b)
{
	struct jval *errs = jval_array();
	size_t i;

	for (i = 0; i < b->list.errors.nr; i++)
		jval_array_append_new(errs,
				      jsonout_text(b->list.errors.items[i]));
	strbuf_addstr(out, "{\n  \"version\": 1,\n  \"errors\": ");
	pretty_nested(out, errs, 2);
	strbuf_addstr(out, ",\n  \"reports\": [");
	jval_decref(errs);
}

void verify_json_report(struct strbuf *out, const struct verify_report *r,
			const struct verify_options *opts)
{
	struct jval *o = report_json(r, opts);

	pretty_nested(out, o, 4);
	jval_decref(o);
}

void verify_json_separator(struct strbuf *out, int first)
{
	strbuf_addstr(out, first ? "\n    " : ",\n    ");
}

void verify_json_tail(struct strbuf *out, const struct verify_batch *b,
		      size_t nr, int status)
{
	struct jval *summary = summary_json(b);

	strbuf_addstr(out, nr ? "\n  ],\n" : "],\n");
	strbuf_addstr(out, "  \"summary\": ");
	pretty_nested(out, summary, 2);
	strbuf_addf(out, ",\n  \"exit_status\": %d\n}\n", status);
	jval_decref(summary);
}
