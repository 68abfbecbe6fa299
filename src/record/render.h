#ifndef RENDER_H
#define RENDER_H

#include "sidecar.h"
#include "strbuf.h"

/*
 * The markdown view of a sidecar, byte for byte what the reference's
 * renderReplayMarkdown() returns: the ```yaml ahd-replay block, a blank
 * line, "Replay this run:", a blank line and the ```sh block, lines
 * joined by "\n", no final newline.  Appends to out.
 */
void render_markdown(struct strbuf *out, const struct sidecar *sc);

/*
 * One argument as the reference quotes it for a shell: '' when empty,
 * bare when made only of A-Za-z0-9_./:@=,+- and otherwise in single
 * quotes with ' written as '\''.
 */
void render_shell_quote(struct strbuf *out, const char *arg);

/*
 * Find the rendered block in a report: the first line "```yaml ahd-replay"
 * through the closing fence of the ```sh block that follows it (to the end
 * of the text when that is missing), lines ending in LF or CRLF.  Returns
 * 0 and the byte range [*begin, *end) (end at the closing fence's line
 * break), or -1 when the report has no such block.
 */
int render_find_block(const char *text, size_t len, size_t *begin,
		      size_t *end);

/*
 * The replay block capture may replace: a line "```yaml ahd-replay"
 * outside any fenced code block (fences as CommonMark nests them: a
 * ````markdown example holding such a block is the author's text) that
 * starts exactly the block render_markdown() makes, its "Replay this
 * run:" ```sh block included.  Returns 0 and its range [*begin, *end)
 * (end before the closing fence's line break); 1 when the report has no
 * such line; -1 with the reason in err when such a line starts anything
 * else, or when there are two blocks (which one is the run's cannot be
 * told).
 */
int render_find_own_block(const char *text, size_t len, size_t *begin,
			  size_t *end, struct strbuf *err);

/*
 * Append the report with block (render_markdown()'s) in place: over the
 * block render_find_own_block() finds, else after the first level-one
 * heading (outside fenced code and YAML front matter) and a blank line,
 * else at the top; a blank line between the block and what follows.
 * The block takes the report's line breaks (CRLF when its first line
 * ends so).  Returns 0, or -1 with the reason in err and nothing placed.
 */
int render_place_block(struct strbuf *out, const struct strbuf *report,
		       const struct strbuf *block, struct strbuf *err);

/*
 * The report at path's replay block must be what render_markdown()
 * makes of sc; the JSON is authoritative, so a difference is a warning.
 * Returns 1 with a one-line warning appended to warning and the line of
 * the report where they part in *line; 0 when they agree, or when there
 * is no report or no block to compare.  The report is read only inside
 * root unless allow_outside (rootfile.h); one that leads out of it is a
 * warning that quotes nothing of it.  The lines quoted are escaped
 * excerpts (quote.h).
 */
int render_compare_block(struct strbuf *warning, long *line,
			 const char *path, const char *root, int allow_outside,
			 const struct sidecar *sc);

/*
 * A derived block: find() locates it in a report as render_find_block()
 * does (-1: none), render() makes what it must be from data.
 */
struct render_block {
	int (*find)(const char *text, size_t len, size_t *begin,
		    size_t *end);
	void (*render)(struct strbuf *out, const void *data);
};

/*
 * render_compare_block() for any derived block: the block how finds in
 * the report at path must be what how renders of data, compared with LF
 * line breaks (rendered only when the report carries a block).
 */
int render_compare_with(struct strbuf *warning, long *line,
			const char *path, const char *root, int allow_outside,
			const struct render_block *how, const void *data);

/*
 * render_compare_block() of the report's bytes already read into text
 * (its line breaks made LF in place), path only for the warning: for a
 * caller that must know which bytes were compared.
 */
int render_compare_text(struct strbuf *warning, long *line,
			const char *path, struct strbuf *text,
			const struct sidecar *sc);

#endif
