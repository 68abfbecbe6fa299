/*
 * GitHub Actions output (see github.h).
 */
#include "config.h"
#include "github.h"
#include "usage.h"
#include "quote.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Under the runner's 1 MiB, leaving room for the heading and the note. */
#define SUMMARY_MAX (900u << 10)

void github_annotate_to(struct strbuf *out, struct github_log *g,
			const char *level, const char *file, long line,
			const char *title, const char *message)
{
	strbuf_addf(out, "::%s file=", level);
	strbuf_add_gh_escaped(out, file, 1);
	strbuf_addf(out, ",line=%ld,title=", line > 0 ? line : 1);
	strbuf_add_gh_escaped(out, title, 1);
	strbuf_addstr(out, "::");
	strbuf_add_gh_escaped(out, message, 0);
	strbuf_addch(out, '\n');
	if (!strcmp(level, "error"))
		g->errors++;
	else
		g->warnings++;
}

void github_annotate(struct github_log *g, const char *level,
		     const char *file, long line, const char *title,
		     const char *message)
{
	struct strbuf sb = STRBUF_INIT;

	github_annotate_to(&sb, g, level, file, line, title, message);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

void github_group(struct strbuf *out, const char *name)
{
	strbuf_addstr(out, "::group::");
	strbuf_add_gh_escaped(out, name, 0);
	strbuf_addch(out, '\n');
}

void github_endgroup(struct strbuf *out)
{
	strbuf_addstr(out, "::endgroup::\n");
}

void github_caps(const struct github_log *g)
{
	if (g->errors > GITHUB_ANNOTATION_CAP)
		printf("ahd-replay: %zu error annotations; GitHub shows the "
		       "first %d of a step: every failure is in the log "
		       "above%s\n", g->errors, GITHUB_ANNOTATION_CAP,
		       getenv("GITHUB_STEP_SUMMARY") ? " and in the job "
		       "summary" : "");
	if (g->warnings > GITHUB_ANNOTATION_CAP)
		printf("ahd-replay: %zu warning annotations; GitHub shows the "
		       "first %d of a step\n", g->warnings,
		       GITHUB_ANNOTATION_CAP);
}

/*
 * A table cell: markdown and HTML inert (a commit subject or a file
 * name must not become a link, an image or markup), on one line, and
 * with what quote_escape() escapes for a terminal (bidi overrides,
 * noncharacters, invalid UTF-8) escaped here too: a page reorders text
 * as a terminal does, so a name must not display as another.
 */
static void cell(struct strbuf *out, const char *s)
{
	struct strbuf valid = STRBUF_INIT;
	const char *p;

	quote_escape(&valid, s, strlen(s));
	for (p = valid.buf; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '<')
			strbuf_addstr(out, "&lt;");
		else if (c == '>')
			strbuf_addstr(out, "&gt;");
		else if (c == '&')
			strbuf_addstr(out, "&amp;");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addch(out, ' ');
		else if (strchr("\\`*_{}[]()#+-.!|~:\"'", c))
			strbuf_addf(out, "\\%c", c);
		else
			strbuf_addch(out, (char)c);
	}
	strbuf_release(&valid);
}

void github_summary_format_row(struct strbuf *row, const char *const *cells,
			       size_t n)
{
	size_t i;

	strbuf_addch(row, '|');
	for (i = 0; i < n; i++) {
		strbuf_addch(row, ' ');
		cell(row, cells[i] ? cells[i] : "");
		strbuf_addstr(row, " |");
	}
	strbuf_addch(row, '\n');
}

void github_summary_add_row(struct github_summary *s, const struct strbuf *row)
{
	if (s->rows.len + row->len > SUMMARY_MAX)
		s->left_out++;
	else {
		strbuf_addbuf(&s->rows, row);
		s->nr++;
	}
}

