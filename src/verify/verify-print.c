/*
 * verify's printer (see verify-print.h).
 */
#include "config.h"
#include "verify-print.h"
#include "verify-outcome.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A report behind one awaiting attribution: either one the batch keeps
 * (kept is its index there), or the bytes it prints, set aside.
 */
struct verify_aside {
	long kept;		/* -1: the bytes below */
	int shown;		/* text: the report prints a block */
	struct strbuf text;	/* text or github: what stdout gets */
	struct strbuf row;	/* github: the job summary's row */
	struct strbuf json;
};

/* What report r prints in its format and JSON, into a (kept or not). */
static void render(struct verify_printer *p, const struct verify_report *r,
		   struct verify_aside *a)
{
	if (p->json)
		verify_json_report(&a->json, r, p->opts);
	if (p->format == FORMAT_GITHUB)
		verify_github_report(&p->gh, r, p->opts, &a->text, &a->row);
	if (p->format != FORMAT_TEXT)
		return;
	if (!r->loaded && r->verdict != VERIFY_MISSING) {
		/* stderr has no order to keep with stdout's reports */
		error_path(r->sidecar_path.buf, &r->error);
		return;
	}
	if (p->quiet && r->verdict == VERIFY_INTACT)
		return;
	a->shown = 1;
	verify_format_text(&a->text, r, p->opts);
}

static void doc_put(struct verify_printer *p, const struct strbuf *sb)
{
	if (p->format == FORMAT_JSON)
		fwrite(sb->buf, 1, sb->len, stdout);
	if (p->json_file)
		strbuf_addbuf(&p->json_doc, sb);
}

/* The head of the document, once: the scope's errors are known by then. */
static void doc_start(struct verify_printer *p)
{
	struct strbuf head = STRBUF_INIT;

	if (!p->json || p->json_started)
		return;
	p->json_started = 1;
	verify_json_head(&head, p->batch);
	doc_put(p, &head);
	strbuf_release(&head);
}

/* Print what a holds, in the report's place. */
static void flush(struct verify_printer *p, const struct verify_aside *a)
{
	if (a->shown && p->printed++)
		putchar('\n');
	fwrite(a->text.buf, 1, a->text.len, stdout);
	if (p->format == FORMAT_GITHUB)
		github_summary_add_row(&p->gh.summary, &a->row);
	if (p->json) {
		struct strbuf sep = STRBUF_INIT;

		doc_start(p);
		verify_json_separator(&sep, !p->json_nr++);
		doc_put(p, &sep);
		doc_put(p, &a->json);
		strbuf_release(&sep);
	}
}

static void aside_init(struct verify_aside *a, long kept)
{
	a->kept = kept;
	a->shown = 0;
	strbuf_init(&a->text, 0);
	strbuf_init(&a->row, 0);
	strbuf_init(&a->json, 0);
}

static void aside_release(struct verify_aside *a)
{
	strbuf_release(&a->text);
	strbuf_release(&a->row);
	strbuf_release(&a->json);
}

/*
 * Print r now, in the report's place.  The buffers are the printer's,
 * emptied for each report and not freed: they grow to the largest
 * report once, not once per report.
 */
static void print_now(struct verify_printer *p, const struct verify_report *r)
{
	struct verify_aside *a = p->now;

	a->shown = 0;
	strbuf_reset(&a->text);
	strbuf_reset(&a->row);
	strbuf_reset(&a->json);
	render(p, r, a);
	flush(p, a);
}

static struct verify_aside *aside_add(struct verify_printer *p, long kept)
{
	struct verify_aside *a;

	ALLOC_GROW(p->aside, p->nr_aside + 1, p->alloc_aside);
	a = &p->aside[p->nr_aside++];
	aside_init(a, kept);
	return a;
}

static void sink_report(struct verify_sink *s, const struct verify_report *r,
			int awaits)
{
	struct verify_printer *p = (struct verify_printer *)s;

	/* the cases do not depend on attribution: in order, now */
	if (p->outcomes)
		verify_outcome_add(&p->oc, r, p->opts);
	if (!p->hint && verify_wants_backfill_hint(r))
		p->hint = xstrdup(r->report.buf);
	if (r->skipped)
		return;
	if (awaits)	/* the batch keeps it: printed once attributed */
		aside_add(p, (long)p->nr_kept++);
	else if (p->nr_aside)	/* behind one that is kept */
		render(p, r, aside_add(p, -1));
	else
		print_now(p, r);
}

