/*
 * ahd-replay replay: re-issue a published run at its version, with its
 * inputs as the run read them (src/replay.c), optionally run it and
 * compare the stable fields of what it wrote.
 */
#include "config.h"
#include "builtin.h"
#include "fs/write.h"
#include "json/jsonout.h"
#include "parse-options.h"
#include "replay/replay.h"
#include "replay/replay-trust.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static const char replay_usage_text[] =
	"Makes a linked worktree at the sidecar's ahd_commit (a layout's record:\n"
	"its commit) with the inputs the run read, and a receipt.  Exit status:\n"
	"0 when ready (and, with --run, the command succeeded and every stable\n"
	"field held); 1 when the run cannot be re-issued exactly or a stable\n"
	"field changed; 2 on usage errors, unusable input and a command --run\n"
	"refuses as untrusted; with --run, a failing command's own status.\n";

struct replay_cmd {
	struct replay_options core;
	struct replay_trust_options trust;
	enum output_format format;
	const char *receipt;
	int run;
};

static int parse_mode(const struct parse_opt *opt, const char *arg)
{
	enum replay_mode *mode = opt->value;

	if (!strcmp(arg, "exact"))
		*mode = REPLAY_EXACT;
	else if (!strcmp(arg, "with-overrides"))
		*mode = REPLAY_WITH_OVERRIDES;
	else
		return error("--mode wants exact or with-overrides, not '%s'",
			     arg);
	return 0;
}

static int parse_override(const struct parse_opt *opt, const char *arg)
{
	const char **files = opt->value;
	int i;

	if (!strncmp(arg, "token=", 6))
		i = 0;
	else if (!strncmp(arg, "brief=", 6))
		i = 1;
	else
		return error("--override wants token=<file> or brief=<file>");
	if (files[i])
		return error("--override=%.5s given twice", arg);
	if (!arg[6])
		return error("--override=%.6s needs a file", arg);
	files[i] = arg + 6;
	return 0;
}

/* --receipt replaces only an earlier receipt (fs/write.h's rule). */
static int is_receipt(const char *text, void *data)
{
	return !data && *text == '{' &&
		!!strstr(text, "\"type\":\"ahd-replay/replay-receipt/v1\"");
}

/* Copy the receipt where --receipt asks; rp NULL: only check the path. */
static int write_receipt_copy(const struct replay *rp, const char *path,
			      struct strbuf *err)
{
	int ret = rp ? write_output_file(path, rp->receipt_text.buf,
					 rp->receipt_text.len, 0644, "receipt",
					 is_receipt, NULL, err) :
		output_file_check(path, "receipt", is_receipt, NULL, err);

	if (ret) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addbuf(&why, err);
		strbuf_reset(err);
		strbuf_addf(err, "--receipt: %s", why.buf);
		strbuf_release(&why);
	}
	return ret;
}

/* Before any work: --receipt names a file replay may replace. */
static int check_receipt(const char *path)
{
	struct strbuf err = STRBUF_INIT;
	int ret = write_receipt_copy(NULL, path, &err);

	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret;
}

/*
 * Decide what runs and whether it may, say it (before it runs, in every
 * format), record it in the receipt, and run it.  Returns the exit
 * status of the command, or -1 (refused or not started: *status set).
 */
static int run_command(struct replay_cmd *c, struct replay *rp,
		       char **program, int *status)
{
	struct replay_command cmd = REPLAY_COMMAND_INIT;
	struct strbuf err = STRBUF_INIT, basis = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	int ret = -1, trusted;

	*status = 2;
	if (replay_command_prepare(&cmd, rp, program, &err)) {
		error("%s", err.buf);
		goto out;
	}
	replay_command_quote(&text, &cmd);
	trusted = replay_trust_check(rp, &cmd, &c->trust, &basis, &err);
	if (!trusted && !c->trust.allow_untrusted) {
		error("refusing to run %s: %s", text.buf, err.buf);
		goto out;
	}
	if (!trusted) {
		strbuf_reset(&basis);
		strbuf_addstr(&basis, "untrusted, run by --allow-untrusted-run");
	}
	if (replay_receipt_record_run(rp, &cmd, &err) ||
	    (c->receipt && write_receipt_copy(rp, c->receipt, &err))) {
		error("%s", err.buf);
		goto out;
	}
	/* the exact command, before it runs: stdout stays one JSON document */
	fprintf(c->format == FORMAT_JSON ? stderr : stdout,
		"%srunning %s (%s)\n", c->format == FORMAT_JSON ?
		"ahd-replay: " : "\n", text.buf, basis.buf);
	fflush(NULL);
	ret = replay_run(rp, cmd.program.buf, cmd.argv, &err);
	if (ret < 0)
		error("%s", err.buf);
	else
		*status = 0;
out:
	replay_command_release(&cmd);
	strbuf_release(&err);
	strbuf_release(&basis);
	strbuf_release(&text);
	return ret;
}

static void print_json(const struct replay *rp, const struct replay_cmd *c,
		       int exit_code, int compared,
		       const struct sidecar_diff *d)
{
	struct jval *doc = jval_object();

	if (!doc)
		die("out of memory");
	jsonout_set(doc, "worktree", jsonout_text(rp->wt.path.buf));
	jsonout_set(doc, "receipt", jval_incref(rp->receipt));
	if (c->run) {
		jsonout_set(doc, "exit_status", exit_code < 0 ? jval_null() :
			    jval_integer(exit_code));
		jsonout_set(doc, "stable_changed", compared > 0 ?
			    replay_stable_json(d) : jval_null());
	}
	jsonout_print(doc);
	jval_decref(doc);
}