void github_summary_row(struct github_summary *s, const char *const *cells,
			size_t n)
{
	struct strbuf row = STRBUF_INIT;

	github_summary_format_row(&row, cells, n);
	github_summary_add_row(s, &row);
	strbuf_release(&row);
}

int github_summary_write(struct github_summary *s, const char *title,
			 const char *counts, const char *const *header,
			 size_t n)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	struct strbuf doc = STRBUF_INIT;
	size_t i, off;
	int fd, ret = 0;

	if (!path || !*path)
		return 0;
	strbuf_addf(&doc, "### %s\n\n", title);
	cell(&doc, counts);
	strbuf_addstr(&doc, "\n\n|");
	for (i = 0; i < n; i++) {
		strbuf_addf(&doc, " %s |", header[i]);
	}
	strbuf_addstr(&doc, "\n|");
	for (i = 0; i < n; i++)
		strbuf_addstr(&doc, " --- |");
	strbuf_addch(&doc, '\n');
	strbuf_addbuf(&doc, &s->rows);
	if (s->left_out)
		strbuf_addf(&doc, "\n%zu more rows left out: a step summary "
			    "holds 1 MiB; the log has them all.\n",
			    s->left_out);
	strbuf_addch(&doc, '\n');
	/* Appended, as the runner expects: earlier steps' text stays. */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		strbuf_release(&doc);
		return error("cannot open GITHUB_STEP_SUMMARY %s: %s", path,
			     strerror(errno));
	}
	for (off = 0; off < doc.len;) {
		ssize_t w = write(fd, doc.buf + off, doc.len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = error("cannot write GITHUB_STEP_SUMMARY %s: %s",
				    path, strerror(errno));
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) && !ret)
		ret = error("cannot write GITHUB_STEP_SUMMARY %s: %s", path,
			    strerror(errno));
	strbuf_release(&doc);
	return ret;
}

void github_summary_release(struct github_summary *s)
{
	strbuf_release(&s->rows);
}

int output_github(const struct outcome *o)
{
	static const char *const header[] = { "file", "result", "details" };
	struct github_log g = { 0, 0 };
	struct github_summary s = GITHUB_SUMMARY_INIT;
	struct strbuf title = STRBUF_INIT, counts = STRBUF_INIT;
	size_t i = 0, files = 0, failed = 0;
	int ret;

	while (i < o->nr) {
		const char *group = o->v[i].group;
		struct strbuf details = STRBUF_INIT, log = STRBUF_INIT;
		const char *row[3];
		int bad = 0, err = 0;

		github_group(&log, group);
		for (; i < o->nr && !strcmp(o->v[i].group, group); i++) {
			const struct outcome_case *c = &o->v[i];

			if (c->status == OUTCOME_PASS ||
			    c->status == OUTCOME_SKIPPED)
				continue;
			github_annotate_to(&log, &g, c->status ==
					   OUTCOME_WARNING ? "warning" : "error",
					   c->file ? c->file : c->group,
					   c->line, c->rule, c->message ?
					   c->message : c->rule);
			if (c->status == OUTCOME_ERROR)
				err = 1;
			else if (c->status == OUTCOME_FAIL)
				bad = 1;
			if (details.len)
				strbuf_addstr(&details, "; ");
			strbuf_addstr(&details, c->message ? c->message :
				      c->rule);
		}
		github_endgroup(&log);
		fwrite(log.buf, 1, log.len, stdout);
		strbuf_release(&log);
		files++;
		failed += bad || err;
		row[0] = group;
		row[1] = err ? "error" : bad ? "failed" : "ok";
		row[2] = details.buf;
		github_summary_row(&s, row, 3);
		strbuf_release(&details);
	}
	github_caps(&g);
	strbuf_addf(&title, "ahd-replay %s", o->command);
	strbuf_addf(&counts, "%zu files, %zu failed", files, failed);
	ret = github_summary_write(&s, title.buf, counts.buf, header, 3);
	github_summary_release(&s);
	strbuf_release(&title);
	strbuf_release(&counts);
	return ret;
}
