#ifndef REQUIRE_SIDECAR_H
#define REQUIRE_SIDECAR_H

#include "sidecar-list.h"

/*
 * verify --require-sidecar=<glob>: the markdown reports that must have a
 * sidecar.  Globs are matched against paths relative to the top of the
 * work tree (the current directory outside a repository): `*` and `?`
 * within one path component, `[...]` a class, `**` as a whole component
 * any number of components (zero included), `\` quotes the next
 * character.
 */

/* Does path ('/'-separated, relative) match glob?  1 or 0. */
int glob_match_path(const char *glob, const char *path);

/*
 * The globs: those given, else every ahd-replay.requireSidecar value of
 * the git configuration (a multi-valued key).  Returns 0, or -1 after
 * printing an error.
 */
int require_sidecar_globs(struct path_list *out, const char *const *given,
			  size_t n);
void require_sidecar_globs_release(struct path_list *globs);

struct required {
	char *report;		/* shown as sidecar-list.h shows paths */
	const char *glob;	/* the glob that matched, borrowed */
};

struct required_list {
	struct required *items;
	size_t nr, alloc;
};
#define REQUIRED_LIST_INIT { NULL, 0, 0 }

/*
 * The "glob" of a report required for the replay block it carries (a
 * ```yaml ahd-replay line outside fenced code, render.h): such a report
 * was published with a sidecar, so one that has none lost it.
 */
extern const char REQUIRED_BY_BLOCK[];

/*
 * Every *.md file below the top of the work tree (not entering .git,
 * node_modules or symlinked directories) whose sidecar does not exist
 * and that a glob matches or, with blocks, that carries a replay block
 * (its glob then REQUIRED_BY_BLOCK), in name order.  When the sidecar
 * search already walked the top (its top set), its unpaired reports are
 * those files and the tree is not walked again.  Returns 0, or -1 after
 * printing an error (what could be listed still is).
 */
int require_sidecar_missing(struct required_list *out,
			    const struct path_list *globs, int blocks,
			    const struct sidecar_list *searched);
void required_list_release(struct required_list *l);

#endif
