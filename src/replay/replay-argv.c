/*
 * The recorded command mapped onto the worktree, and running it.
 *
 * argv names paths on the machine that recorded the run: the checkout
 * (/home/runner/work/<repo>/<repo>/bin/ahd.js) and the interpreter
 * (/opt/hostedtoolcache/node/<version>/x64/bin/node).  Paths under the
 * recorded checkout become relative to the root, where the command
 * runs; an interpreter outside it becomes its name, found on PATH when
 * run.  The result names no path of this machine, so two replays of
 * one report give the same receipt.
 */
#include "config.h"
#include "replay-int.h"
#include "root/inputpath.h"
#include "json/jsonout.h"
#include "record/render.h"
#include "usage.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PREFIXES 8

struct prefixes {
	char *p[MAX_PREFIXES];	/* recorded checkout roots, ending in '/' */
	int nr;
};

static void prefix_add(struct prefixes *px, const char *s, size_t len)
{
	int i;

	for (i = 0; i < px->nr; i++)
		if (strlen(px->p[i]) == len && !strncmp(px->p[i], s, len))
			return;
	if (px->nr < MAX_PREFIXES) {
		char *copy = xmalloc(len + 1);

		memcpy(copy, s, len);
		copy[len] = '\0';
		px->p[px->nr++] = copy;
	}
}

/*
 * If an absolute recorded path re-roots onto a file of the worktree (the
 * rule verify uses: its longest existing suffix), the part before that
 * suffix was the recording machine's root.
 */
static void learn_prefix(struct prefixes *px, const char *root,
			 const char *recorded)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	size_t n = strlen(recorded);

	if (recorded[0] != '/')
		return;
	input_resolve(&in, root, recorded, NULL, 0);
	if (in.status == INPUT_OK && in.rerooted && in.rel.len < n &&
	    recorded[n - in.rel.len - 1] == '/' &&
	    !strcmp(recorded + n - in.rel.len, in.rel.buf))
		prefix_add(px, recorded, n - in.rel.len);
	resolved_input_release(&in);
}

/* s with a recorded root replaced; 1 when one matched. */
static int strip_prefix(struct strbuf *out, const struct prefixes *px,
			const char *s)
{
	int i;

	for (i = 0; i < px->nr; i++) {
		size_t n = strlen(px->p[i]);

		if (!strncmp(s, px->p[i], n)) {
			strbuf_addstr(out, s[n] ? s + n : ".");
			return 1;
		}
		if (!strncmp(s, px->p[i], n - 1) && !s[n - 1]) {
			strbuf_addstr(out, ".");
			return 1;
		}
	}
	return 0;
}

static struct jval *map_arg(const struct prefixes *px, const char *arg, int first)
{
	struct strbuf out = STRBUF_INIT;
	const char *eq = arg[0] == '-' ? strchr(arg, '=') : NULL;
	struct jval *v;

	if (eq && eq[1] == '/') {
		strbuf_add(&out, arg, (size_t)(eq + 1 - arg));
		if (!strip_prefix(&out, px, eq + 1)) {
			strbuf_reset(&out);
			strbuf_addstr(&out, arg);
		}
	} else if (arg[0] == '/' && strip_prefix(&out, px, arg)) {
		/* execvp() searches PATH for a name without a slash */
		if (first && !strchr(out.buf, '/')) {
			strbuf_reset(&out);
			strbuf_addstr(&out, "./");
			strip_prefix(&out, px, arg);
		}
	} else if (first && arg[0] == '/') {
		const char *base = strrchr(arg, '/') + 1;

		strbuf_addstr(&out, *base ? base : arg);
	} else
		strbuf_addstr(&out, arg);
	v = jsonout_text(out.buf);
	strbuf_release(&out);
	return v;
}

int replay_reroot_argv(struct replay *rp, struct strbuf *err)
{
	const struct jval *argv = rp->layout ? rp->recorded_argv :
		jval_object_get(rp->sc.json, "argv");
	struct prefixes px = { { NULL }, 0 };
	const struct jval *arg;
	size_t i;
	int j;

	(void)err;
	rp->argv = jval_array();
	if (!rp->argv)
		die("out of memory");
	if (!jval_is_array(argv))
		return 0;
	/* the inputs' recorded paths: AHD's token and brief, in order */
	for (i = 0; i < rp->rec.nr; i++)
		learn_prefix(&px, rp->root.buf, rp->rec.inputs[i].path);
	jval_array_foreach(argv, i, arg)
		if (jval_is_string(arg))
			learn_prefix(&px, rp->root.buf, jval_string_value(arg));
	jval_array_foreach(argv, i, arg) {
		const char *s = jval_string_value(arg);
		struct jval *v = map_arg(&px, s ? s : "", !i);

		if (s && i && s[0] == '/' &&
		    !strcmp(s, jval_string_value(v))) {
			strbuf_addf(&rp->notes, "note: argv[%zu] ", i);
			strbuf_add_printable(&rp->notes, s);
			strbuf_addstr(&rp->notes, " is a path on the recording "
				      "machine with no counterpart in the "
				      "worktree (a build output? build first)\n");
		}
		if (jval_array_append_new(rp->argv, v))
			die("out of memory");
	}
	for (j = 0; j < px.nr; j++)
		free(px.p[j]);
	return 0;
}

void replay_command_text(struct strbuf *out, const struct replay *rp)
{
	const struct jval *arg;
	size_t i;

	jval_array_foreach(rp->argv, i, arg) {
		if (i)
			strbuf_addch(out, ' ');
		render_shell_quote(out, jval_string_value(arg));
	}
}

size_t replay_argv_count(const struct replay *rp)
{
	return jval_array_size(rp->argv);
}

const char *replay_argv_at(const struct replay *rp, size_t i)
{
	const char *s = jval_string_value(jval_array_get(rp->argv, i));

	return s ? s : "";
}

int replay_run(const struct replay *rp, const char *program,
	       char *const *argv, struct strbuf *err)
{
	struct strbuf quoted = STRBUF_INIT, name = STRBUF_INIT;
	int status, ret = -1;
	pid_t pid;

	/* argv[0] may come from the sidecar: never raw to a terminal */
	render_shell_quote(&quoted, program);
	strbuf_add_printable(&name, quoted.buf);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot fork: %s", strerror(errno));
		goto out;
	}
	if (!pid) {
		if (chdir(rp->root.buf) < 0) {
			child_error("cannot enter %s: %s", rp->root.buf,
				    strerror(errno));
			_exit(127);
		}
		/* the file resolved before the chdir: no PATH search here */
		execv(program, argv);
		child_error("cannot run %s: %s", name.buf, strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			strbuf_addf(err, "cannot wait for %s: %s", name.buf,
				    strerror(errno));
			goto out;
		}
	ret = WIFEXITED(status) ? WEXITSTATUS(status) :
	      128 + WTERMSIG(status);
out:
	strbuf_release(&quoted);
	strbuf_release(&name);
	return ret;
}
