#ifndef REPLAY_H
#define REPLAY_H

#include "config/rcfile.h"
#include "git/commitinfo.h"
#include "git/repo.h"
#include "record/record.h"
#include "record/sidecar.h"
#include "record/sidecardiff.h"
#include "strbuf.h"
#include "git/worktree.h"
#include "json/jval.h"

/*
 * Re-issuing a published run at its version (seed 000: "enough
 * information to re-issue the same command at the named version"; seed
 * 004: exact and with_overrides modes, receipts with override deltas).
 *
 * A replay makes a linked worktree detached at the sidecar's
 * ahd_commit, puts the token and brief the run read into it (the
 * committed file when it has the recorded hash, else a version from
 * history that has it, else, with overrides, the file given), copies the
 * report and its sidecar in, writes a receipt, and maps the recorded
 * argv onto the worktree.  Running the command and comparing what it
 * wrote are the caller's (replay_run(), replay_compare()).
 *
 * A record of a layout of .ahd-replay.yml (record/layout.h) is replayed
 * the same way: the worktree at the commit its layout's commit pointer
 * names, each pinned input restored by its hash, the record copied in,
 * and the command its layout's command pointer names (argv, a list of
 * strings).  Overrides are AHD's token and brief only.
 */

enum replay_mode {
	REPLAY_EXACT,
	REPLAY_WITH_OVERRIDES,
};

struct replay_options {
	enum replay_mode mode;
	const char *override[2];	/* token, brief: a file, or NULL */
	const char *reason;		/* recorded in each override delta */
	const char *worktree;		/* NULL: under the git directory */
	int keep;			/* keep the worktree on failure */
	int allow_outside;
};

enum material_source {
	MATERIAL_AT_COMMIT,	/* ahd_commit's file has the recorded hash */
	MATERIAL_HISTORY,	/* another commit's version has it */
	MATERIAL_OVERRIDE,	/* the file given with --override */
	MATERIAL_MISSING,	/* none of these */
};

struct replay_material {
	const char *kind;		/* "token", "brief", a layout's input:
					   borrowed from the record */
	const char *recorded;		/* the sidecar's hash */
	enum pin_mode mode;		/* how recorded was computed */
	struct strbuf path;		/* relative to the root */
	struct strbuf sha256;		/* what the worktree now holds */
	enum material_source source;
	char commit[COMMIT_HEX_MAX];	/* MATERIAL_HISTORY */
	struct strbuf commit_text;	/* "1a2b3c4d5e6f (date, "subject")" */
	struct strbuf why;		/* MATERIAL_MISSING */
	int user_changed;		/* the user's work tree differs */
};

struct replay {
	struct repo repo;
	struct sidecar sc;
	struct strbuf report;		/* relative to the work tree's top */
	struct strbuf sidecar;		/* likewise */
	struct strbuf prefix;		/* the root below the top: "" or "dir/" */
	char commit[COMMIT_HEX_MAX];	/* ahd_commit, checked */
	struct worktree wt;
	struct strbuf root;		/* the root inside the worktree */
	struct replay_material *materials;	/* one per pinned input */
	int nr_materials;
	struct jval *argv;			/* re-rooted, relative to the root */
	struct strbuf notes;		/* "note: ..." lines */
	struct jval *receipt;
	struct strbuf receipt_text;	/* RFC 8785 */
	struct rcfile rc;		/* the layouts of the work tree */
	const struct layout *layout;	/* a layout's record; NULL: AHD's */
	struct record rec;		/* the pinned inputs and the commit */
	struct jval *recorded_argv;	/* a layout record's command */
};

#define REPLAY_INIT { REPO_INIT, SIDECAR_INIT, STRBUF_INIT, STRBUF_INIT, \
		      STRBUF_INIT, "", WORKTREE_INIT, STRBUF_INIT, \
		      NULL, 0, NULL, STRBUF_INIT, NULL, STRBUF_INIT, \
		      RCFILE_INIT, NULL, RECORD_INIT, NULL }

/*
 * Prepare the replay of report (a report, a sidecar or a layout's
 * record): everything but running.  Returns 0; 1 when the run cannot be
 * re-issued as asked (no ahd_commit or recorded commit, a commit not in
 * this clone, an input that cannot be restored in exact mode), with the
 * reason in err and the worktree removed unless opts->keep; -1 when
 * something could not be read or written, reason in err.  Release rp
 * with replay_release() either way.
 */
int replay_prepare(struct replay *rp, const char *report,
		   const struct replay_options *opts, struct strbuf *err);

/* The re-rooted recorded argv: how many, and each ("" for a non-string). */
size_t replay_argv_count(const struct replay *rp);
const char *replay_argv_at(const struct replay *rp, size_t i);

/*
 * Execute the file program with argv in the root inside the worktree,
 * standard streams inherited.  The program is resolved by the caller
 * (replay_command_prepare()): nothing is looked up from the worktree.
 * Returns the program's exit status (128 + the signal when killed), or
 * -1 with a reason in err when it cannot be started.
 */
int replay_run(const struct replay *rp, const char *program,
	       char *const *argv, struct strbuf *err);

/*
 * After a run: when the sidecar in the worktree is no longer the copy
 * replay_prepare() put there (the run wrote a new one), compare it with
 * the original under the field stability table.  Returns 1 with d
 * filled (a, b initialised by the caller and released by it), 0 when
 * the run wrote no new sidecar, -1 with a reason in err.
 */
int replay_compare(const struct replay *rp, struct sidecar_diff *d,
		   struct diff_side *a, struct diff_side *b,
		   struct strbuf *err);

/*
 * The command as the report's markdown block shows it (shell-quoted),
 * for the re-rooted argv.
 */
void replay_command_text(struct strbuf *out, const struct replay *rp);

/* The text output (replay-text.c). */
void replay_print_ready(const struct replay *rp, enum replay_mode mode,
			const char *receipt);
void replay_print_compare(const struct sidecar_diff *d);
/* After a run that left nothing to compare: why. */
void replay_print_uncompared(const struct replay *rp);
/* The stable fields that changed, as a JSON array of their names. */
struct jval *replay_stable_json(const struct sidecar_diff *d);

struct replay_command;

/*
 * Record in the receipt (its "run" member, and the file rewritten) the
 * command that is about to run: the program file executed and its
 * argv.  Returns 0, or -1 with a reason in err.
 */
int replay_receipt_record_run(struct replay *rp,
			      const struct replay_command *cmd,
			      struct strbuf *err);

void replay_release(struct replay *rp);

#endif
