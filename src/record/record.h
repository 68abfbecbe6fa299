#ifndef RECORD_H
#define RECORD_H

#include <stddef.h>
#include "sidecar.h"
#include "strbuf.h"

/*
 * A record: a file that pins inputs at a commit.  Each pinned input has
 * a name (what messages call it), the path recorded for it, the hash
 * recorded for it and the way that hash was computed.  Verification
 * re-hashes each input the way its mode says and compares; it needs
 * nothing else from the file.
 *
 * AHD's replay sidecar is one layout of a record (record_from_sidecar()):
 * its token and its brief are the pinned inputs, its ahd_commit the
 * commit.  Another layout of the same noun is another record_from_*()
 * filling the same struct; verify checks whatever inputs it finds.
 */

enum pin_mode {
	/* the canonical JSON of the parsed YAML (AHD's token) */
	PIN_STRUCTURED,
	/*
	 * the text's bytes, and when they do not match, its canonical
	 * JSON (AHD's brief: markdown is pinned by its bytes, YAML by its
	 * structure, and the record does not say which it is)
	 */
	PIN_RAW_THEN_STRUCTURED,
	/* the text's bytes only (a layout's input pinned as sha256sum does) */
	PIN_RAW,
};

struct pinned_input {
	/*
	 * What messages call it ("token", "brief"): the layout's word,
	 * borrowed from the layout (static for AHD's), so it outlives the
	 * record
	 */
	const char *name;
	char *own_name;		/* a name made for this input, or NULL */
	char *path;		/* as recorded */
	char *hash;		/* as recorded: "sha256:" and 64 hex digits */
	enum pin_mode mode;
};

struct record {
	struct strbuf file;	/* the record file */
	struct strbuf report;	/* the report it describes; empty: none */
	char *commit;		/* the commit the inputs were pinned at, or
				   NULL when the record names none */
	struct pinned_input *inputs;	/* in the record's order */
	size_t nr, alloc;
};
#define RECORD_INIT { STRBUF_INIT, STRBUF_INIT, NULL, NULL, 0, 0 }

/*
 * Append an input to r; path and hash are copied, name is borrowed (see
 * struct pinned_input).  For the layouts' readers.
 */
void record_add_input(struct record *r, const char *name, const char *path,
		      const char *hash, enum pin_mode mode);

/*
 * The record a loaded sidecar is, in AHD's layout: the token, pinned
 * structured, then the brief, pinned raw-then-structured, unless the
 * sidecar's brief is null (a run without one).  file is the sidecar's
 * path and report its report's (NULL: none).  out must be RECORD_INIT or
 * released; it owns copies of the paths and hashes, so sc may go first.
 */
void record_from_sidecar(struct record *out, const struct sidecar *sc,
			 const char *file, const char *report);

/* Release r's contents; r is RECORD_INIT again.  Accepts RECORD_INIT. */
void record_release(struct record *r);

#endif
