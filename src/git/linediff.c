/*
 * Texts diffed by line through libgit2 (see linediff.h).
 */
#include "config.h"
#include "linediff.h"
#include "repo.h"

#include <git2.h>

/* One line of the diff into out, or into the count past the bound. */
static void add_line(struct strbuf *out, size_t *shown, size_t *more,
		     size_t max, const git_diff_line *l)
{
	size_t len = l->content_len;

	if (*shown >= max) {
		(*more)++;
		return;
	}
	(*shown)++;
	switch (l->origin) {
	case GIT_DIFF_LINE_ADDITION:
	case GIT_DIFF_LINE_DELETION:
	case GIT_DIFF_LINE_CONTEXT:
		if (len && l->content[len - 1] == '\n')
			len--;
		strbuf_addch(out, l->origin);
		strbuf_add(out, l->content, len);
		strbuf_addch(out, '\n');
		break;
	default:
		/* the end-of-file markers: the line before had no newline */
		strbuf_addstr(out, "\\ No newline at end of file\n");
	}
}

int linediff_unified(struct strbuf *out, size_t *more, size_t *changed,
		     const char *a, size_t alen, const char *b, size_t blen,
		     unsigned context, size_t max_lines, struct strbuf *err)
{
	git_diff_options opts;
	git_patch *patch = NULL;
	size_t h, l, nr_lines, ctx, adds, dels, shown = 0;
	int ret = -1;

	*more = *changed = 0;
	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) < 0)
		goto error;
	/* a NUL makes libgit2 call a text binary; these are text */
	opts.flags = GIT_DIFF_FORCE_TEXT;
	opts.context_lines = context;
	if (git_patch_from_buffers(&patch, a, alen, NULL, b, blen, NULL,
				   &opts) < 0 ||
	    git_patch_line_stats(&ctx, &adds, &dels, patch) < 0)
		goto error;
	*changed = adds + dels;
	for (h = 0; h < git_patch_num_hunks(patch); h++) {
		const git_diff_hunk *hunk;

		if (git_patch_get_hunk(&hunk, &nr_lines, patch, h) < 0)
			goto error;
		if (shown < max_lines) {
			strbuf_addf(out, "@@ -%d,%d +%d,%d @@\n", hunk->old_start,
				    hunk->old_lines, hunk->new_start,
				    hunk->new_lines);
			shown++;
		} else
			(*more)++;
		for (l = 0; l < nr_lines; l++) {
			const git_diff_line *line;

			if (git_patch_get_line_in_hunk(&line, patch, h, l) < 0)
				goto error;
			add_line(out, &shown, more, max_lines, line);
		}
	}
	ret = 0;
	goto out;
error:
	strbuf_addf(err, "cannot diff: %s", lg2_message());
out:
	git_patch_free(patch);
	return ret;
}
