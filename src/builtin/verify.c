/*
 * ahd-replay verify: re-hash the inputs that sidecars pin.
 *
 * The sidecars come from sidecar-list.c, the verification of each from
 * verify.c; this file parses the options and prints.  The text output
 * keeps the reference's shape line for line; our additions (notes, the
 * markdown block warning, the summary) come after the checks.
 */
#include "config.h"
#include "builtin.h"
#include "verify/explain.h"
#include "json/jsonout.h"
#include "ci/output.h"
#include "parse-options.h"
#include "quote.h"
#include "record/require-sidecar.h"
#include "root/root.h"
#include "git/repo.h"
#include "record/sidecar-list.h"
#include "sign/sigtrust.h"
#include "usage.h"
#include "verify/verify.h"
#include "verify/verify-github.h"
#include "verify/verify-outcome.h"
#include "record/sidecar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char verify_usage_text[] =
	"Exit status: 0 when every report's inputs are intact, 1 when an input\n"
	"drifted or is missing or a signature check failed, 2 on usage errors\n"
	"and unusable input.\n";


struct verify_opts {
	int all;
	int quiet;
	enum output_format format;
	const char *trusted_keys;
	struct path_list require;	/* --require-sidecar globs */
	struct output_list outputs;	/* --output */
	struct sig_trust_opts trust;
	struct verify_options core;
};

/* --- output ---------------------------------------------------------- */

/*
 * One report in the reference's layout (verify_format_text()).  *printed
 * counts the reports shown so far, so that a blank line separates them
 * (and nothing leads).
 */
static void print_text(const struct verify_report *r,
		       const struct verify_opts *opts, int *printed)
{
	struct strbuf out = STRBUF_INIT;

	if (!r->loaded && r->verdict != VERIFY_MISSING) {
		quote_c_style(&out, r->sidecar_path.buf);
		strbuf_addstr(&out, ": ");
		quote_escape(&out, r->error.buf, r->error.len);
		error("%s", out.buf);
		strbuf_release(&out);
		return;
	}
	if (opts->quiet && r->verdict == VERIFY_INTACT)
		return;
	if ((*printed)++)
		putchar('\n');
	verify_format_text(&out, r, &opts->core);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}

static json_t *json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/*
 * The signature check as an integrity event: what was checked, the
 * outcome, and whether it counts against the report.
 */
static json_t *signature_event_json(const struct verify_report *r,
				    const struct verify_opts *opts)
{
	const struct sig_result *s = &r->sig;
	json_t *e = json_object();

	json_object_set_new(e, "type", json_string("signature"));
	json_object_set_new(e, "status",
			    json_string(sig_status_name(s->status)));
	json_object_set_new(e, "ok", json_boolean(
		!verify_signature_failed(r, &opts->core)));
	json_object_set_new(e, "signature", json_string(s->sig_path.buf));
	json_object_set_new(e, "kind", json_str_or_null(s->kind));
	json_object_set_new(e, "covers", s->status != SIG_OK ? json_null() :
			    json_string(s->sidecar_only ? "sidecar" :
					"statement"));
	json_object_set_new(e, "principal", s->principal.len ?
			    json_string(s->principal.buf) : json_null());
	json_object_set_new(e, "key_id", s->key_id.len ?
			    json_string(s->key_id.buf) : json_null());
	json_object_set_new(e, "expected", s->expected.len ?
			    json_string(s->expected.buf) : json_null());
	json_object_set_new(e, "actual", s->actual.len ?
			    json_string(s->actual.buf) : json_null());
	json_object_set_new(e, "reason", s->reason.len ?
			    json_string(s->reason.buf) : json_null());
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
	json_object_set_new(e, "principal", c->principal.len ?
			    json_string(c->principal.buf) : json_null());
	json_object_set_new(e, "reason", c->reason.len ?
			    json_string(c->reason.buf) : json_null());
	return e;
}

