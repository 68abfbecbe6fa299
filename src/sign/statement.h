#ifndef STATEMENT_H
#define STATEMENT_H

#include "strbuf.h"
#include "record/layout.h"

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
 *
 * A record of a layout of .ahd-replay.yml (record/layout.h) has its own
 * statement, which binds the record's bytes and, when the layout gives
 * records a sidecar, the sidecar's bytes (not a canonical form: a
 * layout's JSON is only read, never rewritten), and names the layout:
 *
 *	{"definition":"<64 hex>","layout":"runs",
 *	 "record":{"path":"runs/a/record.json","sha256":"<64 hex>"},
 *	 "type":"ahd-replay/record-statement/v1"}
 *
 * with "sidecar":{"path":...,"sha256":...} between "record" and "type"
 * for a record with a sidecar.  Naming the layout, and binding the
 * SHA-256 of how it reads a record (its pointers, its inputs' modes and
 * spellings: "definition"), keeps a signature from vouching for the
 * file read another way.
 */

#define STATEMENT_TYPE "ahd-replay/statement/v1"
#define STATEMENT_RECORD_TYPE "ahd-replay/record-statement/v1"

struct statement {
	/* AHD's: the report; a record statement: the record */
	struct strbuf report_path, report_sha;
	/* empty in a record statement for a record without a sidecar */
	struct strbuf sidecar_path, sidecar_sha;
	struct strbuf layout;	/* a record statement's; else empty */
	struct strbuf definition;	/* likewise: how the layout reads */
	int is_record;		/* a record statement */
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
 * The record statement for record (a record of lay) and its
 * sidecar (NULL: the record has none) as they are now, paths taken
 * relative to root as statement_for() takes them.  Returns 0, or -1
 * with a reason in err.
 */
int statement_for_record(struct statement *out, const char *root,
			 const struct layout *lay, const char *record,
			 const char *sidecar, struct strbuf *err);

/*
 * Read a recorded statement (JSON text, any layout): exactly the
 * members above, of one statement or the other (a "record" member makes
 * it a record statement; the type is compared later, not here).
 * out->text becomes its RFC 8785 form.  Returns 0, or -1 with a reason
 * in err.
 */
int statement_parse(struct statement *out, const char *text, size_t len,
		    struct strbuf *err);

/*
 * Why signed (what a signature covers) is not now, in one line: another
 * type or layout, another sidecar, report or record path, or which
 * hashes changed.  Nothing is added
 * when the two texts are equal.
 */
void statement_explain(struct strbuf *why, const struct statement *signed_,
		       const struct statement *now);

#endif
