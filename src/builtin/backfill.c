/*
 * ahd-replay backfill: reconstruct sidecars for reports that predate the
 * replay system, fill a layout's records (record/backfill.c and
 * layout-backfill.c do the work), and say what was written and what
 * could not be backfilled, with the reason.
 */
#include "config.h"
#include "record/backfill.h"
#include "record/layout-backfill.h"
#include "config/rcfile.h"
#include "builtin.h"
#include "parse-options.h"
#include "progress.h"
#include "quote.h"
#include "root/root.h"
#include "record/sidecar.h"
#include "usage.h"
#include "fs/path.h"
#include "fs/write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char backfill_usage_text[] =
	"Reports are <report>, or the *.md files under <reports-dir> (default\n"
	"docs/evals under the root), and the records of layouts that say what\n"
	"backfill fills.  Exit status: 0, or 1 when a report could\n"
	"not be backfilled (0 with --dry-run), 2 on usage errors.\n";

struct backfill_opts {
	int quiet;		/* no progress, no line per sidecar */
	int verbose;		/* also the reports skipped for their sidecar */
	int dry_run;
	int force;
	int allow_shallow;
	const char *root;
	enum history_mode mode;
};

static int parse_commit_of(const struct parse_opt *opt, const char *arg)
{
	enum history_mode *mode = opt->value;

	if (!strcmp(arg, "last") || !strcmp(arg, "first"))
		*mode = !strcmp(arg, "last") ? HISTORY_LAST : HISTORY_FIRST;
	else
		return error("--commit-of takes last or first, not '%s'", arg);
	return 0;
}