static json_t *report_json(const struct verify_report *r,
			   const struct verify_opts *opts)
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
	json_object_set_new(o, "error", r->error.len ?
			    json_string(r->error.buf) : json_null());
	if (r->loaded) {
		json_object_set_new(o, "root", json_string(r->root.buf));
		json_object_set_new(o, "root_from", json_string(
			root_origin_name(r->root_origin)));
		json_object_set_new(o, "kind", json_string(r->sc.kind));
		json_object_set_new(o, "ahd_version",
				    json_string(r->sc.ahd_version));
		json_object_set_new(o, "ahd_commit",
				    json_str_or_null(r->sc.ahd_commit));
		json_object_set_new(o, "git_dirty", r->sc.git_dirty < 0 ?
				    json_null() : json_boolean(r->sc.git_dirty));
		json_object_set_new(o, "invoked_at",
				    json_string(r->sc.invoked_at));
	}
	for (i = 0; i < r->nr_checks; i++) {
		const struct verify_check *c = &r->checks[i];
		json_t *cj = json_object();

		json_object_set_new(cj, "field", json_string(c->field));
		json_object_set_new(cj, "ok", json_boolean(c->ok));
		json_object_set_new(cj, "error", json_boolean(c->error));
		json_object_set_new(cj, "expected", json_string(c->expected));
		json_object_set_new(cj, "actual", c->actual.len ?
				    json_string(c->actual.buf) : json_null());
		json_object_set_new(cj, "reason", c->reason.len ?
				    json_string(c->reason.buf) : json_null());
		json_object_set_new(cj, "note", c->note.len ?
				    json_string(c->note.buf) : json_null());
		if (c->explain)
			json_object_set_new(cj, "explain",
					    explain_json(c->explain));
		json_array_append_new(checks, cj);
	}
	json_object_set_new(o, "checks", checks);
	if (r->loaded)
		json_array_append_new(events, signature_event_json(r, opts));
	if (r->commit_checked)
		json_array_append_new(events, commit_event_json(r));
	json_object_set_new(o, "integrity_events", events);
	json_object_set_new(o, "unknown_fields", r->sc.unknown.len ?
			    json_string(r->sc.unknown.buf) : json_null());
	json_object_set_new(o, "markdown_warning", r->md_warning.len ?
			    json_string(r->md_warning.buf) : json_null());
	return o;
}

/* --- driver ---------------------------------------------------------- */

static int add_require(const struct parse_opt *opt, const char *arg)
{
	struct path_list *l = opt->value;

	if (!*arg)
		return error("--require-sidecar wants a glob");
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr++] = (char *)arg;
	return 0;
}

/* Returns the number of operands, moved to argv[0..). */
static int parse_verify_options(struct verify_opts *opts, int argc,
				char **argv)
{
	const struct parse_opt options[] = {
		OPT_BOOL(0, "all", &opts->all, "every *.replay.json in the "
			 "repository (the default without operands)"),
		OPT_FORMAT_CI(&opts->format, "text (default), json, github "
			      "annotations, SARIF 2.1.0 or JUnit XML"),
		OPT_OUTPUT(&opts->outputs),
		OPT_BOOL('q', "quiet", &opts->quiet, "print only failures and "
			 "the summary"),
		OPT_STRING(0, "root", &opts->core.root, "<dir>", "recorded paths "
			   "are relative to <dir>"),
		OPT_STRING(0, "at", &opts->core.at, "<rev>", "read tokens and "
			   "briefs as they are at <rev>"),
		OPT_BOOL(0, "allow-outside-root", &opts->core.allow_outside, "let "
			 "recorded paths leave the root"),
		OPT_BOOL(0, "no-attribution", &opts->core.no_attribution, "do "
			 "not search the history for the commit that changed "
			 "a drifted input"),
		OPT_STRING(0, "trusted-keys", &opts->trusted_keys, "<dir>",
			   "check <sidecar>.sig files against the *.pub keys "
			   "in <dir> (default: git config "
			   "ahd-replay.trustedKeys)"),
		OPT_STRING(0, "allowed-signers", &opts->trust.allowed_signers,
			   "<file>", "trust SSH signatures by the keys of this "
			   "allowed-signers file (default: git config "
			   "ahd-replay.allowedSignersFile, then "
			   "gpg.ssh.allowedSignersFile)"),
		OPT_STRING(0, "revoked-keys", &opts->trust.revoked_keys,
			   "<file>", "refuse SSH signatures by the public keys "
			   "listed in <file> (default: git config "
			   "ahd-replay.revokedKeysFile, then "
			   "gpg.ssh.revocationFile)"),
		OPT_STRING(0, "trusted-keys-at", &opts->trust.at, "<rev>",
			   "read the trusted keys, allowed-signers and "
			   "revoked-keys files as they are in commit <rev>"),
		OPT_BOOL(0, "require-signature", &opts->core.require_signature, "an "
			 "unsigned sidecar fails too (default: git config "
			 "ahd-replay.requireSignature)"),
		OPT_BOOL(0, "require-signed-commit",
			 &opts->core.require_signed_commit, "the commit that "
			 "last changed each sidecar must be SSH-signed by an "
			 "allowed signer"),
		OPT_BOOL(0, "explain", &opts->core.explain, "for a drifted "
			 "input, what changed since the version with the "
			 "recorded hash"),
		OPT_STRING(0, "changed-since", &opts->core.changed_since, "<rev>",
			   "check only the reports whose sidecar, token or "
			   "brief changed since <rev>'s merge base"),
		OPT_CALLBACK_F(0, "require-sidecar", &opts->require, "<glob>",
			       "markdown reports matching <glob> must have a "
			       "sidecar (default: git config "
			       "ahd-replay.requireSidecar)", OPT_REPEAT,
			       add_require),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"verify", OPERANDS("[<report>|<sidecar>|<dir>...]"), options,
		verify_usage_text
	};

	return parse_options(argc, argv, &usage, 0);
}

