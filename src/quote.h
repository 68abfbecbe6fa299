#ifndef QUOTE_H
#define QUOTE_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Showing text that came from a file (a sidecar's strings, a recorded
 * path, a file name, a line of a report) to a person, so that it cannot
 * forge output: it stays on one line, moves no cursor, changes no colour
 * and reorders nothing on a terminal.
 *
 * Escaped: C0 controls and DEL as \xHH (\x0a for a line feed, as the
 * messages always wrote them), bytes that are not valid UTF-8 (\xHH each), C1 controls and the invisible or
 * terminal-significant code points (line and paragraph separators, bidi
 * embeddings, overrides and isolates, directional marks, zero-width
 * characters, the BOM, interlinear annotations, noncharacters) as
 * \uHHHH.  Other UTF-8
 * passes as it is, as git shows paths with core.quotePath off.
 *
 * Human-readable output only: JSON output carries the strings as JSON
 * strings, and a rendered markdown block is a document (render.h).
 */

/*
 * Whether s (len bytes) is shown quoted by quote_c_style(): it holds
 * something quote_escape() escapes, a double quote or a backslash.
 */
int quote_needed(const char *s, size_t len);

/*
 * Append s as a field value: as it is when quote_needed() is false,
 * else in double quotes with '"' and '\' backslashed and the rest
 * escaped as quote_escape() does (git's quote_c_style shape).
 */
void quote_c_style(struct strbuf *out, const char *s);
void quote_c_style_n(struct strbuf *out, const char *s, size_t len);

/*
 * Append s with the characters above escaped and no quotes added: text
 * inside a message, which then stays one line.
 */
void quote_escape(struct strbuf *out, const char *s, size_t len);

/*
 * prefix, path (len bytes) quoted (quote_c_style_n()), then ": " and msg
 * escaped when msg is not NULL: a line about a file named by the
 * repository, with a reason that came from it too, stays one line.
 */
void quote_path_line(struct strbuf *out, const char *prefix,
		     const char *path, size_t len, const char *msg);

/*
 * Append at most max code points of s as quote_escape() does, and
 * "..." when s was longer: a bounded excerpt of a file for an error
 * message.
 */
void quote_excerpt(struct strbuf *out, const char *s, size_t len,
		   size_t max);

#endif
