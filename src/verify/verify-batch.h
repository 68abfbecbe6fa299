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
 * sidecar for), the trusted keys, every report verified and then the
 * drift of all of them attributed together, the counts and the exit
 * status.  Printing is the caller's; the JSON document of a run
 * (verify-json.c) is built here, for --format=json and --output alike.
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
	struct verify_report *reports;	/* in order; skipped ones too */
	size_t nr;
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
 * the caller releases, whatever the answer).  Errors about the scope and
 * the keys go to stderr as they are met (the scope's, in the document
 * instead with opts->errors_in_document).  Returns the exit status the
 * reports call for (SPEC section 6): 0 all intact, 1 drift, an untrusted
 * or a missing sidecar, 2 an error.
 */
int verify_batch_run(struct verify_batch *b,
		     const struct verify_batch_options *opts, int argc,
		     char **argv);
void verify_batch_release(struct verify_batch *b);

/* "3 reports: 1 intact, 1 drifted, 1 errors", the line scripts read. */
void verify_summary_line(struct strbuf *out, const struct verify_batch *b);

/*
 * With --changed-since, how many reports were left out: "2 reports
 * unchanged since main (merge base 1a2b3c4d5e6f) not checked".
 */
void verify_skipped_line(struct strbuf *out, const struct verify_batch *b);

/*
 * The --format=json document of b, whose exit status is status: every
 * report checked, the scope's errors, the summary.  A new reference.
 */
struct jval *verify_batch_json(const struct verify_batch *b, int status);

#endif
