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
#include "fs/writebatch.h"

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
 * What this run prints around the results: the progress line (erased
 * before any other line, progress.h) and whether notes are wanted.
 */
static struct {
	struct progress *bar;
	int quiet;
} ui;

/* quote_path_line() on standard output. */
static void say(const char *prefix, const char *path, size_t len,
		const char *msg)
{
	struct strbuf line = STRBUF_INIT;

	quote_path_line(&line, prefix, path, len, msg);
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

/* What the writes came to (written()), and where paths are shown from. */
static struct {
	const char *root;
	int dry_run;
	size_t written, failed;
} wr;

/*
 * A sidecar in place (why NULL), or not: then the item failed and the
 * summary does not count it (backfill_write()'s done).
 */
static void written(void *data, const char *path, const char *why)
{
	struct backfill_item *it = data;
	struct strbuf rel = STRBUF_INIT, msg = STRBUF_INIT;

	path_relative(&rel, wr.root, path);
	if (why) {
		quote_path_line(&msg, "", rel.buf, rel.len, why);
		progress_clear(ui.bar);
		error("%s", msg.buf);
		it->state = BACKFILL_FAILED;
		strbuf_addstr(&it->reason, why);
		wr.failed++;
	} else {
		note(wr.dry_run ? "would write " : "wrote ", rel.buf, rel.len,
		     NULL);
		wr.written++;
	}
	strbuf_release(&rel);
	strbuf_release(&msg);
}

/*
 * Build and write every report's sidecar, then the summary and the
 * failures.  Returns the exit status.
 */
static int write_all(struct backfill *bf, struct layout_fill *lf,
		     const struct backfill_opts *opts)
{
	size_t i, failed = 0, kept = 0;
	struct layout_fill_counts lc;
	struct write_batch wb;
	int status = 0;

	wr.root = bf->root.buf;
	wr.dry_run = opts->dry_run;
	write_batch_init(&wb, bf->root.buf, written);
	wb.may_replace = backfill_may_replace;
	for (i = 0; i < bf->nr; i++) {
		struct backfill_item *it = &bf->items[i];
		struct strbuf text = STRBUF_INIT;

		progress_update(ui.bar, i);
		/* what is written is said first: the lines stay in order */
		if (it->state != BACKFILL_TODO)
			write_batch_commit(&wb);
		if (it->state == BACKFILL_SKIPPED) {
			if (!it->reason.len && opts->verbose)
				note("skipped ", it->rel, strlen(it->rel),
				     "it has a sidecar");
			if (it->reason.len) {
				struct strbuf msg = STRBUF_INIT;

				quote_path_line(&msg, "", it->rel, strlen(it->rel),
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

			sidecar_path_for(&sc, it->rel);
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
		} else
			backfill_write(&wb, it, &text, opts->dry_run);
		strbuf_release(&text);
	}
	write_batch_commit(&wb);
	if (wr.failed)
		status = 2;
	failed += wr.failed;
	progress_stop(&ui.bar);
	layout_fill_run(lf, opts->dry_run, opts->verbose, note, &lc);
	failed += lc.failed;
	printf("\nbackfill: scanned=%zu written=%zu skipped=%zu failed=%zu\n",
	       bf->nr + lf->nr, wr.written + lc.written, bf->skipped + lc.skipped,
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