/* How many reports ended with each verdict, indexed by enum verify_verdict. */
struct tally {
	size_t nr[VERIFY_NR_VERDICTS];
	size_t reports;		/* checked */
	size_t skipped;		/* left out by --changed-since */
	int requiring;		/* --require-sidecar globs are in force */
	/* directories that could not be searched: errors, in the document */
	const struct path_list *errors;
};

/* The --format=json document. */
static json_t *json_document(const struct tally *t,
			     const struct verify_opts *opts,
			     const struct verify_run *run, json_t *list,
			     int status)
{
	json_t *doc = json_object(), *summary = json_object();

	json_t *errs = json_array();
	size_t i;

	for (i = 0; t->errors && i < t->errors->nr; i++)
		json_array_append_new(errs, jsonout_text(t->errors->items[i]));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "errors", errs);
	json_object_set_new(doc, "reports", json_incref(list));
	json_object_set_new(summary, "reports", json_integer((json_int_t)t->reports));
	json_object_set_new(summary, "intact", json_integer((json_int_t)t->nr[VERIFY_INTACT]));
	json_object_set_new(summary, "drifted", json_integer((json_int_t)t->nr[VERIFY_DRIFTED]));
	json_object_set_new(summary, "errors", json_integer((json_int_t)t->nr[VERIFY_ERRORED]));
	json_object_set_new(summary, "untrusted", json_integer((json_int_t)t->nr[VERIFY_UNTRUSTED]));
	/* Only with the options, so the object stays as it was. */
	if (t->requiring)
		json_object_set_new(summary, "missing_sidecars", json_integer((json_int_t)t->nr[VERIFY_MISSING]));
	if (opts->core.changed_since) {
		json_object_set_new(summary, "skipped", json_integer((json_int_t)t->skipped));
		json_object_set_new(summary, "changed_since",
				    jsonout_text(opts->core.changed_since));
		json_object_set_new(summary, "merge_base",
				    json_str_or_null(run->since_base));
	}
	json_object_set_new(doc, "summary", summary);
	json_object_set_new(doc, "exit_status", json_integer(status));
	return doc;
}

/* "3 reports: 1 intact, 1 drifted, 1 errors", the line scripts read. */
static void summary_line(struct strbuf *out, const struct tally *t)
{
	/* Fixed words, for the scripts that read this line. */
	strbuf_addf(out, "%zu reports: %zu intact, %zu drifted, %zu errors",
		    t->reports, t->nr[VERIFY_INTACT], t->nr[VERIFY_DRIFTED],
		    t->nr[VERIFY_ERRORED]);
	/* Only when present, so the line stays as it was for scripts. */
	if (t->nr[VERIFY_UNTRUSTED])
		strbuf_addf(out, ", %zu untrusted", t->nr[VERIFY_UNTRUSTED]);
	if (t->nr[VERIFY_MISSING])
		strbuf_addf(out, ", %zu missing sidecars",
			    t->nr[VERIFY_MISSING]);
}

