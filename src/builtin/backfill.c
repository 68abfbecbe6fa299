/*
 * ahd-replay backfill: reconstruct sidecars for reports that predate the
 * replay system (src/backfill.c does the work), and say what was
 * written and which reports could not be backfilled, with the reason.
 */
#include "config.h"
#include "atomicfile.h"
#include "backfill.h"
#include "builtin.h"
#include "input.h"
#include "parse-options.h"
#include "root.h"
#include "sidecar.h"
#include "usage.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char backfill_usage[] =
	"usage: ahd-replay backfill [--dry-run] [--force] [--root=<dir>] [--commit-of=last|first] [<reports-dir>]\n"
	"\n"
	"    --dry-run          say what would be written, write nothing\n"
	"    --force            rewrite sidecars that exist\n"
	"    --root=<dir>       the repository root (default: found as verify\n"
	"                       finds it)\n"
	"    --commit-of=<c>    last: the commit that last changed the report\n"
	"                       (the reference's choice); first: the commit\n"
	"                       that added it\n"
	"\n"
	"Reports are the *.md files under <reports-dir> (default docs/evals\n"
	"under the root).  Exit status: 0, or 1 when a report could not be\n"
	"backfilled (0 with --dry-run), 2 on usage errors.\n";

struct backfill_opts {
	int dry_run;
	int force;
	const char *root;
	enum history_mode mode;
};

static const struct option backfill_options[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "force", no_argument, NULL, 'f' },
	{ "root", required_argument, NULL, 'r' },
	{ "commit-of", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void progress(size_t done, size_t total)
{
	if (isatty(2))
		fprintf(stderr, "\rbackfill: %zu/%zu reports", done, total);
}

/* Write (or with --dry-run, name) one report's sidecar; -1 on failure. */
static int write_one(const struct backfill *bf, const struct backfill_item *it,
		     const struct strbuf *text, int dry_run)
{
	struct strbuf sc = STRBUF_INIT, rel = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	sidecar_path_for(&sc, it->path);
	path_relative(&rel, bf->root.buf, sc.buf);
	if (dry_run)
		printf("would write %s\n", rel.buf);
	else if (write_file_atomic(sc.buf, text->buf, text->len, 0666, &err))
		ret = error("%s", err.buf);
	else
		printf("wrote %s\n", rel.buf);
	strbuf_release(&sc);
	strbuf_release(&rel);
	strbuf_release(&err);
	return ret;
}

/*
 * Build and write every report's sidecar, then the summary and the
 * failures.  Returns the exit status.
 */
static int write_all(struct backfill *bf, const struct backfill_opts *opts)
{
	size_t i, written = 0, failed = 0;
	int status = 0;

	for (i = 0; i < bf->nr; i++) {
		struct backfill_item *it = &bf->items[i];
		struct strbuf text = STRBUF_INIT;

		progress(i, bf->nr);
		if (it->state == BACKFILL_SKIPPED)
			continue;
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
			if (write_one(bf, it, &text, opts->dry_run))
				status = 2;
			written++;
		}
		strbuf_release(&text);
	}
	if (isatty(2) && bf->nr)
		fputs("\r\033[K", stderr);

	printf("\nbackfill: scanned=%zu written=%zu skipped=%zu failed=%zu\n",
	       bf->nr, written, bf->skipped, failed);
	if (failed) {
		printf("failures:\n");
		for (i = 0; i < bf->nr; i++)
			if (bf->items[i].state == BACKFILL_FAILED)
				printf("  - %s: %s\n", bf->items[i].rel,
				       bf->items[i].reason.buf);
	}
	if (!status && failed && !opts->dry_run)
		status = 1;
	return status;
}

int cmd_backfill(int argc, char **argv)
{
	struct backfill_opts opts = { 0, 0, NULL, HISTORY_LAST };
	struct strbuf root = STRBUF_INIT, scan = STRBUF_INIT, err = STRBUF_INIT;
	struct backfill bf;
	int c, status;

	reset_getopt();
	while ((c = getopt_long(argc, argv, "+h", backfill_options, NULL)) != -1) {
		switch (c) {
		case 'n':
			opts.dry_run = 1;
			break;
		case 'f':
			opts.force = 1;
			break;
		case 'r':
			opts.root = optarg;
			break;
		case 'c':
			if (!strcmp(optarg, "last"))
				opts.mode = HISTORY_LAST;
			else if (!strcmp(optarg, "first"))
				opts.mode = HISTORY_FIRST;
			else
				usage_error(backfill_usage, "--commit-of takes "
					    "last or first, not '%s'", optarg);
			break;
		case 'h':
			usage_help(backfill_usage);
		default:
			usage_error(backfill_usage, "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		usage_error(backfill_usage, "backfill takes one reports directory");
	if (root_find(&root, ".", opts.root, &err) < 0)
		die("%s", err.buf);
	if (optind < argc) {
		char *real = realpath(argv[optind], NULL);

		if (!real)
			die("cannot read '%s': %s", argv[optind], strerror(errno));
		strbuf_addstr(&scan, real);
		free(real);
	} else
		path_resolve(&scan, root.buf, "docs/evals");

	if (backfill_init(&bf, root.buf, &err))
		die("%s", err.buf);
	backfill_scan(&bf, scan.buf, opts.force);
	if (backfill_find_commits(&bf, opts.mode, &err))
		die("%s", err.buf);
	if (bf.truncated)
		warning("the history is truncated (a shallow clone): commits "
			"older than its boundary were not seen");
	status = write_all(&bf, &opts);
	backfill_release(&bf);
	strbuf_release(&root);
	strbuf_release(&scan);
	strbuf_release(&err);
	return finish_stdout(status);
}
