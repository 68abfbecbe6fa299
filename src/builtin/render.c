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

#include <getopt.h>
#include <stdio.h>

const char render_usage[] =
	"usage: ahd-replay render <sidecar>\n"
	"\n"
	"Prints the ```yaml ahd-replay block and the replay command exactly as\n"
	"the reference's renderReplayMarkdown() writes them into a report (no\n"
	"final newline).  A report path names its sidecar.\n";

static const struct option render_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_render(int argc, char **argv)
{
	struct sidecar sc = SIDECAR_INIT;
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	int c, status = 2;

	reset_getopt();
	while ((c = getopt_long(argc, argv, "+h", render_options, NULL)) != -1) {
		if (c == 'h')
			usage_help(render_usage);
		usage_error(render_usage, "unknown option '%s'",
			    argv[optind - 1]);
	}
	if (optind != argc - 1)
		usage_error(render_usage, optind >= argc ? "no sidecar given" :
			    "render takes exactly one sidecar");
	sidecar_path_for(&path, argv[optind]);
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