static void skipped_line(struct strbuf *out, const struct tally *t,
			 const struct verify_opts *opts,
			 const struct verify_run *run)
{
	strbuf_addf(out, "%zu reports unchanged since %s%s%s%s not checked",
		    t->skipped, opts->core.changed_since,
		    run->since_base ? " (merge base " : "",
		    run->since_base ? run->since_base : "",
		    run->since_base ? ")" : "");
}

/*
 * The summary lines of the text and github formats, and the job summary.
 * Returns 0, or -1 when the job summary could not be written.
 */
static int print_summary(const struct tally *t, const struct verify_opts *opts,
			 const struct verify_run *run,
			 struct verify_github *gh, int printed)
{
	struct strbuf line = STRBUF_INIT, skipped = STRBUF_INIT;
	int ret = 0;

	if (opts->format != FORMAT_TEXT && opts->format != FORMAT_GITHUB)
		return 0;
	summary_line(&line, t);
	if (opts->core.changed_since)
		skipped_line(&skipped, t, opts, run);
	if (t->reports != 1) {
		if (opts->format == FORMAT_TEXT && printed)
			putchar('\n');
		printf("%s\n", line.buf);
	}
	if (skipped.len)
		printf("%s\n", skipped.buf);
	if (opts->format == FORMAT_GITHUB) {
		if (skipped.len) {
			strbuf_addstr(&line, "; ");
			strbuf_addbuf(&line, &skipped);
		}
		ret = verify_github_finish(gh, line.buf);
	}
	strbuf_release(&line);
	strbuf_release(&skipped);
	return ret;
}

/*
 * The documents: JSON on stdout or to --output files, SARIF and JUnit
 * likewise.  Returns the status, 2 when an output could not be written.
 */
static int write_documents(const struct tally *t,
			   const struct verify_opts *opts,
			   const struct verify_run *run, json_t *reports,
			   const struct outcome *oc, int status)
{
	int ret = status;

	if (reports) {
		json_t *doc = json_document(t, opts, run, reports, status);
		struct strbuf text = STRBUF_INIT;

		jsonout_pretty(&text, doc);
		strbuf_addch(&text, '\n');
		if (opts->format == FORMAT_JSON)
			fwrite(text.buf, 1, text.len, stdout);
		if (output_write(&opts->outputs, FORMAT_JSON, text.buf,
				 text.len))
			ret = 2;
		strbuf_release(&text);
		json_decref(doc);
	}
	if (output_outcome(&opts->outputs, opts->format, oc, status))
		ret = 2;
	return ret;
}

/* Where each report goes besides the text output. */
struct sinks {
	json_t *reports;	/* the JSON document's list, when wanted */
	struct outcome oc;	/* SARIF and JUnit */
	struct verify_github gh;
	int printed;		/* text: reports shown so far */
};

/* Verify one report, print it, and keep it for the documents. */
/* Count and print r, verified and its drift attributed. */
static void report_one(const struct verify_opts *opts, struct verify_report *r,
		       struct tally *tally, struct sinks *out)
{
	verify_outcome_add(&out->oc, r, &opts->core);
	if (r->skipped) {
		tally->skipped++;
		return;
	}
	tally->reports++;
	tally->nr[r->verdict]++;
	if (opts->format == FORMAT_TEXT)
		print_text(r, opts, &out->printed);
	else if (opts->format == FORMAT_GITHUB)
		verify_github_report(&out->gh, r, &opts->core);
	if (out->reports)
		json_array_append_new(out->reports, report_json(r, opts));
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts opts;
	struct strbuf err = STRBUF_INIT, value = STRBUF_INIT;
	struct sig_keyring keyring = SIG_KEYRING_INIT;
	struct sidecar_list list = SIDECAR_LIST_INIT;
	struct path_list globs = { NULL, 0, 0 };
	struct required_list missing = REQUIRED_LIST_INIT;
	struct verify_run run;
	struct tally tally;
	struct sinks out = { NULL, OUTCOME_INIT("verify"), VERIFY_GITHUB_INIT,
			     0 };
	struct verify_report *all;
	size_t n, nr = 0, i;
	int status = 0, stop = 0;

