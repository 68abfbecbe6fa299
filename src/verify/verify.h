#ifndef VERIFY_H
#define VERIFY_H

#include "sign/commitsig.h"
#include "record/layout.h"
#include "record/record.h"
#include "record/sidecar.h"
#include "sign/signature.h"
#include "strbuf.h"

struct explanation;
struct verify_cached;

/*
 * What a verification is and what it finds: for one sidecar, load and
 * check it, check its signature, find the root, and for each input the
 * sidecar's record pins (record.h: the token, the brief) resolve its
 * path (re-rooting CI paths, keeping inside the root), hash it as its
 * mode says, as the reference's verify-replay does, compare, and say
 * which commit changed a drifted input.  Printing is the caller's.
 */

enum verify_verdict {
	VERIFY_INTACT,
	VERIFY_DRIFTED,
	VERIFY_ERRORED,
	VERIFY_UNTRUSTED,
	VERIFY_MISSING,		/* --require-sidecar: a report without one */
	VERIFY_NR_VERDICTS
};

/* One pinned input checked. */
struct verify_check {
	const struct pinned_input *input;	/* borrowed from the report's
						   record */
	const char *field;	/* its name: "token" or "brief" (the
				   layout's: it outlives the report) */
	int ok;
	int error;		/* cannot tell: counts as an error, not drift */
	const char *kind;	/* what failed when not the content: NULL,
				   "missing-input" or "outside-root" */
	const char *expected;	/* its recorded hash */
	struct strbuf actual;	/* empty: none */
	struct strbuf reason;
	struct strbuf note;	/* re-rooting */
	struct strbuf rel;	/* the input relative to the root, if found */
	struct explanation *explain;	/* --explain, for drift; or NULL */
	int in_change;		/* --changed-since: the input changed since
				   the base (the pull request touches it) */
};

/* The sidecar's fields a printer shows (verify.c: keep_shown_fields()). */
#define VERIFY_KEPT_FIELDS 8

struct verify_report {
	struct strbuf report;	/* as shown */
	struct strbuf sidecar_path;
	struct strbuf markdown;	/* the report file to compare, if any */
	struct sidecar sc;	/* once verified, its document is freed and
				   the fields shown point into kept */
	char *kept;		/* those fields, one after the other */
	struct record rec;	/* what sc pins, once loaded */
	const struct layout *layout;	/* a record of this layout, not
					   AHD's sidecar; NULL: a sidecar */
	int loaded;
	struct strbuf root;
	int root_origin;
	struct verify_check *checks;	/* one per input of rec, in order */
	int nr_checks;
	struct strbuf error;	/* the sidecar itself is unusable */
	struct sig_result sig;
	int commit_checked;	/* --require-signed-commit */
	struct commitsig_result commit_sig;
	struct strbuf notes;	/* "  note: ..." lines, each escaped */
	struct strbuf md_warning;
	long md_line;
	const char *required_by;	/* the --require-sidecar glob, borrowed */
	int sig_absent;		/* listed without a .sig (sidecar-list.h) */
	int skipped;		/* unchanged since --changed-since: not checked */
	enum verify_verdict verdict;
	int stop;		/* --at cannot be used: verify no further report,
				   so its error is printed once */
	struct verify_cached *cached;	/* verify-cached.c's while verify_one()
					   runs, else NULL */
};

struct verify_options {
	int allow_outside;	/* recorded paths may leave the root */
	int require_signature;	/* an unsigned sidecar fails */
	const char *root;	/* --root, or NULL to find it */
	const char *at;		/* read inputs at this revision, or NULL */
	const char *changed_since;	/* skip reports unchanged since, or NULL */
	int explain;		/* say what changed in a drifted input */
	int require_signed_commit;	/* the commit that last changed the
					   sidecar must be SSH-signed */
	int no_attribution;	/* no history search for drifted inputs */
	int no_cache;		/* --no-cache: no persistent cache (cache.h) */
};

/*
 * One run over many reports.  Many reports share a directory (so a
 * root), a commit for --at, and a token or brief (so a hash): each is
 * worked out once per run.  Drift attribution walks each input path's
 * history once per run, for all the hashes the reports want of it.
 */
struct verify_memos;
struct changed_memo;
struct verify_run {
	struct verify_options opts;
	const struct sig_keyring *keyring;
	struct verify_memos *memos;
	struct changed_memo *changed;
	const char *since_base;	/* the merge base compared with, once known */
	size_t history_walks;	/* attribution's walks so far (for tests) */
};

void verify_run_init(struct verify_run *run, const struct verify_options *opts,
		     const struct sig_keyring *keyring);
void verify_run_release(struct verify_run *run);

/*
 * A report to verify: report as the user named it (a report or a
 * sidecar), sidecar the file to read.  The markdown compared with the
 * sidecar is the report, or X.md for a sidecar X.replay.json.
 */
void verify_report_init(struct verify_report *r, const char *report,
			const char *sidecar);
void verify_report_release(struct verify_report *r);

/*
 * Verify r, filling in its checks, notes, warnings and verdict.  With
 * opts.changed_since, a report none of whose files changed is only
 * marked skipped.  A report with required_by set and no sidecar is
 * VERIFY_MISSING.  Drift attribution (and --explain) is
 * verify_attribute()'s.
 */
void verify_one(struct verify_run *run, struct verify_report *r);

/*
 * For each input of the n reports (through verify_one()) that drifted,
 * say which commit last had the recorded content and which changed it,
 * in a note.  The (path, recorded hash) pairs of all the reports are
 * gathered first, and each path's history is walked once for all the
 * hashes wanted of it.  With opts.explain, also sets the explanation of
 * each drifted check from the same walks.  The notes are left out with
 * opts.no_attribution; nothing is done for a report outside a git work
 * tree.
 */
void verify_attribute(struct verify_run *run, struct verify_report *reports,
		      size_t n);

/* Whether verify_attribute() would add to r: it has drift to attribute. */
int verify_awaits_attribution(const struct verify_run *run,
			      const struct verify_report *r);

/*
 * Append r in the reference's text layout (verify-text.c), every string
 * from a file quoted or escaped (quote.h): one line per field whatever
 * the sidecar holds.  For a report whose sidecar loaded, or one
 * VERIFY_MISSING.
 */
void verify_format_text(struct strbuf *out, const struct verify_report *r,
			const struct verify_options *opts);

/* Whether r's signature fails, or is missing when one is required. */
int verify_signature_failed(const struct verify_report *r,
			    const struct verify_options *opts);

/*
 * When r is a report without a sidecar, the hint (once a run) that
 * backfill can write one from the report's history: whether r wants
 * it, and the hint for such a report.
 */
int verify_wants_backfill_hint(const struct verify_report *r);
void verify_hint_backfill(const char *report);

#endif
