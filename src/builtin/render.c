/*
 * ahd-replay render: print a sidecar's markdown block as the reference
 * renders it.
 */
#include "config.h"
#include "builtin.h"
#include "parse-options.h"
#include "render.h"
#include "sidecar.h"
#include "usage.h"

#include <stdio.h>

static const char render_usage_text[] =
	"Prints the ```yaml ahd-replay block and the replay command exactly as\n"
	"the reference's renderReplayMarkdown() writes them into a report (no\n"
	"final newline).  A report path names its sidecar.\n";

int cmd_render(int argc, char **argv)
{
	struct sidecar sc = SIDECAR_INIT;
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	int status = 2;
	const struct parse_opt options[] = { OPT_END() };
	const struct cmd_usage usage = {
		"render", OPERANDS("<sidecar>"), options, render_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc != 1)
		usage_msg_opt(&usage, argc ?
			      "render takes exactly one sidecar" :
			      "no sidecar given");
	sidecar_path_for(&path, argv[0]);
	if (sidecar_load(&sc, path.buf, &err)) {
		error("%s: %s", path.buf, err.buf);
		goto out;
	}
	render_markdown(&out, &sc);
	fwrite(out.buf, 1, out.len, stdout);
	status = 0;
out:
	sidecar_release(&sc);
	strbuf_release(&path);
	strbuf_release(&out);
	strbuf_release(&err);
	return finish_stdout(status);
}
