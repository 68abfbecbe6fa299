/*
 * Test helper: for each path argument, print the commit that last changed
 * it ("<hex> <path>", or "- <path>") as one history walk from HEAD finds
 * it, for comparison with `git log -1 --format=%H -- <path>`.
 * --first prints the oldest commit on the simplified history instead.
 */
#include "config.h"
#include "git/history.h"
#include "git/repo.h"
#include "usage.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	git_repository *repo = NULL;
	git_oid head;
	struct history_answer *answers;
	struct strbuf err = STRBUF_INIT;
	enum history_mode mode = HISTORY_LAST;
	int i = 1, truncated = 0, n;

	if (argc > 1 && !strcmp(argv[1], "--first")) {
		mode = HISTORY_FIRST;
		i++;
	}
	if (repo_library_init(&err))
		die("%s", err.buf);
	if (repo_open_git(&repo, ".", 0, &err) ||
	    git_reference_name_to_id(&head, repo, "HEAD") < 0)
		die("not a repository with a HEAD");
	n = argc - i;
	answers = xcalloc(n ? n : 1, sizeof(*answers));
	if (history_find(repo, &head, (const char *const *)argv + i, n, mode,
			 answers, &truncated, &err))
		die("%s", err.buf);
	for (; i < argc; i++) {
		const struct history_answer *a = &answers[i - (argc - n)];
		char hex[GIT_OID_HEXSZ + 1];

		if (a->found)
			git_oid_tostr(hex, sizeof(hex), &a->commit);
		printf("%s %s\n", a->found ? hex : "-", argv[i]);
	}
	if (truncated)
		printf("# truncated\n");
	free(answers);
	strbuf_release(&err);
	git_repository_free(repo);
	repo_library_shutdown();
	return finish_stdout(0);
}
