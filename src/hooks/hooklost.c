#include "config.h"
#include "hooklost.h"
#include "config/rcfile.h"
#include "quote.h"
#include "record/layout.h"
#include "record/render.h"
#include "record/sidecar.h"
#include "strutil.h"

#include <stdlib.h>
#include <string.h>

/*
 * A sidecar that goes away here while its report stays and still
 * carries its replay block: the report's coverage is lost, which verify
 * --all calls a missing sidecar.  Refused.
 */
void hook_lost_sidecars(const struct hook_lost *l)
{
	struct strbuf report = STRBUF_INIT, buf = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct strbuf *t = &l->res->text;
	size_t i, begin, end;

	for (i = 0; i < l->nr_changed; i++) {
		const char *path = l->changed[i];

		if (!ends_with(path, ".replay.json") ||
		    strlen(path) <= strlen(".replay.json"))
			continue;
		strbuf_reset(&buf);
		strbuf_reset(&why);
		if (snapshot_read_file(&buf, l->next->snap, path, &why))
			continue;	/* still there, or unreadable */
		strbuf_reset(&report);
		sidecar_report_for(&report, path);
		strbuf_reset(&buf);
		if (snapshot_read_file(&buf, l->next->snap, report.buf,
				       &why) != 1 ||
		    render_find_own_block(buf.buf, buf.len, &begin, &end,
					  &why) == 1)
			continue;
		l->res->problems++;
		strbuf_addstr(t, "  FAIL ");
		quote_c_style(t, report.buf);
		strbuf_addstr(t, ": missing sidecar: ");
		quote_c_style(t, path);
		strbuf_addf(t, " is removed in %s but the report stays with "
			    "its ahd-replay block\n", l->next->name);
	}
	strbuf_release(&report);
	strbuf_release(&buf);
	strbuf_release(&why);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int changed_here(const struct hook_lost *l, const char *path)
{
	return l->nr_changed && bsearch(&path, l->changed, l->nr_changed,
					sizeof(*l->changed), cmp_str);
}

/*
 * Does s hold a file at path?  One that cannot be read counts as there:
 * that refuses more, never less.
 */
static int state_has(const struct hook_state *s, const char *path)
{
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	if (s->snap->tree || s->snap->index)
		ret = snapshot_read_file(&buf, s->snap, path, &why) != 0;
	strbuf_release(&buf);
	strbuf_release(&why);
	return ret;
}

void hook_lost_layout_sidecar(const struct hook_lost *l,
			      const struct layout *was, const char *report,
			      const char *sidecar)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf had = STRBUF_INIT;
	struct strbuf *t = &l->res->text;
	size_t begin, end;

	/* a report whose record was the report itself had no sidecar */
	if (!was || !was->sidecar)
		goto out;
	if (snapshot_read_file(&text, l->next->snap, report, &why) != 1 ||
	    layout_find_block(text.buf, text.len, &begin, &end))
		goto out;	/* no report, or no block that claims one */
	layout_sidecar_for(&had, was, report);
	if (!state_has(l->base, had.buf))
		goto out;	/* never had one: no coverage to lose */
	l->res->problems++;
	strbuf_addstr(t, "  FAIL ");
	quote_c_style(t, report);
	strbuf_addstr(t, ": missing sidecar: ");
	quote_c_style(t, sidecar);
	if (strcmp(had.buf, sidecar)) {
		strbuf_addf(t, " is not in %s (%s had ", l->next->name,
			    l->base->name);
		quote_c_style(t, had.buf);
		strbuf_addch(t, ')');
	} else
		strbuf_addf(t, " is removed in %s", l->next->name);
	strbuf_addstr(t, " but the report stays with its ahd-replay-record "
		      "block\n");
out:
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&had);
}

void hook_lost_record(const struct hook_lost *l, const struct layout *was,
		      const char *record)
{
	struct strbuf *t = &l->res->text;

	/* unchanged, the file was in base as it is in next */
	if (changed_here(l, record) && !state_has(l->base, record))
		return;
	l->res->problems++;
	strbuf_addstr(t, "  FAIL ");
	quote_c_style(t, record);
	strbuf_addstr(t, ": no longer a record of any layout: layout ");
	quote_c_style(t, was->name);
	strbuf_addf(t, " of %s's " RCFILE_NAME " matched it, no layout of "
		    "%s's does, and the file stays (remove it in the same "
		    "change, or keep a layout that matches it)\n",
		    l->base->name, l->next->name);
}
