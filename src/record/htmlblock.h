#ifndef RECORD_HTMLBLOCK_H
#define RECORD_HTMLBLOCK_H

/*
 * CommonMark's HTML blocks, line by line, so that what capture takes for
 * a heading or a fence is what a renderer shows as one: a "# Title" or a
 * "```" inside "<!-- ... -->" (or any of the seven kinds of HTML block)
 * is the block's text, not markdown.
 */
struct html_block {
	int kind;	/* 1..7 while inside a block, 0 outside */
};
#define HTML_BLOCK_INIT { 0 }

/*
 * Feed the line [p, e) (no line break) of text outside fenced code;
 * para is set when the line before was paragraph text (a kind 7 block
 * cannot interrupt a paragraph).  Returns 1 when the line belongs to an
 * HTML block (its first and last lines too), 0 when it is markdown.
 */
int html_block_line(struct html_block *h, const char *p, const char *e,
		    int para);

#endif
