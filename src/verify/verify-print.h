#ifndef VERIFY_PRINT_H
#define VERIFY_PRINT_H

#include "ci/outcome.h"
#include "ci/output.h"
#include "verify-batch.h"
#include "verify-github.h"

/*
 * verify's printer: the sink of a verify batch (verify-batch.h), which
 * prints each report in its format as it comes and forgets it, then the
 * summary and the documents.  A report whose drift awaits attribution
 * is kept by the batch until the end, and what comes after it is put
 * aside as the bytes it prints (the text, the JSON element): the order
 * and the bytes are those of printing every report at the end, while
 * memory holds a few lines per report at most, none when nothing
 * drifted (the github format's job summary rows likewise, added in
 * their turn).  SARIF and JUnit keep
 * their cases (ci/outcome.h) for the end, only when one of them is
 * wanted, and SARIF alone only the failed ones.
 */

struct verify_aside;

struct verify_printer {
	struct verify_sink sink;	/* what the batch calls */
	enum output_format format;
	int quiet;
	const struct output_list *outputs;	/* borrowed */
	const struct verify_options *opts;	/* borrowed */
	const struct verify_batch *batch;	/* borrowed */
	int printed;		/* text: reports shown, for the blank lines */
	int json;		/* a JSON document is wanted (stdout or file) */
	int json_file;		/* an --output file wants it */
	int json_started;	/* its head is written */
	size_t json_nr;		/* its reports so far */
	struct strbuf json_doc;	/* the document for --output files */
	int outcomes;		/* SARIF or JUnit is wanted */
	struct outcome oc;
	struct verify_github gh;
	struct verify_aside *now;	/* what a report printed now prints */
	struct verify_aside *aside;	/* behind a kept report, in order */
	size_t nr_aside, alloc_aside;
	size_t nr_kept;		/* reports the batch keeps, awaiting */
	char *hint;		/* the first report without a sidecar */
};

/*
 * p ready for verify_batch_run(&p->sink) over batch (whose run's
 * options opts are); outputs and opts are borrowed.
 */
void verify_printer_init(struct verify_printer *p, enum output_format format,
			 int quiet, const struct output_list *outputs,
			 const struct verify_batch *batch,
			 const struct verify_options *opts);

/*
 * After the run, whose exit status is status: the summary lines, the
 * documents (stdout's and --output's), the hints.  Returns the status,
 * 2 when an output could not be written.
 */
int verify_printer_finish(struct verify_printer *p, int status);
void verify_printer_release(struct verify_printer *p);

#endif
