#ifndef LAYOUT_BACKFILL_H
#define LAYOUT_BACKFILL_H

#include <stddef.h>
#include "backfill.h"
#include "layout.h"
#include "git/history.h"
#include "git/repo.h"
#include "strbuf.h"

/*
 * Backfill for the records of a layout that says which fields backfill
 * fills (its backfill key, doc/ahd-replay-config.5): a record lacking
 * its commit or an input's hash gets them from history, and no field
 * that has a value is ever changed.
 *
 * The commit is the one the run's inputs were at: the newest commit, at
 * or before the commit that added the record, that changed one of the
 * inputs the record pins.  The record's own history cannot say when the
 * run was made, only that it was made by the time the record was
 * committed; the commit that last changed its inputs is the one whose
 * files the run read, and the one drift is counted from.  A record that
 * names its commit keeps it, and its missing hashes are read there.
 *
 * Each hash is of the input as a checkout of that commit writes it,
 * hashed as the input's mode says (raw-then-structured: structured when
 * it parses, raw otherwise, as AHD's backfill hashes a brief) and spelt
 * as its spelling says.  The record is edited in place (jsonedit.h):
 * every other byte stays.
 */

struct fill_input;

struct layout_fill_item {
	char *path;		/* absolute */
	char *rel;		/* relative to the top, for messages */
	char *repo_path;	/* relative to the work tree, for history */
	const struct layout *layout;	/* borrowed */
	enum backfill_state state;
	struct strbuf reason;
	struct strbuf root;	/* where its inputs are found, as verify
				   finds it */
	struct strbuf text;	/* the record as read */
	struct strbuf filled;	/* the record with its fields filled */
	struct strbuf fields;	/* "<pointer>\t<value>\n" per field filled */
	char *commit;		/* as recorded, or NULL */
	int fill_commit;
	struct fill_input *inputs;
	size_t nr, alloc;
	size_t to_fill;		/* fields to fill */
	struct history_answer added;	/* the commit that added it */
};

struct layout_fill {
	const struct layout *layouts;	/* borrowed: .ahd-replay.yml's */
	size_t nr_layouts;
	const char *top;	/* borrowed: the repository's top */
	struct repo repo;
	char head[COMMIT_HEX_MAX];
	int have_head;
	struct layout_fill_item *items;
	size_t nr, alloc;
	int taken;		/* operands that were records */
};

/*
 * Backfill the records of the nr layouts (the file's at top, which
 * must outlive lf; none: nothing to do): the repository at top is
 * opened when a layout fills a field.  Returns 0, or -1 with the reason
 * the repository cannot be read in err.  Release lf either way.
 */
int layout_fill_init(struct layout_fill *lf, const struct layout *layouts,
		     size_t nr, const char *top, struct strbuf *err);
void layout_fill_release(struct layout_fill *lf);

/*
 * The records of the operands (taken out of argv, *argc updated, as
 * layout_list_collect() takes them; a directory's records are found and
 * the directory left for AHD's reports) or of the whole top when there
 * are none; each read and planned: which fields it lacks, skipped when
 * none (or its layout fills none), failed with a reason when it cannot
 * be read.  root is the --root option, or NULL.  Returns 0, or -1 after
 * printing why part of the scope could not be searched (and saying so
 * in err).
 */
int layout_fill_scan(struct layout_fill *lf, const char *root, int *argc,
		     char **argv, struct strbuf *err);

/*
 * The commit that added each record that lacks its commit, in one
 * history walk; a record whose walk reached a shallow clone's boundary
 * fails (or with allow_shallow is skipped).  Returns 0, or -1 with a
 * reason in err.
 */
int layout_fill_find_commits(struct layout_fill *lf, int allow_shallow,
			     struct strbuf *err);

/*
 * Fill it's fields into it->filled, each listed in it->fields.  Returns
 * 0, or -1 with it->reason set (and it failed).
 */
int layout_fill_build(struct layout_fill *lf, struct layout_fill_item *it);

/*
 * Write it->filled over the record, beneath its root, unless the file
 * changed since it was read.  Returns 0, or -1 with the reason in err.
 */
int layout_fill_write(const struct layout_fill_item *it, struct strbuf *err);

/* What layout_fill_run() did. */
struct layout_fill_counts {
	size_t written, skipped, failed;
	int write_failed;	/* one could not be written */
};

/* How a command prints a line: prefix, a path, ": " and msg when not NULL. */
typedef void (*layout_fill_say_fn)(const char *prefix, const char *path,
				   size_t len, const char *msg);

/*
 * Build and write (with dry_run, only name) each record's fields:
 * "wrote <record>" (or "would write") and a line per field filled,
 * through note; verbose also names each record skipped because it has
 * every field; a record skipped for another reason is warned about.
 * The failures are left in lf for the caller's list.
 */
void layout_fill_run(struct layout_fill *lf, int dry_run, int verbose,
		     layout_fill_say_fn note, struct layout_fill_counts *out);

/* say("  - ", record, reason) for each record that failed. */
void layout_fill_say_failed(const struct layout_fill *lf,
			    layout_fill_say_fn say);

#endif
