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
#include "usage.h"

#include <stdio.h>
#include <string.h>

static const char replay_usage_text[] =
	"Makes a linked worktree at the sidecar's ahd_commit with the token and\n"
	"brief the run read, and a receipt.  Exit status: 0 when ready (and,\n"
	"with --run, the command succeeded and every stable field held); 1 when\n"
	"the run cannot be re-issued exactly or a stable field changed; 2 on\n"
	"usage errors and unusable input; with --run, a failing command's own\n"
	"status.\n";

struct replay_cmd {
	struct replay_options core;
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

static void add_line(struct strbuf *out, const char *label, const char *s)
{
	strbuf_addf(out, "  %-9s ", label);
	strbuf_add_printable(out, s);
	strbuf_addch(out, '\n');
}

static void material_text(struct strbuf *out, const struct replay_material *m)
{
	strbuf_addf(out, "  %-9s ", m->kind);
	strbuf_add_printable(out, m->path.buf);
	switch (m->source) {
	case MATERIAL_AT_COMMIT:
		strbuf_addstr(out, m->user_changed ?
			      "  restored from history: the version at "
			      "ahd_commit (the work tree's copy changed since)\n" :
			      "  as ahd_commit has it\n");
		break;
	case MATERIAL_HISTORY:
		strbuf_addstr(out, "  restored from history: ");
		strbuf_add_printable(out, m->commit_text.buf);
		strbuf_addch(out, '\n');
		break;
	case MATERIAL_OVERRIDE:
		strbuf_addf(out, "  overridden: %s -> %s\n", m->recorded,
			    m->sha256.buf);
		break;
	case MATERIAL_MISSING:
		strbuf_addstr(out, "  not restored\n");
		break;
	}
}

static void print_ready(const struct replay *rp, const struct replay_cmd *c)
{
	struct strbuf out = STRBUF_INIT, cmd = STRBUF_INIT;
	int i;

	strbuf_addstr(&out, "replay ");
	strbuf_add_printable(&out, rp->report.buf);
	strbuf_addf(&out, " at %.12s (%s)\n", rp->commit,
		    c->core.mode == REPLAY_EXACT ? "exact" : "with overrides");
	add_line(&out, "worktree", rp->wt.path.buf);
	for (i = 0; i < rp->nr_materials; i++)
		material_text(&out, &rp->materials[i]);
	if (c->receipt)
		add_line(&out, "receipt", c->receipt);
	replay_command_text(&cmd, rp);
	add_line(&out, "command", cmd.len ? cmd.buf :
		 "(none recorded: a backfilled report can be verified, not "
		 "re-issued)");
	if (rp->notes.len)
		strbuf_addf(&out, "\n%s", rp->notes.buf);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	strbuf_release(&cmd);
}

static json_t *stable_json(const struct sidecar_diff *d)
{
	json_t *changed = json_array();
	size_t i;

	if (!changed)
		die("out of memory");
	for (i = 0; i < d->nr; i++)
		if (d->items[i].stable &&
		    json_array_append_new(changed,
					  jsonout_text(d->items[i].field)))
			die("out of memory");
	return changed;
}

static void print_compare(const struct sidecar_diff *d)
{
	size_t i;

	if (!d->nr_stable) {
		printf("\nstable fields: all held\n");
		return;
	}
	printf("\nstable fields: %zu changed\n", d->nr_stable);
	for (i = 0; i < d->nr; i++)
		if (d->items[i].stable) {
			struct strbuf f = STRBUF_INIT;

			strbuf_add_printable(&f, d->items[i].field);
			printf("  changed  %s\n", f.buf);
			strbuf_release(&f);
		}
}

/* --receipt, written as --output is (fs/write.h); rp NULL: checked only */
static int is_receipt(const char *text, void *data)
{
	return !data && *text == '{' &&
		!!strstr(text, "\"type\":\"ahd-replay/replay-receipt/v1\"");
}

static int write_receipt_copy(const struct replay *rp, const char *path)
{
	struct strbuf err = STRBUF_INIT;
	int ret = rp ? write_output_file(path, rp->receipt_text.buf,
					 rp->receipt_text.len, 0644, "receipt",
					 is_receipt, NULL, &err) :
		output_file_check(path, "receipt", is_receipt, NULL, &err);

	if (ret)
		error("--receipt: %s", err.buf);
	strbuf_release(&err);
	return ret;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_cmd c;
	struct replay rp = REPLAY_INIT;
	struct strbuf err = STRBUF_INIT;
	struct sidecar_diff d;
	struct diff_side a, b;
	json_t *doc = NULL;
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
			 "or <program> given after --"),
		OPT_STRING(0, "receipt", &c.receipt, "<file>", "also write the "
			   "receipt to <file>"),
		OPT_BOOL(0, "allow-outside-root", &c.core.allow_outside,
			 "recorded paths may leave the root"),
		OPT_FORMAT(&c.format, 0, "text (default) or json"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"replay", OPERANDS("<report>|<sidecar> [-- <program>...]"),
		options, replay_usage_text
	};

	memset(&c, 0, sizeof(c));
	argc = parse_options(argc, argv, &usage, PARSE_OPT_KEEP_DASHDASH);
	if (argc < 1)
		usage_msg_opt(&usage, "replay wants a report or a sidecar");
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

	if (c.receipt && write_receipt_copy(NULL, c.receipt))
		return finish_stdout(2);
	ret = replay_prepare(&rp, argv[0], &c.core, &err);
	if (ret) {
		error("%s", err.buf);
		if (rp.notes.len)
			fputs(rp.notes.buf, stderr);
		status = ret < 0 ? 2 : 1;
		goto out;
	}
	if (c.receipt && write_receipt_copy(&rp, c.receipt)) {
		status = 2;
		goto out;
	}
	if (c.format == FORMAT_TEXT)
		print_ready(&rp, &c);
	if (c.run) {
		fflush(stdout);
		exit_code = replay_run(&rp, program, &err);
		if (exit_code < 0) {
			error("%s", err.buf);
			status = 2;
			goto out;
		}
		diff_side_init(&a);
		diff_side_init(&b);
		sidecar_diff_init(&d);
		compared = replay_compare(&rp, &d, &a, &b, &err);
		if (compared < 0) {
			error("%s", err.buf);
			status = 2;
		} else if (exit_code)
			status = exit_code;
		else if (compared && d.nr_stable)
			status = 1;
		if (c.format == FORMAT_TEXT && compared > 0)
			print_compare(&d);
		else if (c.format == FORMAT_TEXT && !compared)
			printf("\nthe command wrote no new sidecar for this "
			       "report: no stable fields to compare\n");
	}
	if (c.format == FORMAT_JSON) {
		doc = json_object();
		if (!doc)
			die("out of memory");
		jsonout_set(doc, "worktree", jsonout_text(rp.wt.path.buf));
		jsonout_set(doc, "receipt", json_incref(rp.receipt));
		if (c.run) {
			jsonout_set(doc, "exit_status", json_integer(exit_code));
			jsonout_set(doc, "stable_changed", compared > 0 ?
				    stable_json(&d) : json_null());
		}
		jsonout_print(doc);
		json_decref(doc);
	}
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
