/*
 * verify's text output, in the reference's layout line for line.  Every
 * string that came from a file (the sidecar's fields, paths, messages
 * that quote them) goes through quote.h, so whatever a sidecar holds,
 * each field is one line and nothing can print a verdict of its own.
 *
 * The text goes to standard output only, so colour is color_want(1)'s
 * answer: "ok" green, "FAIL" red, the verdict in the colour of its news.
 * Colour codes wrap our own words only, never text from a file.
 */
#include "config.h"
#include "verify.h"
#include "advice.h"
#include "color.h"
#include "explain.h"
#include "quote.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/*
 * "  ok    " or "  FAIL  ", coloured when standard output is.  The text
 * layout appends fixed words with strbuf_addstr(): a run prints a dozen
 * lines per report, and formatting them through printf was a tenth of
 * a warm run.
 */
static void mark(struct strbuf *out, int ok)
{
	strbuf_addstr(out, "  ");
	strbuf_addstr(out, color_code(1, ok ? COLOR_GREEN : COLOR_RED));
	strbuf_addstr(out, ok ? "ok  " : "FAIL");
	strbuf_addstr(out, color_code(1, COLOR_RESET));
	strbuf_addstr(out, "  ");
}

/* "verdict: <words>\n", the words coloured by what they mean. */
static void verdict(struct strbuf *out, enum verify_verdict v)
{
	const char *words = v == VERIFY_INTACT ? "replay inputs intact" :
		v == VERIFY_DRIFTED ? "drift detected" :
		v == VERIFY_MISSING ? "missing sidecar" :
		v == VERIFY_UNTRUSTED ? "signature check failed" :
		"could not verify";
	const char *code = v == VERIFY_INTACT ? COLOR_GREEN :
		v == VERIFY_DRIFTED || v == VERIFY_UNTRUSTED ? COLOR_RED :
		COLOR_YELLOW;

	strbuf_addstr(out, "verdict: ");
	strbuf_addstr(out, color_code(1, code));
	strbuf_addstr(out, words);
	strbuf_addstr(out, color_code(1, COLOR_RESET));
	strbuf_addch(out, '\n');
}

/* "  label: value\n" with the value quoted as a field. */
static void field(struct strbuf *out, const char *label, const char *value,
		  const char *suffix)
{
	strbuf_addstr(out, label);
	quote_c_style(out, value);
	strbuf_addstr(out, suffix);
	strbuf_addch(out, '\n');
}

/* prefix, then a message escaped onto one line, then a line feed. */
static void message(struct strbuf *out, const char *prefix,
		    const struct strbuf *msg)
{
	strbuf_addstr(out, prefix);
	quote_escape(out, msg->buf, msg->len);
	strbuf_addch(out, '\n');
}

/*
 * --explain's lines (a diff of the input's text): each escaped, so a
 * control character in the input shows as such and moves nothing.
 */
static void explanation(struct strbuf *out, const struct explanation *e)
{
	struct strbuf ex = STRBUF_INIT;
	const char *p, *nl;

	explain_print(&ex, e, "        ");
	for (p = ex.buf; (nl = memchr(p, '\n', ex.buf + ex.len - p));
	     p = nl + 1) {
		quote_escape(out, p, (size_t)(nl - p));
		strbuf_addch(out, '\n');
	}
	if (p < ex.buf + ex.len) {
		quote_escape(out, p, (size_t)(ex.buf + ex.len - p));
		strbuf_addch(out, '\n');
	}
	strbuf_release(&ex);
}

