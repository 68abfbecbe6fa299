/*
 * ahd-replay render: print a sidecar's markdown block as the reference
 * renders it.
 */
#include "config.h"
#include "builtin.h"
#include "parse-options.h"
#include "record/render.h"
#include "record/sidecar.h"
#include "usage.h"

#include <stdio.h>

static const char render_usage_text[] =
	"Prints the ```yaml ahd-replay block and the replay command exactly as\n"
	"the reference's renderReplayMarkdown() writes them into a report (no\n"
	"final newline).  A report path names its sidecar.  The block is the\n"
	"report's text, byte for byte as the reference writes it: strings are\n"
	"not escaped for a terminal.\n";

int cmd_render(int argc, char **argv)
{
	struct sidecar sc = SIDECAR_INIT;
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	int status = 2, allow_outside = 0;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "allow-outside-root", &allow_outside, "read a "
			 "sidecar that a symlink leads out of the root"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"render", OPERANDS("<sidecar>"), options, render_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	if (argc != 1)
		usage_msg_opt(&usage, argc ?
			      "render takes exactly one sidecar" :
			      "no sidecar given");
	sidecar_path_for(&path, argv[0]);
	if (sidecar_load_named(&sc, path.buf, allow_outside, &err)) {
		error_path(path.buf, &err);
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