/* Returns the number of operands, moved to argv[0..). */
static int parse_backfill_options(struct backfill_opts *opts, int argc,
				  char **argv)
{
	const struct parse_opt options[] = {
		OPT_BOOL(0, "dry-run", &opts->dry_run, "say what would be "
			 "written, write nothing"),
		OPT_BOOL('q', "quiet", &opts->quiet, "no progress and no line "
			 "per sidecar: only warnings, failures and the "
			 "summary"),
		OPT_BOOL('v', "verbose", &opts->verbose, "also name each "
			 "report skipped because it has a sidecar"),
		OPT_BOOL(0, "force", &opts->force, "rewrite sidecars that "
			 "backfill wrote (never one captured during a run)"),
		OPT_STRING(0, "root", &opts->root, "<dir>", "the repository "
			   "root (default: found as verify finds it)"),
		OPT_CALLBACK(0, "commit-of", &opts->mode, "last|first",
			     "last: the commit that last changed the report "
			     "(the reference's choice); first: the commit that "
			     "added it", parse_commit_of),
		OPT_BOOL(0, "allow-shallow", &opts->allow_shallow, "in a "
			 "shallow clone, skip the reports whose history is "
			 "truncated without failing"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"backfill", OPERANDS("[<reports-dir>|<report>]"), options,
		backfill_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	if (argc > 1)
		usage_msg_opt(&usage, "backfill takes one reports directory "
			      "or report");
	return argc;
}

/*
 * prefix, path (len bytes) quoted, then ": " and msg escaped when msg is
 * not NULL: report names and reasons come from the repository, so each
 * stays one line (quote.h).
 */
static void format_line(struct strbuf *out, const char *prefix,
			const char *path, size_t len, const char *msg)
{
	strbuf_addstr(out, prefix);
	quote_c_style_n(out, path, len);
	if (msg) {
		strbuf_addstr(out, ": ");
		quote_escape(out, msg, strlen(msg));
	}
}

/*
 * What this run prints around the results: the progress line (erased
 * before any other line, progress.h) and whether notes are wanted.
 */
static struct {
	struct progress *bar;
	int quiet;
} ui;

/* format_line() on standard output. */
static void say(const char *prefix, const char *path, size_t len,
		const char *msg)
{
	struct strbuf line = STRBUF_INIT;

	format_line(&line, prefix, path, len, msg);
	progress_clear(ui.bar);
	puts(line.buf);
	strbuf_release(&line);
}

/* say() a result note, which --quiet leaves out. */
static void note(const char *prefix, const char *path, size_t len,
		 const char *msg)
{
	if (!ui.quiet)
		say(prefix, path, len, msg);
}

/* Write (or with --dry-run, name) one report's sidecar; -1 on failure. */
static int write_one(const struct backfill *bf, struct backfill_item *it,
		     const struct strbuf *text, int dry_run)
{
	struct strbuf sc = STRBUF_INIT, rel = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	sidecar_path_for(&sc, it->path);
	path_relative(&rel, bf->root.buf, sc.buf);
	if (dry_run)
		note("would write ", rel.buf, rel.len, NULL);
	/* checked again: a run may have captured it meanwhile */
	else if ((it->exists && !sidecar_backfilled(sc.buf, &err)) ||
		 /* beneath the root: a planted symlink leads nothing out */
		 write_file_beneath(bf->root.buf, sc.buf, text->buf,
				    text->len, 0666, &err)) {
		struct strbuf msg = STRBUF_INIT;

		/* not written: the summary must not count it */
		format_line(&msg, "", rel.buf, rel.len, err.buf);
		progress_clear(ui.bar);
		ret = error("%s", msg.buf);
		strbuf_release(&msg);
		it->state = BACKFILL_FAILED;
		strbuf_addbuf(&it->reason, &err);
	} else
		note("wrote ", rel.buf, rel.len, NULL);
	strbuf_release(&sc);
	strbuf_release(&rel);
	strbuf_release(&err);
	return ret;
}

/*
 * Build and write every report's sidecar, then the summary and the
 * failures.  Returns the exit status.
 */
static int write_all(struct backfill *bf, struct layout_fill *lf,
		     const struct backfill_opts *opts)
{
	size_t i, written = 0, failed = 0, kept = 0;
	struct layout_fill_counts lc;
	int status = 0;

	for (i = 0; i < bf->nr; i++) {
		struct backfill_item *it = &bf->items[i];
		struct strbuf text = STRBUF_INIT;

		progress_update(ui.bar, i);
		if (it->state == BACKFILL_SKIPPED) {
			if (!it->reason.len && opts->verbose)
				note("skipped ", it->rel, strlen(it->rel),
				     "it has a sidecar");
			if (it->reason.len) {
				struct strbuf msg = STRBUF_INIT;

				format_line(&msg, "", it->rel, strlen(it->rel),
					    NULL);
				strbuf_addstr(&msg, ": skipped: ");
				quote_escape(&msg, it->reason.buf,
					     it->reason.len);
				progress_clear(ui.bar);
				warning("%s", msg.buf);
				strbuf_release(&msg);
			}
			continue;
		}
		if (it->state == BACKFILL_KEPT) {
			struct strbuf sc = STRBUF_INIT;

			strbuf_add(&sc, it->rel, strlen(it->rel) - 3);
			strbuf_addstr(&sc, ".replay.json");
			note("kept ", sc.buf, sc.len, it->reason.buf);
			strbuf_release(&sc);
			kept++;
			continue;
		}
		if (it->state == BACKFILL_TODO && !it->answer.found) {
			it->state = BACKFILL_FAILED;
			strbuf_addstr(&it->reason, "no git commit found for the "
				      "report; needs to be tracked first");
		}
		if (it->state == BACKFILL_FAILED ||
		    backfill_build(bf, it, &text)) {
			it->state = BACKFILL_FAILED;
			failed++;
		} else {
			if (write_one(bf, it, &text, opts->dry_run)) {
				failed++;
				status = 2;
			} else
				written++;
		}
		strbuf_release(&text);
	}
	progress_stop(&ui.bar);
	layout_fill_run(lf, opts->dry_run, opts->verbose, note, &lc);
	failed += lc.failed;
	printf("\nbackfill: scanned=%zu written=%zu skipped=%zu failed=%zu\n",
	       bf->nr + lf->nr, written + lc.written, bf->skipped + lc.skipped,
	       failed);
	if (kept)
		printf("kept %zu sidecar%s backfill did not write (counted as "
		       "skipped: --force rewrites only sidecars marked "
		       "\"backfilled\": true)\n", kept, kept == 1 ? "" : "s");
	if (failed) {
		printf("failures:\n");
		for (i = 0; i < bf->nr; i++)
			if (bf->items[i].state == BACKFILL_FAILED)
				say("  - ", bf->items[i].rel,
				    strlen(bf->items[i].rel),
				    bf->items[i].reason.buf);
		layout_fill_say_failed(lf, say);
	}
	if (lc.write_failed)
		status = 2;
	else if (!status && failed && !opts->dry_run)
		status = 1;
	return status;
}

int cmd_backfill(int argc, char **argv)
{
	struct backfill_opts opts = { 0, 0, 0, 0, 0, NULL, HISTORY_LAST };
	struct strbuf root = STRBUF_INIT, scan = STRBUF_INIT, err = STRBUF_INIT;
	struct backfill bf;
	struct layout_fill lf;
	struct rcfile rc = RCFILE_INIT;
	int status;

	argc = parse_backfill_options(&opts, argc, argv);
	if (root_find(&root, ".", opts.root, &err) < 0)
		die("%s", err.buf);
	/* the layouts' records first: AHD's reports are the rest */
	if (rcfile_here(&rc, opts.root) ||
	    layout_fill_init(&lf, rc.layouts, rc.nr, rc.top.buf, &err) ||
	    layout_fill_scan(&lf, opts.root, &argc, argv, &err) ||
	    layout_fill_find_commits(&lf, opts.allow_shallow, &err))
		die("%s", err.len ? err.buf : "cannot use " RCFILE_NAME);
	if (argc) {
		char *real = realpath(argv[0], NULL);

		if (!real)
			die("cannot read '%s': %s", argv[0], strerror(errno));
		strbuf_addstr(&scan, real);
		free(real);
	} else if (!lf.taken)
		path_resolve(&scan, root.buf, "docs/evals");
	if (backfill_init(&bf, root.buf, &err))
		die("%s", err.buf);
	if (scan.len)
		backfill_scan(&bf, scan.buf, opts.force);
	if (backfill_find_commits(&bf, opts.mode, &err))
		die("%s", err.buf);
	backfill_truncated(&bf, opts.allow_shallow);
	ui.quiet = opts.quiet;
	ui.bar = progress_start("Backfilling reports", bf.nr, !opts.quiet);
	status = write_all(&bf, &lf, &opts);
	backfill_release(&bf);
	layout_fill_release(&lf);
	rcfile_release(&rc);
	strbuf_release(&root);
	strbuf_release(&scan);
	strbuf_release(&err);
	return finish_stdout(status);
}
