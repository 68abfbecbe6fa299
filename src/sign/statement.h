#ifndef STATEMENT_H
#define STATEMENT_H

#include "strbuf.h"

/*
 * What a signature says: the statement that a report and its sidecar,
 * named by their paths relative to the root, have these SHA-256 hashes
 * (the report's bytes, the sidecar's RFC 8785 form).  Its RFC 8785 text
 * is what every signature signs:
 *
 *	{"report":{"path":"docs/evals/run.md","sha256":"<64 hex>"},
 *	 "sidecar":{"path":"docs/evals/run.replay.json","sha256":"<64 hex>"},
 *	 "type":"ahd-replay/statement/v1"}
 *
 * (on one line, no spaces).  Naming the report binds a signature to it:
 * copied next to another report, over edited report bytes, or for
 * another sidecar, the statement differs and the signature fails.
 */

#define STATEMENT_TYPE "ahd-replay/statement/v1"

struct statement {
	struct strbuf report_path, report_sha;
	struct strbuf sidecar_path, sidecar_sha;
	struct strbuf type;
	struct strbuf text;	/* the RFC 8785 bytes that are signed */
};
void statement_init(struct statement *st);
void statement_release(struct statement *st);

/*
 * The statement for report and sidecar as they are now, paths taken
 * relative to root (absolute, symlink-free).  Both files must exist,
 * lie within the root and have UTF-8 paths.  Returns 0, or -1 with a
 * reason in err.
 */
int statement_for(struct statement *out, const char *root,
		  const char *report, const char *sidecar,
		  struct strbuf *err);

/*
 * Read a recorded statement (JSON text, any layout): exactly the
 * members above.  out->text becomes its RFC 8785 form.  Returns 0, or -1
 * with a reason in err.
 */
int statement_parse(struct statement *out, const char *text, size_t len,
		    struct strbuf *err);

/*
 * Why signed (what a signature covers) is not now, in one line: another
 * sidecar or report path, or which hashes changed.  Nothing is added
 * when the two texts are equal.
 */
void statement_explain(struct strbuf *why, const struct statement *signed_,
		       const struct statement *now);

#endif
