#include "config.h"
#include "hooklost.h"
#include "quote.h"
#include "record/render.h"
#include "record/sidecar.h"
#include "strutil.h"

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