void verify_format_text(struct strbuf *out, const struct verify_report *r,
			const struct verify_options *opts)
{
	const struct sidecar *sc = &r->sc;
	int i;

	if (r->verdict == VERIFY_MISSING) {
		field(out, "ahd verify-replay \xc2\xb7 ", r->report.buf, "");
		mark(out, 0);
		message(out, "missing sidecar: ", &r->error);
		strbuf_addch(out, '\n');
		verdict(out, r->verdict);
		return;
	}
	field(out, "ahd verify-replay \xc2\xb7 ", r->report.buf, "");
	field(out, "replay: ", r->sidecar_path.buf, "");
	if (r->layout) {
		field(out, "  layout: ", r->layout->name, "");
		if (r->rec.commit)
			field(out, "  commit: ", r->rec.commit, "");
		strbuf_addch(out, '\n');
		goto checks;
	}
	field(out, "  kind: ", sc->kind, "");
	field(out, "  ahd_version: ", sc->ahd_version, "");
	if (sc->ahd_commit && *sc->ahd_commit)
		field(out, "  ahd_commit: ", sc->ahd_commit,
		      sc->git_dirty == 1 ? " (dirty)" : "");
	field(out, "  invoked_at: ", sc->invoked_at, "\n");
checks:
	for (i = 0; i < r->nr_checks; i++) {
		const struct verify_check *c = &r->checks[i];

		if (c->ok) {
			mark(out, 1);
			strbuf_addstr(out, c->field);
			strbuf_addstr(out, " hash matches\n");
			continue;
		}
		mark(out, 0);
		strbuf_addf(out, "%s: ", c->field);
		message(out, "", &c->reason);
		field(out, "        expected ", c->expected, "");
		field(out, "        actual   ",
		      c->actual.len ? c->actual.buf : "<none>", "");
		if (c->explain)
			explanation(out, c->explain);
	}
	if (verify_signature_failed(r, opts)) {
		mark(out, 0);
		message(out, "signature: ", &r->sig.reason);
	} else if (r->sig.status == SIG_OK && r->sig.principal.len) {
		mark(out, 1);
		strbuf_addstr(out, "SSH signature by ");
		quote_c_style(out, r->sig.principal.buf);
		field(out, " (key ", r->sig.key_id.buf, ") verifies");
	} else if (r->sig.status == SIG_OK) {
		mark(out, 1);
		field(out, "signature by ", r->sig.key_id.buf,
		      r->sig.sidecar_only ? " verifies (version 1: it covers "
		      "the sidecar only, not the report)" : " verifies");
	}
	if (r->commit_checked && r->commit_sig.ok) {
		mark(out, 1);
		strbuf_addf(out, "commit %s, which last changed the "
			    "sidecar, is signed by ", r->commit_sig.commit);
		quote_c_style(out, r->commit_sig.principal.buf);
		strbuf_addch(out, '\n');
	} else if (r->commit_checked) {
		mark(out, 0);
		message(out, "signed commit: ", &r->commit_sig.reason);
	}
	if (r->error.len) {
		mark(out, 0);
		message(out, "", &r->error);
	}
	strbuf_addch(out, '\n');
	if (r->notes.len || r->md_warning.len) {
		/* verify.c escapes each note as it adds it: one per line */
		strbuf_addbuf(out, &r->notes);
		if (r->md_warning.len)
			message(out, "  warning: ", &r->md_warning);
		strbuf_addch(out, '\n');
	}
	verdict(out, r->verdict);
}

/* A report without a sidecar: backfill writes one (said once a run). */
int verify_wants_backfill_hint(const struct verify_report *r)
{
	/* backfill writes AHD's sidecars, not a layout's */
	return !r->layout && !r->loaded && access(r->sidecar_path.buf, F_OK) &&
		errno == ENOENT && !access(r->report.buf, F_OK);
}

void verify_hint_backfill(const char *report)
{
	struct strbuf path = STRBUF_INIT;

	quote_c_style(&path, report);
	advise_once(ADVICE_BACKFILL, "%s has no sidecar; to write one from "
		    "the report's git history:\n  ahd-replay backfill %s\n"
		    "(with --dry-run first to see what it would write)",
		    path.buf, path.buf);
	strbuf_release(&path);
}
