/*
 * ahd-replay verify: re-hash the inputs that sidecars pin.
 *
 * The run is verify-batch.c's (which sidecars, the keys, each report
 * verified by verify.c, their drift attributed); this file parses the
 * options and prints.  The text output keeps the reference's shape line
 * for line; our additions (notes, the markdown block warning, the
 * summary) come after the checks.
 */
#include "config.h"
#include "advice.h"
#include "builtin.h"
#include "ci/output.h"
#include "color.h"
#include "json/jsonout.h"
#include "parse-options.h"
#include "quote.h"
#include "usage.h"
#include "verify/verify-batch.h"
#include "verify/verify-github.h"
#include "verify/verify-outcome.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char verify_usage_text[] =
	"Exit status: 0 when every report's inputs are intact, 1 when an input\n"
	"drifted or is missing or a signature check failed, 2 on usage errors\n"
	"and unusable input.\n";

struct verify_opts {
	int quiet;
	int color;		/* --color, which color_want() reads */
	enum output_format format;
	struct path_list require;	/* --require-sidecar globs */
	struct output_list outputs;	/* --output */
	struct verify_batch_options batch;
};

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
		error_path(r->sidecar_path.buf, &r->error);
		return;
	}
	if (opts->quiet && r->verdict == VERIFY_INTACT)
		return;
	if ((*printed)++)
		putchar('\n');
	verify_format_text(&out, r, &opts->batch.core);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}

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
		OPT_BOOL(0, "all", &opts->batch.all, "every *.replay.json in the "
			 "repository (the default without operands)"),
		OPT_FORMAT_CI(&opts->format, "text (default), json, github "
			      "annotations, SARIF 2.1.0 or JUnit XML"),
		OPT_OUTPUT(&opts->outputs),
		OPT_BOOL('q', "quiet", &opts->quiet, "print only failures and "
			 "the summary"),
		OPT_BOOL(0, "allow-empty", &opts->batch.allow_empty, "finding "
			 "no report is not an error"),
		OPT_COLOR(&opts->color),
		OPT_STRING(0, "root", &opts->batch.core.root, "<dir>", "recorded paths "
			   "are relative to <dir>"),
		OPT_STRING(0, "at", &opts->batch.core.at, "<rev>", "read tokens and "
			   "briefs as they are at <rev>"),
		OPT_BOOL(0, "allow-outside-root", &opts->batch.core.allow_outside, "let "
			 "recorded paths leave the root"),
		OPT_BOOL(0, "no-attribution", &opts->batch.core.no_attribution, "do "
			 "not search the history for the commit that changed "
			 "a drifted input"),
		OPT_BOOL(0, "no-cache", &opts->batch.core.no_cache, "neither "
			 "read nor write the cache in the git directory "
			 "(default: git config ahd-replay.cache)"),
		OPT_STRING(0, "trusted-keys", &opts->batch.trusted_keys, "<dir>",
			   "check <sidecar>.sig files against the *.pub keys "
			   "in <dir> (default: git config "
			   "ahd-replay.trustedKeys)"),
		OPT_STRING(0, "allowed-signers", &opts->batch.trust.allowed_signers,
			   "<file>", "trust SSH signatures by the keys of this "
			   "allowed-signers file (default: git config "
			   "ahd-replay.allowedSignersFile, then "
			   "gpg.ssh.allowedSignersFile)"),
		OPT_STRING(0, "revoked-keys", &opts->batch.trust.revoked_keys,
			   "<file>", "refuse SSH signatures by the public keys "
			   "listed in <file> (default: git config "
			   "ahd-replay.revokedKeysFile, then "
			   "gpg.ssh.revocationFile)"),
		OPT_STRING(0, "trusted-keys-at", &opts->batch.trust.at, "<rev>",
			   "read the trusted keys, allowed-signers and "
			   "revoked-keys files as they are in commit <rev>"),
		OPT_BOOL(0, "require-signature", &opts->batch.core.require_signature, "an "
			 "unsigned sidecar fails too (default: git config "
			 "ahd-replay.requireSignature)"),
		OPT_BOOL(0, "require-signed-commit",
			 &opts->batch.core.require_signed_commit, "the commit that "
			 "last changed each sidecar must be SSH-signed by an "
			 "allowed signer"),
		OPT_BOOL(0, "explain", &opts->batch.core.explain, "for a drifted "
			 "input, what changed since the version with the "
			 "recorded hash"),
		OPT_STRING(0, "changed-since", &opts->batch.core.changed_since, "<rev>",
			   "check only the reports whose sidecar, token or "
			   "brief changed since <rev>'s merge base"),
		OPT_CALLBACK('j', "jobs", &opts->batch.jobs, "<n>", "verify "
			     "on <n> threads (default: the online CPUs; 1: "
			     "serial)", parse_opt_jobs),
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