int cmd_replay(int argc, char **argv)
{
	struct replay_cmd c;
	struct replay rp = REPLAY_INIT;
	struct strbuf err = STRBUF_INIT;
	struct sidecar_diff d;
	struct diff_side a, b;
	char **program = NULL;
	int status = 0, ret, compared = 0, exit_code = -1;
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "mode", &c.core.mode, "exact|with-overrides",
			     "exact (default): only the recorded inputs; "
			     "with-overrides: --override replaces them",
			     parse_mode),
		OPT_CALLBACK_F(0, "override", c.core.override,
			       "token|brief=<file>", "use <file> for that input "
			       "(with --mode=with-overrides)", OPT_REPEAT,
			       parse_override),
		OPT_STRING(0, "reason", &c.core.reason, "<text>", "why, for "
			   "the receipt's override deltas"),
		OPT_STRING(0, "worktree", &c.core.worktree, "<dir>", "make the "
			   "worktree there (default: under the git directory)"),
		OPT_BOOL(0, "keep", &c.core.keep, "keep the worktree when the "
			 "replay fails"),
		OPT_BOOL(0, "run", &c.run, "run the command in the worktree, "
			 "or <program> given after --, if trusted"),
		OPT_STRING(0, "trusted-ref", &c.trust.trusted_ref, "<ref>",
			   "with --run, ahd_commit must be in its "
			   "history"),
		OPT_STRING(0, "trusted-keys", &c.trust.trusted_keys, "<dir>",
			   "with --run, a sidecar signed by these "
			   "keys is trusted"),
		OPT_STRING(0, "allowed-signers", &c.trust.sig.allowed_signers,
			   "<file>", "with --run, ... or by these SSH "
			   "signers"),
		OPT_STRING(0, "revoked-keys", &c.trust.sig.revoked_keys,
			   "<file>", "SSH keys no longer trusted"),
		OPT_STRING(0, "trusted-keys-at", &c.trust.sig.at, "<rev>",
			   "read those trust files as <rev> has them"),
		OPT_BOOL(0, "allow-untrusted-run", &c.trust.allow_untrusted,
			 "with --run, run even what is not "
			 "trusted"),
		OPT_STRING(0, "receipt", &c.receipt, "<file>", "also write the "
			   "receipt to <file>"),
		OPT_BOOL(0, "allow-outside-root", &c.core.allow_outside,
			 "recorded paths may leave the root"),
		OPT_FORMAT(&c.format, 0, "text (default) or json"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"replay", OPERANDS("<report>|<sidecar>|<record> "
					  "[-- <program>...]"),
		options, replay_usage_text
	};

	memset(&c, 0, sizeof(c));
	argc = parse_options(argc, argv, &usage, PARSE_OPT_KEEP_DASHDASH);
	if (argc < 1)
		usage_msg_opt(&usage, "replay wants a report, sidecar or record");
	if (argc > 1) {
		if (strcmp(argv[1], "--") || argc < 3)
			usage_msg_opt(&usage, "replay wants one report; a "
				      "program to run goes after --");
		if (!c.run)
			usage_msg_opt(&usage, "a program after -- needs --run");
		program = argv + 2;
	}
	if ((c.core.override[0] || c.core.override[1]) &&
	    c.core.mode != REPLAY_WITH_OVERRIDES)
		usage_msg_opt(&usage, "--override needs "
			      "--mode=with-overrides");

	if (c.receipt && check_receipt(c.receipt))
		return finish_stdout(2);
	ret = replay_prepare(&rp, argv[0], &c.core, &err);
	if (ret) {
		error("%s", err.buf);
		if (rp.notes.len)
			fputs(rp.notes.buf, stderr);
		status = ret < 0 ? 2 : 1;
		goto out;
	}
	if (!c.run && c.receipt && write_receipt_copy(&rp, c.receipt, &err)) {
		error("%s", err.buf);
		status = 2;
		goto out;
	}
	if (c.format == FORMAT_TEXT)
		replay_print_ready(&rp, c.core.mode, c.receipt);
	if (c.run) {
		diff_side_init(&a);
		diff_side_init(&b);
		sidecar_diff_init(&d);
		exit_code = run_command(&c, &rp, program, &status);
		if (exit_code >= 0)
			compared = replay_compare(&rp, &d, &a, &b, &err);
		if (compared < 0) {
			error("%s", err.buf);
			status = 2;
		} else if (exit_code > 0)
			status = exit_code;
		else if (compared && d.nr_stable)
			status = 1;
		if (c.format == FORMAT_TEXT && compared > 0)
			replay_print_compare(&d);
		else if (c.format == FORMAT_TEXT && !compared && exit_code >= 0)
			replay_print_uncompared(&rp);
	}
	if (c.format == FORMAT_JSON)
		print_json(&rp, &c, exit_code, compared, &d);
	if (c.run) {
		sidecar_diff_release(&d);
		diff_side_release(&a);
		diff_side_release(&b);
	}
out:
	replay_release(&rp);
	strbuf_release(&err);
	return finish_stdout(status);
}
