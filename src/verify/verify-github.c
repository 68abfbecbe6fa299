/*
 * verify --format=github (see verify-github.h).
 */
#include "config.h"
#include "verify-github.h"
#include "explain.h"
#include "ci/outcome.h"
#include "fs/path.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const verdict_words[] = {
	"intact", "drifted", "error", "untrusted", "missing sidecar",
};

/*
 * Whether line (one line of a YAML or JSON file) holds the mapping key
 * key: "key:", "\"key\":" or "'key':" after any indentation or "- ".
 */
static int holds_key(const char *line, const char *key, size_t len)
{
	char q;

	while (*line == ' ' || *line == '\t' || *line == '-')
		line++;
	q = *line == '"' || *line == '\'' ? *line++ : 0;
	if (strncmp(line, key, len))
		return 0;
	line += len;
	if (q && *line++ != q)
		return 0;
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == ':';
}

/*
 * The line of the key a JSON Pointer names in a YAML or JSON file, as
 * the text shows it: each segment (array indices skipped) searched for
 * after the line of the one before.  A guide for a reviewer's eye, not
 * a parse: 0 when a segment is not found or the file cannot be read.
 */
static long pointer_line(const char *file, const char *pointer)
{
	FILE *fp = fopen(file, "r");
	struct strbuf seg = STRBUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	long n = 0, found = 0;
	const char *p = pointer;

	while (fp && *p == '/') {
		const char *end = strchrnul(p + 1, '/');

		strbuf_reset(&seg);
		for (p++; p < end; p++)	/* RFC 6901: ~1 is '/', ~0 '~' */
			strbuf_addch(&seg, *p == '~' && p + 1 < end ?
				     (*++p == '1' ? '/' : '~') : *p);
		if (seg.len && strspn(seg.buf, "0123456789") == seg.len)
			continue;
		while (getline(&line, &cap, fp) > 0) {
			n++;
			if (holds_key(line, seg.buf, seg.len))
				break;
		}
		if (feof(fp) || ferror(fp)) {
			found = 0;
			break;
		}
		found = n;
	}
	if (fp)
		fclose(fp);
	free(line);
	strbuf_release(&seg);
	return found;
}

/* The new file's first changed line in a unified diff, or 0. */
static long diff_line(const struct strbuf *diff)
{
	const char *p = strstr(diff->buf, "@@ -");
	long line;

	if (!p || !(p = strchr(p, '+')))
		return 0;
	line = strtol(p + 1, NULL, 10);
	for (p = strchr(p, '\n'); p && p[1] == ' '; p = strchr(p + 1, '\n'))
		line++;
	return p ? line : 0;
}

/*
 * The line an explained drift starts at in the input as it is now: the
 * first changed key's, or the first changed line's; 1 when unknown.
 */
static long change_line(const struct verify_check *c, const char *file)
{
	const struct explanation *e = c->explain;
	long line = 0;

	if (e && e->kind == EXPLAIN_STRUCTURED && e->nr)
		line = pointer_line(file, e->v[0].path);
	else if (e && e->kind == EXPLAIN_TEXT)
		line = diff_line(&e->diff);
	return line > 0 ? line : 1;
}

/*
 * Where a failed check points.  An input the change touches (known with
 * --changed-since): that input, where a pull request shows the
 * annotation inline, at change_line().  Else the line of the report's
 * replay block that holds the recorded hash, else the sidecar's line
 * holding it (1 when neither has it).  out holds the input's path,
 * relative to the current directory as the report's is.
 */
static const char *check_place(struct strbuf *out,
			       const struct verify_report *r,
			       const struct verify_check *c, long *line)
{
	struct strbuf key = STRBUF_INIT;
	char *cwd;

	if (c->in_change && c->rel.len && (cwd = getcwd(NULL, 0))) {
		strbuf_addf(&key, "%s/%s", r->root.buf, c->rel.buf);
		path_relative(out, cwd, key.buf);
		free(cwd);
		strbuf_release(&key);
		*line = change_line(c, out->buf);
		return out->buf;
	}

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

static void summary_row(struct strbuf *row, const struct verify_report *r)
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
	github_summary_format_row(row, cells, 5);
	strbuf_release(&notes);
}

