/*
 * verify --changed-since and --require-sidecar: which reports a run
 * leaves out, and the failure of a required sidecar that is missing.
 */
#include "config.h"
#include "verify.h"
#include "verify-int.h"
#include "record/changed.h"

#include <string.h>

/* The --changed-since base for r's root, or NULL with r->error set. */
const struct changed_base *verify_since_base(struct verify_run *run,
					     struct verify_report *r)
{
	struct strbuf err = STRBUF_INIT;
	const struct changed_base *b;

	b = changed_base_for(&run->changed, r->root.buf,
			     run->opts.changed_since, run->opts.at, &err);
	if (!b)
		strbuf_addbuf(&r->error, &err);
	else if (!run->since_base)
		run->since_base = changed_base_name(b);
	strbuf_release(&err);
	return b;
}

/*
 * A report --require-sidecar wants a sidecar for has none: a failure of
 * its own, unless --changed-since leaves the report out.
 */
int verify_missing_sidecar(struct verify_run *run, struct verify_report *r)
{
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	const struct changed_base *b;
	int missing = 0;
	const char *slash = strrchr(r->markdown.buf, '/');

	if (run->opts.changed_since) {
		if (slash)
			strbuf_add(&dir, r->markdown.buf, (size_t)(slash -
				   r->markdown.buf) + (slash == r->markdown.buf));
		else
			strbuf_addstr(&dir, ".");
		if (verify_find_root(run->memos, &r->root, dir.buf, run->opts.root,
			      &err) < 0) {
			strbuf_addbuf(&r->error, &err);
			goto out;
		}
		b = verify_since_base(run, r);
		if (!b)
			goto out;
		if (!changed_file(b, r->markdown.buf)) {
			r->skipped = 1;
			goto out;
		}
	}
	strbuf_addf(&r->error, "no replay sidecar for %s (reports matching "
		    "%s must have one)", r->markdown.buf, r->required_by);
	missing = 1;
out:
	strbuf_release(&dir);
	strbuf_release(&err);
	return missing;
}
