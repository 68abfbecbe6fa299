/*
 * Verified reports as outcome cases (see verify-outcome.h).
 */
#include "config.h"
#include "verify-outcome.h"
#include "ci/sarif.h"

#include <string.h>

/* The rule a failed check breaks. */
static const char *check_rule(const struct verify_check *c)
{
	if (c->kind)
		return c->kind;
	if (c->error)
		return "unusable-input";
	return !strcmp(c->field, "token") ? "token-drift" : "brief-drift";
}

/* Fingerprint parts: the sidecar as a URI (stable across clones). */
static void fingerprint(struct outcome_case *oc, const char *file,
			const char *what, const char *value)
{
	struct strbuf uri = STRBUF_INIT;
	const char *parts[3];
	int relative;

	outcome_uri(&uri, file, &relative);
	parts[0] = uri.buf;
	parts[1] = what;
	parts[2] = value;
	outcome_set_fingerprint(oc, parts, 3);
	strbuf_release(&uri);
}

static void add_check(struct outcome *o, const struct verify_report *r,
		      const struct verify_check *c)
{
	struct strbuf msg = STRBUF_INIT, key = STRBUF_INIT;
	struct outcome_case *oc;

	if (c->ok) {
		oc = outcome_add(o, r->report.buf, c->field, OUTCOME_PASS,
				 NULL, NULL);
		outcome_set_location(oc, r->sidecar_path.buf, 0);
		return;
	}
	strbuf_addf(&msg, "%s: %s (expected %s, actual %s)", c->field,
		    c->reason.buf, c->expected,
		    c->actual.len ? c->actual.buf : "none");
	oc = outcome_add(o, r->report.buf, c->field, c->error ? OUTCOME_ERROR :
			 OUTCOME_FAIL, check_rule(c), msg.buf);
	strbuf_addf(&key, "\"%s\"", c->field);
	outcome_set_location(oc, r->sidecar_path.buf,
			     outcome_line_of(r->sidecar_path.buf, key.buf,
					     c->expected));
	fingerprint(oc, r->sidecar_path.buf, c->field, c->expected);
	strbuf_release(&msg);
	strbuf_release(&key);
}

void verify_outcome_add(struct outcome *o, const struct verify_report *r,
			const struct verify_options *opts)
{
	struct outcome_case *oc;
	int i;

	if (r->skipped) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "unchanged since %s: not checked",
			    opts->changed_since ? opts->changed_since : "?");
		oc = outcome_add(o, r->report.buf, "report", OUTCOME_SKIPPED,
				 NULL, msg.buf);
		outcome_set_location(oc, r->sidecar_path.buf, 0);
		strbuf_release(&msg);
		return;
	}
	if (r->verdict == VERIFY_MISSING) {
		oc = outcome_add(o, r->report.buf, "sidecar", OUTCOME_FAIL,
				 "missing-sidecar", r->error.buf);
		outcome_set_location(oc, r->markdown.buf, 1);
		fingerprint(oc, r->markdown.buf, "sidecar", "missing");
		return;
	}
	if (r->error.len) {
		oc = outcome_add(o, r->report.buf, "sidecar", OUTCOME_ERROR,
				 "invalid-sidecar", r->error.buf);
		outcome_set_location(oc, r->sidecar_path.buf, 0);
		fingerprint(oc, r->sidecar_path.buf, "sidecar", r->error.buf);
	}
	for (i = 0; i < r->nr_checks; i++)
		add_check(o, r, &r->checks[i]);
	if (r->loaded && (r->sig.status != SIG_UNSIGNED ||
			  opts->require_signature)) {
		int failed = verify_signature_failed(r, opts);

		oc = outcome_add(o, r->report.buf, "signature", failed ?
				 OUTCOME_FAIL : OUTCOME_PASS, failed ?
				 "signature" : NULL, failed ?
				 r->sig.reason.buf : NULL);
		outcome_set_location(oc, r->sidecar_path.buf, failed ? 1 : 0);
		if (failed)
			fingerprint(oc, r->sidecar_path.buf, "signature",
				    sig_status_name(r->sig.status));
	}
	if (r->commit_checked) {
		int failed = !r->commit_sig.ok;

		oc = outcome_add(o, r->report.buf, "signed-commit", failed ?
				 OUTCOME_FAIL : OUTCOME_PASS, failed ?
				 "signed-commit" : NULL, failed ?
				 r->commit_sig.reason.buf : NULL);
		outcome_set_location(oc, r->sidecar_path.buf, failed ? 1 : 0);
		if (failed)
			fingerprint(oc, r->sidecar_path.buf, "signed-commit",
				    r->commit_sig.commit);
	}
	if (r->md_warning.len) {
		oc = outcome_add(o, r->report.buf, "markdown-block",
				 OUTCOME_WARNING, "markdown-block",
				 r->md_warning.buf);
		outcome_set_location(oc, r->markdown.buf, r->md_line);
		fingerprint(oc, r->markdown.buf, "markdown-block",
			    r->sc.token.hash ? r->sc.token.hash : "");
	}
}
