#ifndef VERIFY_BATCH_H
#define VERIFY_BATCH_H

#include "config/rcfile.h"
#include "record/layout-list.h"
#include "record/require-sidecar.h"
#include "record/sidecar-list.h"
#include "sign/signature.h"
#include "sign/sigtrust.h"
#include "strbuf.h"
#include "verify.h"
#include "json/jval.h"

/*
 * A verify command's whole run, as `ahd-replay verify` makes it: which
 * reports (operands, --all, the reports --require-sidecar wants a
 * sidecar for), the trusted keys, every report verified and handed to
 * the printer in order as soon as it and those before it are done, the
 * drift of the reports that await it attributed together at the end,
 * the counts and the exit status.  Memory stays bounded: a report is
 * released once the printer has it, unless it must wait for attribution
 * (verify-print.h puts aside, as text, what comes after such a one).
 */

struct verify_batch_options {
	struct verify_options core;
	int all;		/* every sidecar of the repository too */
	const char *trusted_keys;	/* --trusted-keys, or NULL */
	struct sig_trust_opts trust;	/* SSH trust, --trusted-keys-at */
	const char *const *require;	/* --require-sidecar globs, borrowed */
	size_t nr_require;
	int errors_in_document;	/* --format=json: the directories that
				   could not be searched are not printed */
	int allow_empty;	/* --allow-empty: no report at all is fine */
	int jobs;		/* threads verifying reports: 0 the online
				   CPUs, 1 serial */
};

/* How many reports ended with each verdict, and how many were left out. */
struct verify_tally {
	size_t nr[VERIFY_NR_VERDICTS];
	size_t reports;		/* checked */
	size_t skipped;		/* left out by --changed-since */
	int requiring;		/* --require-sidecar globs are in force */
};

/*
 * Where the reports of a run go.  report() gets each report in the
 * run's order once it is verified (from the thread that called
 * verify_batch_run()), to read, not to keep: awaits says that
 * attribution has still to add to it, and then the batch keeps r until
 * the end; else r is released when report() returns.  After the last
 * report, the kept ones are attributed together and handed to kept(),
 * in their order.
 */
struct verify_sink {
	void (*report)(struct verify_sink *s, const struct verify_report *r,
		       int awaits);
	void (*kept)(struct verify_sink *s, const struct verify_report *kept,
		     size_t n);
};

struct verify_batch {
	struct verify_run run;
	struct sig_keyring keyring;
	struct sidecar_list list;	/* the reports, and the directories
					   that could not be searched */
	struct path_list globs;
	struct required_list missing;	/* reports without the sidecar a
					   glob wants */
	struct rcfile rc;		/* the repository's .ahd-replay.yml */
	struct layout_list records;	/* the records of its layouts */
	struct verify_report *kept;	/* awaiting attribution, in order */
	size_t nr_kept, alloc_kept;
	size_t nr;		/* reports handed to the sink; skipped too */
	struct verify_tally tally;
	int empty;		/* no report at all, and not allowed: an
				   error, VERIFY_EMPTY_MESSAGE in list.errors */
};

/* An empty run is an error: a CI job pointed at the wrong place. */
#define VERIFY_EMPTY_MESSAGE "no reports found to verify (a run that " \
	"finds none is an error; --allow-empty accepts it)"

/* b empty, ready for verify_batch_run() (or verify_batch_release()). */
void verify_batch_init(struct verify_batch *b);

/*
 * The defaults the git configuration gives options left unset
 * (require_signature < 0: ahd-replay.requireSignature; the cache on
 * unless ahd-replay.cache, or when git config does not set it the
 * file's policy, says false).  Returns 0, or
 * -1 with the reason in err.
 */
int verify_options_configure(struct verify_options *o, struct strbuf *err);

/*
 * Run verify over the operands argv[0..argc) as opts say, into b (which
 * the caller releases, whatever the answer), handing each report to
 * sink.  Errors about the scope and the keys go to stderr as they are
 * met (the scope's, in the document instead with
 * opts->errors_in_document).  Returns the exit status the reports call
 * for (SPEC section 6): 0 all intact, 1 drift, an untrusted or a
 * missing sidecar, 2 an error.
 */
int verify_batch_run(struct verify_batch *b,
		     const struct verify_batch_options *opts, int argc,
		     char **argv, struct verify_sink *sink);
void verify_batch_release(struct verify_batch *b);

/* "3 reports: 1 intact, 1 drifted, 1 errors", the line scripts read. */
void verify_summary_line(struct strbuf *out, const struct verify_batch *b);

/*
 * With --changed-since, how many reports were left out: "2 reports
 * unchanged since main (merge base 1a2b3c4d5e6f) not checked".
 */
void verify_skipped_line(struct strbuf *out, const struct verify_batch *b);

/*
 * The --format=json document of b, written in pieces as the reports
 * come (verify-json.c): the head (version and the scope's errors, up to
 * the opening of the reports array), each checked report, and the tail
 * (the summary and status).  Byte for byte the document that
 * jsonout_pretty() would print of the whole.
 */
void verify_json_head(struct strbuf *out, const struct verify_batch *b);
/*
 * Report r (not skipped) as an element of the array, after the
 * separator that goes before it (first: the first element, no comma).
 */
void verify_json_report(struct strbuf *out, const struct verify_report *r,
			const struct verify_options *opts);
void verify_json_separator(struct strbuf *out, int first);
/* nr: the reports written; status: the run's exit status. */
void verify_json_tail(struct strbuf *out, const struct verify_batch *b,
		      size_t nr, int status);

#endif
