/*
 * Re-rooting counts its work: however long an absolute recorded path, at
 * most PATH_MAX / 2 suffixes of it are tried, each short enough to name
 * a file, and the answer for a path that long is still found.  Counting
 * the candidates instead of timing keeps the test exact under
 * sanitizers.
 */
#include "config.h"
#include "root/inputpath.h"
#include "strbuf.h"
#include "tap.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many suffixes re-rooting tries, and the longest of them. */
static size_t candidates(const char *recorded, const char *root,
			 size_t *longest)
{
	const char *p;
	size_t n = 0;

	*longest = 0;
	for (p = strchr(reroot_start(recorded, root), '/'); p;
	     p = strchr(p + 1, '/')) {
		size_t len = strlen(p + 1);

		n++;
		if (len > *longest)
			*longest = len;
	}
	return n;
}

static void long_path(struct strbuf *sb, size_t components, const char *tail)
{
	size_t i;

	strbuf_addch(sb, '/');
	for (i = 0; i < components; i++)
		strbuf_addstr(sb, "a/");
	strbuf_addstr(sb, tail);
}

int main(void)
{
	struct strbuf path = STRBUF_INIT, file = STRBUF_INIT;
	struct resolved_input in = RESOLVED_INPUT_INIT;
	char tmpl[] = "/tmp/t-inputpath.XXXXXX";
	char *dir, *root;
	size_t n, longest;
	FILE *fp;

	plan_lazy();

	n = candidates("/home/runner/work/ahd/ahd/tokens/x.yml", "/r",
		       &longest);
	is_int(6, (long long)n, "a CI path: every suffix is tried");
	is_int(strlen("work/ahd/ahd/tokens/x.yml") + 7, (long long)longest,
	       "the longest suffix drops only the first component");

	long_path(&path, 200000, "tokens/x.yml");
	n = candidates(path.buf, "/r", &longest);
	ok(n <= PATH_MAX / 2, "400 KB path: %zu suffixes tried, at most %d",
	   n, PATH_MAX / 2);
	ok(strlen("/r") + 1 + longest < PATH_MAX,
	   "each suffix tried fits in PATH_MAX after the root");

	/* The answer is still found in a path that long. */
	dir = mkdtemp(tmpl);
	if (!dir) {
		skip("cannot make a temporary directory");
		return 0;
	}
	root = realpath(dir, NULL);
	strbuf_addf(&file, "%s/tokens", root);
	mkdir(file.buf, 0777);
	strbuf_addstr(&file, "/x.yml");
	fp = fopen(file.buf, "w");
	if (fp) {
		fputs("a: 1\n", fp);
		fclose(fp);
	}
	input_resolve(&in, root, path.buf, NULL, 0);
	is_int(INPUT_OK, in.status, "the long path is re-rooted");
	is_string("tokens/x.yml", in.rel.buf, "to the suffix under the root");
	ok(in.rerooted, "and says so");
	resolved_input_release(&in);

	unlink(file.buf);
	strbuf_setlen(&file, file.len - strlen("/x.yml"));
	rmdir(file.buf);
	rmdir(root);
	free(root);
	strbuf_release(&file);
	strbuf_release(&path);
	return 0;
}
