#ifndef HOOKSDIR_H
#define HOOKSDIR_H

#include "strbuf.h"

/*
 * Where git runs hooks from, found as `git rev-parse --git-path hooks`
 * finds it, and what kind of place that is.
 */

/* Where core.hooksPath points, relative to the repository. */
enum hooks_where {
	HOOKS_DEFAULT,		/* not set: <common git dir>/hooks */
	HOOKS_GITDIR,		/* inside the git directory */
	HOOKS_WORKTREE,		/* inside the work tree, not tracked */
	HOOKS_TRACKED,		/* a directory with tracked files */
	HOOKS_OUTSIDE,		/* outside the repository */
};

/*
 * A hook defined in git's configuration (git 2.54 and later run them):
 * [hook "<name>"] event = <hook type> (repeatable), command = <shell>.
 */
struct config_hook {
	char *name;
	char *command;		/* the last value, as git takes it; or NULL */
	const char *scope;	/* of the command */
	struct strbuf events;	/* every event value, space-separated */
};

struct hooks_dir {
	struct strbuf path;	/* absolute: where git runs hooks from */
	struct strbuf default_path;	/* <common git dir>/hooks */
	struct strbuf gitdir;	/* absolute, no trailing slash */
	struct strbuf commondir;
	struct strbuf workdir;	/* empty in a bare repository */
	enum hooks_where where;
	int husky;		/* the directory is husky's (husky.sh in it) */
	/* core.hooksPath, when set (where != HOOKS_DEFAULT) */
	struct strbuf value;	/* as written */
	const char *scope;	/* "system", "xdg", "global", "local", "worktree" */
	struct strbuf config_file;	/* the file of that scope */
	int included;		/* found in a file that one includes */
	/* hook.<name>.* from the same files, in the order first seen */
	struct config_hook *config_hooks;
	size_t nr_config_hooks, alloc_config_hooks;
};
#define HOOKS_DIR_INIT { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
			 STRBUF_INIT, HOOKS_DEFAULT, 0, STRBUF_INIT, NULL, \
			 STRBUF_INIT, 0, NULL, 0, 0 }

/*
 * Find the hooks directory of the repository around the current
 * directory as `git rev-parse --git-path hooks` does: the repository is
 * found as git finds it (repo_open(): GIT_DIR, GIT_WORK_TREE,
 * GIT_COMMON_DIR, GIT_CEILING_DIRECTORIES, core.worktree); core.hooksPath
 * is read from the system, XDG, global, local and worktree config files
 * as git reads them (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_SYSTEM,
 * GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME, HOME; includes followed), "~"
 * expanded, a relative value taken from the top of the work tree (the
 * git directory in a bare repository); without it, the common git
 * directory's hooks/, which linked worktrees share (a submodule has its
 * own git directory).  The config-defined hooks (hook.<name>.command and
 * .event) are read from the same files.  The paths are absolute, "." and ".." resolved
 * lexically (the work tree's symlinks too).  Needs repo_library_init().
 * Returns 0, 1 when there is no repository here, or -1 with a reason in
 * err.  Release with hooks_dir_release().
 */
int hooks_dir_resolve(struct hooks_dir *hd, struct strbuf *err);
void hooks_dir_release(struct hooks_dir *hd);

/* "core.hooksPath = '<v>' (<scope> config, <file>)", for messages. */
void hooks_dir_describe(struct strbuf *out, const struct hooks_dir *hd);

#endif
