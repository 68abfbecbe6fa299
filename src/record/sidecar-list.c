/*
 * Which sidecars a run covers (see sidecar-list.h).
 */
#include "config.h"
#include "sidecar-list.h"
#include "git/repo.h"
#include "sidecar.h"
#include "sidecar-search.h"
#include "strutil.h"
#include "usage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One more pair in out (which takes the strings). */
static void add_pair(struct sidecar_list *out, char *sidecar, char *report,
		     int sig_absent)
{
	ALLOC_GROW(out->sidecars.items, out->sidecars.nr + 1,
		   out->sidecars.alloc);
	ALLOC_GROW(out->sig_absent, out->sidecars.nr + 1, out->sig_alloc);
	out->sig_absent[out->sidecars.nr] = !!sig_absent;
	out->sidecars.items[out->sidecars.nr++] = sidecar;
	ALLOC_GROW(out->reports.items, out->reports.nr + 1,
		   out->reports.alloc);
	out->reports.items[out->reports.nr++] = report;
}

/* What a search found, in name order, into out (which takes the strings). */
static void add_found(struct sidecar_list *out, struct sidecar_search *found)
{
	size_t k;

	for (k = 0; k < found->nr; k++)
		add_pair(out, found->v[k].sidecar, found->v[k].report,
			 found->v[k].sig_absent);
	free(found->v);
	found->v = NULL;
	found->nr = found->alloc = 0;
	path_list_take(&out->errors, &found->errors);
	path_list_take(&out->unpaired, &found->unpaired);
	sidecar_search_release(found);
}

/* The repository's top (or the current directory) for --all. */
static void default_scope(struct strbuf *out)
{
	struct strbuf wt = STRBUF_INIT;
	char *rcwd;

	if (repo_worktree_of(&wt, ".")) {
		rcwd = realpath(".", NULL);
		/* Show paths relative to the current directory when we can. */
		if (rcwd && !strcmp(wt.buf, rcwd))
			strbuf_addstr(out, ".");
		else
			strbuf_addbuf(out, &wt);
		free(rcwd);
	} else
		strbuf_addstr(out, ".");
	strbuf_release(&wt);
}

/*
 * Turn operands into (report shown, sidecar) pairs.  Without operands,
 * or with --all, every sidecar of the repository: the --root directory
 * when given, else the work tree around the current directory.
 */
int sidecar_list_collect(struct sidecar_list *out, int argc, char **argv,
			 int all, const char *root, size_t threads)
{
	struct strbuf scope = STRBUF_INIT;
	int i, ret = 0;

	if (!argc || all) {
		struct sidecar_search found = SIDECAR_SEARCH_INIT;

		if (root)
			strbuf_addstr(&scope, root);
		else {
			default_scope(&scope);
			out->top = xstrdup(scope.buf);
		}
		if (access(scope.buf, F_OK))
			ret = path_list_addf(&out->errors,
					     "cannot read '%s': %s",
					     scope.buf, strerror(errno));
		else if (sidecar_search(&found, scope.buf, !!out->top,
					threads))
			ret = -1;
		add_found(out, &found);
	}
	for (i = 0; i < argc; i++) {
		struct stat st;
		struct strbuf sc = STRBUF_INIT;

		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			struct sidecar_search found = SIDECAR_SEARCH_INIT;

			if (sidecar_search(&found, argv[i], 0, threads))
				ret = -1;
			add_found(out, &found);
			continue;
		}
		sidecar_path_for(&sc, argv[i]);
		add_pair(out, strbuf_detach(&sc, NULL), xstrdup(argv[i]), 0);
	}
	strbuf_release(&scope);
	return ret;
}

void sidecar_list_release(struct sidecar_list *l)
{
	path_list_clear(&l->reports);
	path_list_clear(&l->sidecars);
	path_list_clear(&l->errors);
	path_list_clear(&l->unpaired);
	free(l->top);
	l->top = NULL;
	free(l->sig_absent);
	l->sig_absent = NULL;
	l->sig_alloc = 0;
}