/*
 * The summary lines of the text and github formats, and the job summary.
 * Returns 0, or -1 when the job summary could not be written.
 */
static int print_summary(const struct verify_batch *b,
			 const struct verify_opts *opts,
			 struct verify_github *gh, int printed)
{
	struct strbuf line = STRBUF_INIT, skipped = STRBUF_INIT;
	int ret = 0;

	if (opts->format != FORMAT_TEXT && opts->format != FORMAT_GITHUB)
		return 0;
	verify_summary_line(&line, b);
	if (opts->batch.core.changed_since)
		verify_skipped_line(&skipped, b);
	if (b->tally.reports != 1) {
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
static int write_documents(const struct verify_batch *b,
			   const struct verify_opts *opts,
			   const struct outcome *oc, int status)
{
	int ret = status;

	if (output_wants(&opts->outputs, opts->format, FORMAT_JSON)) {
		struct jval *doc = verify_batch_json(b, status);
		struct strbuf text = STRBUF_INIT;

		jsonout_pretty(&text, doc);
		strbuf_addch(&text, '\n');
		if (opts->format == FORMAT_JSON)
			fwrite(text.buf, 1, text.len, stdout);
		if (output_write(&opts->outputs, FORMAT_JSON, text.buf,
				 text.len))
			ret = 2;
		strbuf_release(&text);
		jval_decref(doc);
	}
	if (output_outcome(&opts->outputs, opts->format, oc, status))
		ret = 2;
	return ret;
}

/*
 * Every report in its format, in order, then the summary and the
 * documents.  Returns the status, 2 when an output failed.
 */
static int print_batch(const struct verify_batch *b,
		       const struct verify_opts *opts, int status)
{
	struct outcome oc = OUTCOME_INIT("verify");
	struct verify_github gh = VERIFY_GITHUB_INIT;
	int printed = 0;
	size_t i;

	gh.quiet = opts->quiet;
	/* no report at all: an error in every format */
	if (b->empty)
		outcome_add(&oc, "verify", "reports", OUTCOME_ERROR,
			    "no-reports", VERIFY_EMPTY_MESSAGE);
	if (b->empty && opts->format == FORMAT_GITHUB)
		printf("::error title=ahd-replay verify::%s\n",
		       VERIFY_EMPTY_MESSAGE);
	for (i = 0; i < b->nr; i++) {
		const struct verify_report *r = &b->reports[i];

		/* a skipped report is a case of its own in SARIF and JUnit */
		verify_outcome_add(&oc, r, &opts->batch.core);
		if (r->skipped)
			continue;
		if (opts->format == FORMAT_TEXT)
			print_text(r, opts, &printed);
		else if (opts->format == FORMAT_GITHUB)
			verify_github_report(&gh, r, &opts->batch.core);
	}
	if (print_summary(b, opts, &gh, printed))
		status = 2;
	status = write_documents(b, opts, &oc, status);
	for (i = 0; i < b->nr; i++)	/* hints after results, as git's */
		verify_hint_backfill(&b->reports[i]);
	outcome_release(&oc);
	github_summary_release(&gh.summary);
	return status;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts opts;
	struct verify_batch batch;
	struct strbuf err = STRBUF_INIT;
	int status = 2;

	memset(&opts, 0, sizeof(opts));
	verify_batch_init(&batch);
	opts.format = FORMAT_TEXT;
	opts.batch.core.require_signature = -1;
	argc = parse_verify_options(&opts, argc, argv);
	if (verify_options_configure(&opts.batch.core, &err))
		die("%s", err.buf);
	opts.batch.require = (const char *const *)opts.require.items;
	opts.batch.nr_require = opts.require.nr;
	opts.batch.errors_in_document = opts.format == FORMAT_JSON;
	if (opts.format == FORMAT_TEXT)	/* before any report is formatted */
		color_want(1);
	/* Before any work: a refused --output is a usage problem. */
	if (!output_check(&opts.outputs)) {
		status = verify_batch_run(&batch, &opts.batch, argc, argv);
		status = print_batch(&batch, &opts, status);
	}
	verify_batch_release(&batch);
	output_list_release(&opts.outputs);
	free(opts.require.items);
	strbuf_release(&err);
	return finish_stdout(status);
}
