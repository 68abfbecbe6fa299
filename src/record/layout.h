#ifndef LAYOUT_H
#define LAYOUT_H

#include <stddef.h>
#include "record.h"

/*
 * A record layout: which files are records (a glob) and where in each
 * JSON record the pinned inputs are (JSON Pointers, '*' for every
 * member).  The repository's .ahd-replay.yml declares them
 * (config/rcfile.h); AHD's sidecar is the built-in layout, read by
 * record_from_sidecar().
 */

enum hash_spelling {
	SPELL_PREFIXED,		/* "sha256:<hex>" (AHD's) */
	SPELL_HEX,		/* bare hex, as sha256sum prints it */
};

/* One pinned input (or, with '*', several) of a layout. */
struct layout_input {
	char *name;		/* what messages call it */
	char *path;		/* JSON Pointer to its recorded path */
	char *hash;		/* JSON Pointer to its recorded hash */
	char *label;		/* JSON Pointer to a per-input name, or NULL */
	enum pin_mode mode;
	enum hash_spelling spelling;
};

/*
 * The fields backfill may fill in a record that lacks them (the layout's
 * backfill key): the commit, each input's hash.
 */
enum layout_fill_field {
	LAYOUT_FILL_COMMIT = (1 << 0),
	LAYOUT_FILL_HASH = (1 << 1),
};

/* Which files are records and where in each the pinned inputs are. */
struct layout {
	char *name;
	char *records;		/* glob, relative to the top */
	char *sidecar;		/* where a record's JSON is, a pattern
				   ("{dir}/{stem}.run.json"), or NULL: the
				   record is the JSON */
	char *block;		/* the derived block its reports carry:
				   "inputs", or NULL for none */
	char *commit;		/* JSON Pointer to the commit, or NULL */
	char *command;		/* JSON Pointer to the recorded command, or NULL */
	char *schema;		/* a JSON Schema to validate with, or NULL */
	unsigned fill;		/* enum layout_fill_field: what backfill
				   fills */
	struct layout_input *inputs;
	size_t nr, alloc;
	long line;		/* where the file defines it */
};

/*
 * The record file is, in layout lay: the JSON file is read and each
 * input's path and hash found by the layout's pointers ('*' pairs the
 * members of a list or object: the path and the hash of the same
 * member), a bare-hex hash spelt "sha256:<hex>" as verify compares
 * hashes.  out must be RECORD_INIT.  Returns 0, or -1 with the reason in
 * err (an unreadable or invalid file, a pointer that finds no path, a
 * path with no hash, a hash that is not a SHA-256).
 */
int record_from_layout(struct record *out, const struct layout *lay,
		       const char *file, struct strbuf *err);

/* record_from_layout() of the record's text (from a tree, the index). */
int record_from_layout_text(struct record *out, const struct layout *lay,
			    const char *file, const char *text, size_t len,
			    struct strbuf *err);

/*
 * A sidecar pattern names a record's JSON from the record's path: it
 * starts with "{dir}/" (the record's directory: a sidecar lies beside or
 * below its record) and names the file with "{stem}" (the record's file
 * name without its last extension) or "{name}" (the whole file name),
 * e.g. "{dir}/{stem}.run.json".  No other placeholder, no ".."
 * component, not the record itself, and not a name ending in
 * ".replay.json" (AHD's sidecars, which verify reads as AHD's).  Returns 0, or -1 with why in
 * err.
 */
int layout_sidecar_check(const char *pattern, struct strbuf *err);

/*
 * Append the sidecar of the record at path (as given: its directory is
 * kept as spelt) under lay's pattern, which layout_sidecar_check()
 * accepted.
 */
void layout_sidecar_for(struct strbuf *out, const struct layout *lay,
			const char *path);

/*
 * The one derived block a layout's report can carry ("block: inputs",
 * for a layout with sidecars): what the record pins, each value a JSON
 * string (which YAML reads as the same string), hashes as verify
 * compares them, inputs in the record's order:
 *
 *	```yaml ahd-replay-record
 *	layout: "reports"
 *	commit: "<40 hex>"		(null when the record names none)
 *	inputs:
 *	  - name: "config"
 *	    path: "configs/a.yaml"
 *	    hash: "sha256:<64 hex>"
 *	```
 *
 * The JSON is authoritative: verify warns where the report's block (its
 * first line "```yaml ahd-replay-record" through the next "```" line)
 * differs from what the sidecar renders.
 */
#define LAYOUT_BLOCK_INPUTS "inputs"
#define LAYOUT_BLOCK_INFO "```yaml ahd-replay-record"

/* Append the block of rec, a record of lay (no final line break). */
void layout_render_block(struct strbuf *out, const struct layout *lay,
			 const struct record *rec);

/*
 * Is the file at path (relative or not) AHD's sidecar, "*.replay.json"?
 * Such a file is never a layout's record, whatever a records glob says:
 * verify reads it as AHD's, and a layout matching it would read it
 * through the layout's own pointers instead (any subset of what it
 * pins, so an .ahd-replay.yml could make a drifted one "intact").
 */
int layout_is_ahd_sidecar(const char *path);

/*
 * Does AHD's sidecar also describe report, which lay (a layout with a
 * sidecar pattern) claims?  Then a command given the report cannot tell
 * which record it means: sign and replay refuse to guess (verify checks
 * both).  Returns 1 with a sentence for the user in why, else 0.
 */
int layout_report_ambiguous(const struct layout *lay, const char *report,
			    struct strbuf *why);

/* render_find_block() for the block above (record/render.h). */
int layout_find_block(const char *text, size_t len, size_t *begin,
		      size_t *end);

/*
 * render_compare_block() for rec, a record of lay, whose report is at
 * report: 1 with a warning where the report's block differs.
 */
int layout_compare_block(struct strbuf *warning, long *line,
			 const struct layout *lay, const struct record *rec,
			 const char *report, const char *root,
			 int allow_outside);

/*
 * The command the record at file names at its layout's command pointer,
 * as argv: a JSON array of strings.  Nothing else is taken: a string
 * would need a shell to split it, and replay runs none.  Returns 1 with
 * *out a new array (jval.h), 0 when the layout or the record names no
 * command, or -1 with the reason in err (an unreadable record, a
 * command of another type).
 */
struct jval;
int layout_record_command(struct jval **out, const struct layout *lay,
			  const char *file, struct strbuf *err);

#endif
