/*
 * verify --format=github (see verify-github.h).
 */
#include "config.h"
#include "verify-github.h"
#include "explain.h"
#include "ci/outcome.h"

#include <stdio.h>
#include <string.h>

static const char *const verdict_words[] = {
	"intact", "drifted", "error", "untrusted", "missing sidecar",
};

/*
 * Where a failed check points: the line of the report's replay block
 * that holds the recorded hash, else the sidecar's line holding it (1
 * when neither has it).
 */
static const char *check_place(const struct verify_report *r,
			       const struct verify_check *c, long *line)
{
	struct strbuf key = STRBUF_INIT;

	*line = r->loaded && strcmp(r->report.buf, r->sidecar_path.buf) ?
		outcome_line_of(r->report.buf, c->field, c->expected) : 0;
	if (*line)
		return r->report.buf;
	strbuf_addf(&key, "\"%s\"", c->field);
	*line = outcome_line_of(r->sidecar_path.buf, key.buf, c->expected);
	if (!*line)
		*line = 1;
	strbuf_release(&key);
	return r->sidecar_path.buf;
}

/* The attribution notes of r ("token: ... changed by ..."), one line. */
static void attribution(struct strbuf *out, const struct verify_report *r)
{
	const char *p = r->notes.buf, *end;

	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		if (!strncmp(p, "  note: token: ", 15) ||
		    !strncmp(p, "  note: brief: ", 15)) {
			if (out->len)
				strbuf_addstr(out, "; ");
			strbuf_add(out, p + 8, (size_t)(end - p - 8));
		}
	}
}

static const char *check_word(const struct verify_report *r, int field)
{
	int i;

	for (i = 0; i < r->nr_checks; i++)
		if (!strcmp(r->checks[i].field, field ? "brief" : "token"))
			return r->checks[i].ok ? "ok" : r->checks[i].error ?
				"error" : "drift";
	return field && r->loaded && !r->sc.brief.path ? "none" : "";
}

static void summary_row(struct verify_github *g, const struct verify_report *r)
{
	struct strbuf notes = STRBUF_INIT;
	const char *cells[5];

	if (r->error.len)
		strbuf_addbuf(&notes, &r->error);
	attribution(&notes, r);
	cells[0] = r->report.buf;
	cells[1] = verdict_words[r->verdict];
	cells[2] = check_word(r, 0);
	cells[3] = check_word(r, 1);
	cells[4] = notes.buf;
	github_summary_row(&g->summary, cells, 5);
	strbuf_release(&notes);
}

/*
 * The notes, each on its own line as in the text format; escaped as a
 * message is, so that a path or a commit subject cannot start a
 * workflow command of its own.
 */
static void print_notes(const struct verify_report *r)
{
	struct strbuf line = STRBUF_INIT, esc = STRBUF_INIT;
	const char *p = r->notes.buf, *end;

	while (*p) {
		end = strchrnul(p, '\n');
		strbuf_reset(&line);
		strbuf_reset(&esc);
		strbuf_add(&line, p, (size_t)(end - p));
		strbuf_add_gh_escaped(&esc, line.buf, 0);
		puts(esc.buf);
		p = *end ? end + 1 : end;
	}
	strbuf_release(&line);
	strbuf_release(&esc);
}

/* --explain's lines in the group, escaped as the notes are. */
static void print_explanation(const struct explanation *e)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
	struct strbuf esc = STRBUF_INIT;
	const char *p, *end;

	explain_print(&text, e, "  ");
	for (p = text.buf; *p; p = end + 1) {
		end = strchr(p, '\n');
		strbuf_reset(&line);
		strbuf_reset(&esc);
		strbuf_add(&line, p, (size_t)(end - p));
		strbuf_add_gh_escaped(&esc, line.buf, 0);
		puts(esc.buf);
	}
	strbuf_release(&text);
	strbuf_release(&line);
	strbuf_release(&esc);
}

void verify_github_report(struct verify_github *g,
			  const struct verify_report *r,
			  const struct verify_options *opts)
{
	struct strbuf title = STRBUF_INIT, msg = STRBUF_INIT;
	int i;

	summary_row(g, r);
	if (g->quiet && r->verdict == VERIFY_INTACT && !r->md_warning.len)
		return;
	strbuf_addf(&title, "%s: %s", r->report.buf,
		    verdict_words[r->verdict]);
	github_group(title.buf);
	printf("verdict: %s\n", verdict_words[r->verdict]);
	if (r->verdict == VERIFY_MISSING) {
		github_annotate(&g->log, "error", r->markdown.buf, 1,
				"replay missing sidecar", r->error.buf);
		goto out;
	}
	if (r->error.len)
		github_annotate(&g->log, "error", r->sidecar_path.buf, 1,
				"replay sidecar", r->error.buf);
	for (i = 0; i < r->nr_checks; i++) {
		const struct verify_check *c = &r->checks[i];
		const char *file;
		long line;

		if (c->ok)
			continue;
		file = check_place(r, c, &line);
		strbuf_reset(&title);
		strbuf_addf(&title, "replay %s %s", c->field,
			    c->error ? "unverifiable" : "drift");
		strbuf_reset(&msg);
		strbuf_addf(&msg, "%s: %s (expected %s, actual %s)", c->field,
			    c->reason.buf, c->expected,
			    c->actual.len ? c->actual.buf : "none");
		github_annotate(&g->log, "error", file, line,
				title.buf, msg.buf);
		if (c->explain)
			print_explanation(c->explain);
	}
	if (r->loaded && verify_signature_failed(r, opts)) {
		strbuf_reset(&msg);
		strbuf_addf(&msg, "signature: %s", r->sig.reason.buf);
		github_annotate(&g->log, "error", r->sidecar_path.buf, 1,
				"replay signature", msg.buf);
	}
	if (r->commit_checked && !r->commit_sig.ok)
		github_annotate(&g->log, "error", r->sidecar_path.buf, 1,
				"replay signed commit", r->commit_sig.reason.buf);
	if (r->md_warning.len)
		github_annotate(&g->log, "warning", r->markdown.buf,
				r->md_line, "replay block", r->md_warning.buf);
	if (r->notes.len)
		print_notes(r);
out:
	github_endgroup();
	strbuf_release(&title);
	strbuf_release(&msg);
}

int verify_github_finish(struct verify_github *g, const char *counts)
{
	static const char *const header[] = {
		"report", "result", "token", "brief", "notes"
	};

	github_caps(&g->log);
	return github_summary_write(&g->summary, "ahd-replay verify", counts,
				    header, 5);
}
