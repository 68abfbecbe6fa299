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

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strbuf_or_null(const struct strbuf *sb)
{
	return sb->len ? json_string(sb->buf) : json_null();
}

/*
 * The signature check as an integrity event: what was checked, the
 * outcome, and whether it counts against the report.
 */
static json_t *signature_event_json(const struct verify_report *r,
				    const struct verify_options *opts)
{
	const struct sig_result *s = &r->sig;
	json_t *e = json_object();

	json_object_set_new(e, "type", json_string("signature"));
	json_object_set_new(e, "status",
			    json_string(sig_status_name(s->status)));
	json_object_set_new(e, "ok", json_boolean(
		!verify_signature_failed(r, opts)));
	json_object_set_new(e, "signature", json_string(s->sig_path.buf));
	json_object_set_new(e, "kind", str_or_null(s->kind));
	json_object_set_new(e, "covers", s->status != SIG_OK ? json_null() :
			    json_string(s->sidecar_only ? "sidecar" :
					"statement"));
	json_object_set_new(e, "principal", strbuf_or_null(&s->principal));
	json_object_set_new(e, "key_id", strbuf_or_null(&s->key_id));
	json_object_set_new(e, "expected", strbuf_or_null(&s->expected));
	json_object_set_new(e, "actual", strbuf_or_null(&s->actual));
	json_object_set_new(e, "reason", strbuf_or_null(&s->reason));
	return e;
}

/* --require-signed-commit's check as an integrity event. */
static json_t *commit_event_json(const struct verify_report *r)
{
	const struct commitsig_result *c = &r->commit_sig;
	json_t *e = json_object();

	json_object_set_new(e, "type", json_string("signed-commit"));
	json_object_set_new(e, "ok", json_boolean(c->ok));
	json_object_set_new(e, "commit", *c->commit ?
			    json_string(c->commit) : json_null());
	json_object_set_new(e, "principal", strbuf_or_null(&c->principal));
	json_object_set_new(e, "reason", strbuf_or_null(&c->reason));
	return e;
}

static json_t *check_json(const struct verify_check *c)
{
	json_t *cj = json_object();

	json_object_set_new(cj, "field", json_string(c->field));
	json_object_set_new(cj, "ok", json_boolean(c->ok));
	json_object_set_new(cj, "error", json_boolean(c->error));
	json_object_set_new(cj, "expected", json_string(c->expected));
	json_object_set_new(cj, "actual", strbuf_or_null(&c->actual));
	json_object_set_new(cj, "reason", strbuf_or_null(&c->reason));
	json_object_set_new(cj, "note", strbuf_or_null(&c->note));
	if (c->explain)
		json_object_set_new(cj, "explain", explain_json(c->explain));
	return cj;
}

static json_t *report_json(const struct verify_report *r,
			   const struct verify_options *opts)
{
	static const char *const verdicts[] = {
		"intact", "drift", "error", "untrusted", "missing-sidecar",
	};
	json_t *o = json_object(), *checks = json_array();
	json_t *events = json_array();
	int i;

	json_object_set_new(o, "report", json_string(r->report.buf));
	json_object_set_new(o, "sidecar", json_string(r->sidecar_path.buf));
	json_object_set_new(o, "status", json_string(verdicts[r->verdict]));
	json_object_set_new(o, "error", strbuf_or_null(&r->error));
	if (r->loaded) {
		json_object_set_new(o, "root", json_string(r->root.buf));
		json_object_set_new(o, "root_from", json_string(
			root_origin_name(r->root_origin)));
		json_object_set_new(o, "kind", json_string(r->sc.kind));
		json_object_set_new(o, "ahd_version",
				    json_string(r->sc.ahd_version));
		/* a layout's record: its commit field, and the layout */
		json_object_set_new(o, "ahd_commit", str_or_null(r->layout ?
				    r->rec.commit : r->sc.ahd_commit));
		if (r->layout)
			json_object_set_new(o, "layout",
					    json_string(r->layout->name));
		json_object_set_new(o, "git_dirty", r->sc.git_dirty < 0 ?
				    json_null() : json_boolean(r->sc.git_dirty));
		json_object_set_new(o, "invoked_at",
				    json_string(r->sc.invoked_at));
	}
	for (i = 0; i < r->nr_checks; i++)
		json_array_append_new(checks, check_json(&r->checks[i]));
	json_object_set_new(o, "checks", checks);
	if (r->loaded)
		json_array_append_new(events, signature_event_json(r, opts));
	if (r->commit_checked)
		json_array_append_new(events, commit_event_json(r));
	json_object_set_new(o, "integrity_events", events);
	json_object_set_new(o, "unknown_fields", strbuf_or_null(&r->sc.unknown));
	json_object_set_new(o, "markdown_warning",
			    strbuf_or_null(&r->md_warning));
	return o;
}

static json_t *count(size_t n)
{
	return json_integer((json_int_t)n);
}

static json_t *summary_json(const struct verify_batch *b)
{
	const struct verify_tally *t = &b->tally;
	const char *since = b->run.opts.changed_since;
	json_t *summary = json_object();

	json_object_set_new(summary, "reports", count(t->reports));
	json_object_set_new(summary, "intact", count(t->nr[VERIFY_INTACT]));
	json_object_set_new(summary, "drifted", count(t->nr[VERIFY_DRIFTED]));
	json_object_set_new(summary, "errors", count(t->nr[VERIFY_ERRORED]));
	json_object_set_new(summary, "untrusted",
			    count(t->nr[VERIFY_UNTRUSTED]));
	/* Only with the options, so the object stays as it was. */
	if (t->requiring)
		json_object_set_new(summary, "missing_sidecars",
				    count(t->nr[VERIFY_MISSING]));
	if (since) {
		json_object_set_new(summary, "skipped", count(t->skipped));
		json_object_set_new(summary, "changed_since",
				    jsonout_text(since));
		json_object_set_new(summary, "merge_base",
				    str_or_null(b->run.since_base));
	}
	return summary;
}

json_t *verify_batch_json(const struct verify_batch *b, int status)
{
	json_t *doc = json_object(), *errs = json_array();
	json_t *reports = json_array();
	size_t i;

	for (i = 0; i < b->list.errors.nr; i++)
		json_array_append_new(errs,
				      jsonout_text(b->list.errors.items[i]));
	for (i = 0; i < b->nr; i++)
		if (!b->reports[i].skipped)
			json_array_append_new(reports, report_json(
				&b->reports[i], &b->run.opts));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "errors", errs);
	json_object_set_new(doc, "reports", reports);
	json_object_set_new(doc, "summary", summary_json(b));
	json_object_set_new(doc, "exit_status", json_integer(status));
	return doc;
}