/* The reports kept, attributed: everything set aside, in order. */
static void sink_kept(struct verify_sink *s, const struct verify_report *kept,
		      size_t n)
{
	struct verify_printer *p = (struct verify_printer *)s;
	size_t i;

	for (i = 0; i < p->nr_aside; i++) {
		struct verify_aside *a = &p->aside[i];

		if (a->kept >= 0 && (size_t)a->kept < n)
			render(p, &kept[a->kept], a);
		flush(p, a);
		aside_release(a);
	}
	p->nr_aside = 0;
}

void verify_printer_init(struct verify_printer *p, enum output_format format,
			 int quiet, const struct output_list *outputs,
			 const struct verify_batch *batch,
			 const struct verify_options *opts)
{
	struct outcome oc = OUTCOME_INIT("verify");
	struct verify_github gh = VERIFY_GITHUB_INIT;

	memset(p, 0, sizeof(*p));
	p->sink.report = sink_report;
	p->sink.kept = sink_kept;
	p->format = format;
	p->quiet = quiet;
	p->outputs = outputs;
	p->batch = batch;
	p->opts = opts;
	p->json = output_wants(outputs, format, FORMAT_JSON);
	/* FORMAT_TEXT for stdout: whether a file wants the document */
	p->json_file = output_wants(outputs, FORMAT_TEXT, FORMAT_JSON);
	strbuf_init(&p->json_doc, 0);
	p->oc = oc;
	/* SARIF shows the failed cases only: JUnit needs the others */
	p->oc.failures_only = !output_wants(outputs, format, FORMAT_JUNIT);
	p->outcomes = output_wants(outputs, format, FORMAT_SARIF) ||
		!p->oc.failures_only;
	p->gh = gh;
	p->gh.quiet = quiet;
	p->now = xmalloc(sizeof(*p->now));
	aside_init(p->now, -1);
}

/*
 * The summary lines of the text and github formats, and the job summary.
 * Returns 0, or -1 when the job summary could not be written.
 */
static int print_summary(struct verify_printer *p)
{
	struct strbuf line = STRBUF_INIT, skipped = STRBUF_INIT;
	const struct verify_batch *b = p->batch;
	int ret = 0;

	if (p->format != FORMAT_TEXT && p->format != FORMAT_GITHUB)
		return 0;
	verify_summary_line(&line, b);
	if (p->opts->changed_since)
		verify_skipped_line(&skipped, b);
	if (b->tally.reports != 1) {
		if (p->format == FORMAT_TEXT && p->printed)
			putchar('\n');
		printf("%s\n", line.buf);
	}
	if (skipped.len)
		printf("%s\n", skipped.buf);
	if (p->format == FORMAT_GITHUB) {
		if (skipped.len) {
			strbuf_addstr(&line, "; ");
			strbuf_addbuf(&line, &skipped);
		}
		ret = verify_github_finish(&p->gh, line.buf);
	}
	strbuf_release(&line);
	strbuf_release(&skipped);
	return ret;
}

/*
 * The documents: the end of the JSON one on stdout, and each --output
 * file; SARIF and JUnit likewise.  Returns the status, 2 when an output
 * could not be written.
 */
static int write_documents(struct verify_printer *p, int status)
{
	int ret = status;

	if (p->json) {
		struct strbuf tail = STRBUF_INIT;

		doc_start(p);
		verify_json_tail(&tail, p->batch, p->json_nr, status);
		doc_put(p, &tail);
		if (output_write(p->outputs, FORMAT_JSON, p->json_doc.buf,
				 p->json_doc.len))
			ret = 2;
		strbuf_release(&tail);
	}
	if (output_outcome(p->outputs, p->format, &p->oc, status))
		ret = 2;
	return ret;
}

int verify_printer_finish(struct verify_printer *p, int status)
{
	/* no report at all: an error in every format */
	if (p->batch->empty)
		outcome_add(&p->oc, "verify", "reports", OUTCOME_ERROR,
			    "no-reports", VERIFY_EMPTY_MESSAGE);
	if (p->batch->empty && p->format == FORMAT_GITHUB)
		printf("::error title=ahd-replay verify::%s\n",
		       VERIFY_EMPTY_MESSAGE);
	if (print_summary(p))
		status = 2;
	status = write_documents(p, status);
	if (p->hint)	/* hints after results, as git's */
		verify_hint_backfill(p->hint);
	return status;
}

void verify_printer_release(struct verify_printer *p)
{
	size_t i;

	for (i = 0; i < p->nr_aside; i++)
		aside_release(&p->aside[i]);
	free(p->aside);
	aside_release(p->now);
	free(p->now);
	strbuf_release(&p->json_doc);
	outcome_release(&p->oc);
	github_summary_release(&p->gh.summary);
	free(p->hint);
}
