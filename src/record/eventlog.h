#ifndef EVENTLOG_H
#define EVENTLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "hash/digest.h"
#include "json/canon.h"
#include "json/jcsscan.h"
#include "strbuf.h"
#include "json/value.h"

/*
 * The rules of a REPLAY.jsonl event log (shared/seeds/001), checked one
 * line at a time so that a log of any size needs only the memory of its
 * longest line and of the tool calls still open.
 *
 * Each problem goes to the report function with its line number and a
 * short rule name: header, json, canonical, params_hash, pairing,
 * timestamp, total_tool_calls, step_utility, preview, preview_hash,
 * receipt.
 *
 * A line already in canonical form, as a well-kept log's lines are, is
 * checked on a fast path (json/jcsscan.h) that reports exactly what the
 * full path (jansson, then the canonical form printed and compared)
 * reports; any other line takes the full path.
 */

#define EVENTLOG_VERSION 1

/* The default line limit, that of every other JSON input. */
#define EVENTLOG_MAX_LINE (64u << 20)

typedef void (*eventlog_report_fn)(void *data, size_t line, const char *rule,
				   const char *msg);

struct eventlog {
	eventlog_report_fn report;
	void *data;

	size_t lines, problems;
	size_t tool_calls, tool_results;
	size_t unknown_events, unknown_fields;

	/* eventlog_read(): a longer line refuses the log */
	size_t max_line;
	/* the fuzz target compares the fast path with the full path */
	int no_fast_path;

	int have_t;
	int64_t last_sec;
	int hash_failed;	/* OpenSSL could not hash: the line fails */
	long last_nsec;

	/*
	 * ToolCall ids not yet answered by a ToolResult, in [0, open_nr);
	 * up to open_made, closed ones whose buffers are kept for reuse
	 */
	struct strbuf *open_ids;
	size_t open_nr, open_made, open_alloc;

	/* --receipt: its tool_calls array, walked in step with ToolResults */
	struct arena receipt_arena;
	const struct value *receipt_calls;

	struct arena arena;	/* the current line's tree */
	/* on the fast path: the line, and where its members' values lie */
	const char *line;
	const struct jcs_span *spans;
	struct canon_out canon;
	struct canon_out scratch;
	struct digest digest;	/* one context for every hash */
};

void eventlog_init(struct eventlog *el, eventlog_report_fn report,
		   void *data);
void eventlog_release(struct eventlog *el);

/*
 * Compare ToolResult output hashes with the tool_calls[].output_hash of
 * this RECEIPT.json text.  Returns 0, or -1 with a reason in err.
 */
int eventlog_set_receipt(struct eventlog *el, const char *text, size_t len,
			 struct strbuf *err);

/*
 * Check the next line (without its newline).  When canonical is not
 * NULL the line's canonical form and a newline are appended to it.
 * Returns 0 (problems, if any, were reported), or -1 with a reason in
 * err when the log cannot be checked at all: no ReplayHeader first, an
 * unknown replay_version, or, when rewriting, a line that is not JSON.
 */
int eventlog_line(struct eventlog *el, const char *line, size_t len,
		  struct strbuf *canonical, struct strbuf *err);

/* After the last line: an empty log is refused (-1), as above. */
int eventlog_finish(struct eventlog *el, struct strbuf *err);

/*
 * Where the rewritten log goes in chunks: returns 0, or -1 with a reason
 * in err.
 */
typedef int (*eventlog_write_fn)(void *data, const char *buf, size_t len,
				 struct strbuf *err);

/*
 * Read the log from fp in large blocks and check it, every line through
 * eventlog_line() and then eventlog_finish(), in memory bounded by
 * el->max_line: a line longer than that refuses the log.  With write
 * set, the log is rewritten in canonical form and handed to it.  Returns
 * 0, or -1 with a reason in err ("cannot read: ...", "line N: ...").
 */
int eventlog_read(struct eventlog *el, FILE *fp, eventlog_write_fn write,
		  void *data, struct strbuf *err);

/*
 * The whole check of the log file at path, in one streaming pass: with
 * receipt (a RECEIPT.json file) eventlog_set_receipt() first; with
 * canonicalize the file is rewritten in canonical form as it is read
 * (atomically, in place: through a symlink, its owner kept) and the
 * rewritten lines are checked.  Problems go to the report function.
 * Returns 0, or -1 with a reason in err when the log could not be
 * checked (nothing is rewritten then).
 */
int eventlog_check_file(struct eventlog *el, const char *path,
			const char *receipt, int canonicalize,
			struct strbuf *err);

#endif