/*
 * The notes, each on its own line as in the text format; escaped as a
 * message is, so that a path or a commit subject cannot start a
 * workflow command of its own.
 */
static void print_notes(struct strbuf *out, const struct verify_report *r)
{
	struct strbuf line = STRBUF_INIT;
	const char *p = r->notes.buf, *end;

	while (*p) {
		end = strchrnul(p, '\n');
		strbuf_reset(&line);
		strbuf_add(&line, p, (size_t)(end - p));
		strbuf_add_gh_escaped(out, line.buf, 0);
		strbuf_addch(out, '\n');
		p = *end ? end + 1 : end;
	}
	strbuf_release(&line);
}

/* --explain's lines in the group, escaped as the notes are. */
static void print_explanation(struct strbuf *out, const struct explanation *e)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
	const char *p, *end;

	explain_print(&text, e, "  ");
	for (p = text.buf; *p; p = end + 1) {
		end = strchr(p, '\n');
		strbuf_reset(&line);
		strbuf_add(&line, p, (size_t)(end - p));
		strbuf_add_gh_escaped(out, line.buf, 0);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&text);
	strbuf_release(&line);
}

void verify_github_report(struct verify_github *g,
			  const struct verify_report *r,
			  const struct verify_options *opts,
			  struct strbuf *out, struct strbuf *row)
{
	struct strbuf title = STRBUF_INIT, msg = STRBUF_INIT;
	int i;

	summary_row(row, r);
	if (g->quiet && r->verdict == VERIFY_INTACT && !r->md_warning.len)
		return;
	strbuf_addf(&title, "%s: %s", r->report.buf,
		    verdict_words[r->verdict]);
	github_group(out, title.buf);
	strbuf_addf(out, "verdict: %s\n", verdict_words[r->verdict]);
	if (r->verdict == VERIFY_MISSING) {
		github_annotate_to(out, &g->log, "error", r->markdown.buf,
				   1, "replay missing sidecar", r->error.buf);
		goto out;
	}
	if (r->error.len)
		github_annotate_to(out, &g->log, "error",
				   r->sidecar_path.buf, 1, "replay sidecar",
				   r->error.buf);
	for (i = 0; i < r->nr_checks; i++) {
		const struct verify_check *c = &r->checks[i];
		struct strbuf input = STRBUF_INIT;
		const char *file;
		long line;

		if (c->ok)
			continue;
		file = check_place(&input, r, c, &line);
		strbuf_reset(&title);
		strbuf_addf(&title, "replay %s %s", c->field,
			    c->error ? "unverifiable" : "drift");
		strbuf_reset(&msg);
		strbuf_addf(&msg, "%s: %s (expected %s, actual %s)", c->field,
			    c->reason.buf, c->expected,
			    c->actual.len ? c->actual.buf : "none");
		github_annotate_to(out, &g->log, "error", file, line,
				   title.buf, msg.buf);
		strbuf_release(&input);
		if (c->explain)
			print_explanation(out, c->explain);
	}
	if (r->loaded && verify_signature_failed(r, opts)) {
		strbuf_reset(&msg);
		strbuf_addf(&msg, "signature: %s", r->sig.reason.buf);
		github_annotate_to(out, &g->log, "error",
				   r->sidecar_path.buf, 1, "replay signature",
				   msg.buf);
	}
	if (r->commit_checked && !r->commit_sig.ok)
		github_annotate_to(out, &g->log, "error",
				   r->sidecar_path.buf, 1, "replay signed commit",
				   r->commit_sig.reason.buf);
	if (r->md_warning.len)
		github_annotate_to(out, &g->log, "warning", r->markdown.buf,
				   r->md_line, "replay block",
				   r->md_warning.buf);
	if (r->notes.len)
		print_notes(out, r);
out:
	github_endgroup(out);
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