	memset(&opts, 0, sizeof(opts));
	memset(&tally, 0, sizeof(tally));
	opts.format = FORMAT_TEXT;
	opts.core.require_signature = -1;
	argc = parse_verify_options(&opts, argc, argv);
	if (opts.core.require_signature < 0) {
		int rc = repo_config_here(&value, "ahd-replay.requireSignature",
					  REPO_CONFIG_BOOL, &err);

		if (rc < 0)
			die("%s", err.buf);
		opts.core.require_signature = rc && !strcmp(value.buf, "true");
	}
	/* Before any work: a refused --output is a usage problem. */
	if (output_check(&opts.outputs)) {
		output_list_release(&opts.outputs);
		free(opts.require.items);
		return 2;
	}
	if (sidecar_list_collect(&list, argc, argv, opts.all, opts.core.root))
		status = 2;
	tally.errors = &list.errors;
	/* JSON carries them in the document: nothing on stderr */
	for (i = 0; opts.format != FORMAT_JSON && i < list.errors.nr; i++)
		error("%s", list.errors.items[i]);
	if ((opts.trust.at ?
	     sig_trust_load_keys_at(&keyring, opts.trusted_keys, opts.trust.at) :
	     verify_load_trusted_keys(&keyring, opts.trusted_keys)) ||
	    sig_trust_load_ssh(&keyring, &opts.trust) ||
	    require_sidecar_globs(&globs, (const char *const *)opts.require.items,
				  opts.require.nr) ||
	    require_sidecar_missing(&missing, &globs))
		status = 2;
	/* The other keys still check signatures; the store needs fixing. */
	if (keyring.skipped)
		status = 2;
	sig_trust_warn_changed(&opts.trust, opts.trusted_keys,
			       opts.core.changed_since);
	tally.requiring = globs.nr > 0;
	if (!list.sidecars.nr && !missing.nr && !status &&
	    opts.format != FORMAT_JSON)
		fprintf(stderr, "ahd-replay: no replay sidecars found\n");
	if (output_wants(&opts.outputs, opts.format, FORMAT_JSON))
		out.reports = json_array();
	out.gh.quiet = opts.quiet;
	verify_run_init(&run, &opts.core, &keyring);
	/*
	 * All reports first, then their drift attributed together (one
	 * history walk per input path), then printed in order.
	 */
	n = list.sidecars.nr + missing.nr;
	all = xcalloc(n ? n : 1, sizeof(*all));
	for (i = 0; i < list.sidecars.nr && !stop; i++) {
		struct verify_report *r = &all[nr++];

		verify_report_init(r, list.reports.items[i],
				   list.sidecars.items[i]);
		verify_one(&run, r);
		stop = r->stop;
	}
	for (i = 0; i < missing.nr && !stop; i++) {
		struct verify_report *r = &all[nr++];
		struct strbuf sc = STRBUF_INIT;

		sidecar_path_for(&sc, missing.items[i].report);
		verify_report_init(r, missing.items[i].report, sc.buf);
		r->required_by = missing.items[i].glob;
		verify_one(&run, r);
		strbuf_release(&sc);
	}
	verify_attribute(&run, all, nr);
	for (i = 0; i < nr; i++) {
		report_one(&opts, &all[i], &tally, &out);
		verify_report_release(&all[i]);
	}
	free(all);
	if (tally.nr[VERIFY_ERRORED])
		status = 2;
	else if ((tally.nr[VERIFY_DRIFTED] || tally.nr[VERIFY_UNTRUSTED] ||
		  tally.nr[VERIFY_MISSING]) && status < 1)
		status = 1;
	if (print_summary(&tally, &opts, &run, &out.gh, out.printed))
		status = 2;
	status = write_documents(&tally, &opts, &run, out.reports, &out.oc,
				 status);
	json_decref(out.reports);
	outcome_release(&out.oc);
	github_summary_release(&out.gh.summary);
	output_list_release(&opts.outputs);
	sidecar_list_release(&list);
	required_list_release(&missing);
	require_sidecar_globs_release(&globs);
	free(opts.require.items);
	verify_run_release(&run);
	sig_keyring_release(&keyring);
	strbuf_release(&err);
	strbuf_release(&value);
	return finish_stdout(status);
}
