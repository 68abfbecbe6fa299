/*
 * ahd-replay verify: re-hash the inputs that sidecars pin.
 *
 * The run is verify-batch.c's (which sidecars, the keys, each report
 * verified by verify.c, their drift attributed), the printing
 * verify-print.c's, report by report as they come; this file parses the
 * options and joins the two.  The text output keeps the reference's
 * shape line for line; our additions (notes, the markdown block
 * warning, the summary) come after the checks.
 */
#include "config.h"
#include "builtin.h"
#include "ci/output.h"
#include "color.h"
#include "parse-options.h"
#include "quote.h"
#include "usage.h"
#include "verify/verify-batch.h"
#include "verify/verify-print.h"

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
		OPT_CALLBACK('j', "jobs", &opts->batch.jobs, "<n>", "search "
			     "and verify on <n> threads (default: the online "
			     "CPUs; 1: serial)", parse_opt_jobs),
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

int cmd_verify(int argc, char **argv)
{
	struct verify_opts opts;
	struct verify_batch batch;
	struct verify_printer printer;
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
	/*
	 * The attribution notes are the text's and github's: the documents
	 * (and --output's) show none, so their history walks would be for
	 * nothing, and the reports would wait for them.
	 */
	if (opts.format != FORMAT_TEXT && opts.format != FORMAT_GITHUB)
		opts.batch.core.no_attribution = 1;
	if (opts.format == FORMAT_TEXT)	/* before any report is formatted */
		color_want(1);
	verify_printer_init(&printer, opts.format, opts.quiet, &opts.outputs,
			    &batch, &opts.batch.core);
	/* Before any work: a refused --output is a usage problem. */
	if (!output_check(&opts.outputs)) {
		status = verify_batch_run(&batch, &opts.batch, argc, argv,
					  &printer.sink);
		status = verify_printer_finish(&printer, status);
	}
	verify_printer_release(&printer);
	verify_batch_release(&batch);
	output_list_release(&opts.outputs);
	free(opts.require.items);
	strbuf_release(&err);
	return finish_stdout(status);
}
