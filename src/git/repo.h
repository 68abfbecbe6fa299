#ifndef REPO_H
#define REPO_H

#include "strbuf.h"
#include <git2.h>

/*
 * The one place a repository is found and opened, as git's setup.c finds
 * it, and libgit2's set-up and error text.  Every command that reads a
 * repository comes through here, so `verify`, `backfill`, `diff`,
 * `capture` and the hooks agree on which repository and which work tree
 * they look at.
 *
 * libgit2's own GIT_REPOSITORY_OPEN_FROM_ENV refuses GIT_WORK_TREE and
 * GIT_COMMON_DIR and takes the parent of GIT_DIR for the work tree, so
 * the environment is read here instead (never changed):
 *
 *  - GIT_DIR names the git directory (relative to the current
 *    directory); no search.  Else the search goes up from the given
 *    directory, stopping at GIT_CEILING_DIRECTORIES and, unless
 *    GIT_DISCOVERY_ACROSS_FILESYSTEM is true, at a file system boundary.
 *    A `.git` file (a linked worktree, a separate git dir, a submodule)
 *    leads to its git directory.
 *  - The work tree is GIT_WORK_TREE when set; else, with GIT_DIR set,
 *    core.worktree (relative to the git directory), else none when
 *    core.bare is true, else the current directory; else (discovered)
 *    the one libgit2 finds: core.worktree, or the directory holding
 *    `.git`, or none in a bare repository.
 *  - GIT_COMMON_DIR, when set, must name the common directory the git
 *    directory itself names (its `commondir` file, or itself): libgit2
 *    cannot be pointed elsewhere, and reading another repository's refs
 *    and objects than git does would give wrong answers, so a different
 *    one is refused.
 *  - GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
 *    GIT_ALTERNATE_OBJECT_DIRECTORIES and GIT_NAMESPACE apply as libgit2
 *    applies them.
 *  - extensions.worktreeConfig: config.worktree joins the repository's
 *    configuration (libgit2 1.5 does not read it).
 *  - A repository owned by someone else opens only when safe.directory
 *    allows it, as in git; the refusal says how to allow it.
 */

/* libgit2's last error as text; never NULL. */
const char *lg2_message(void);

/*
 * A boolean environment variable as git reads one (git's config
 * booleans); unset is false, a value that is no boolean true.
 */
int repo_env_bool(const char *name);

/*
 * Start and stop libgit2 for the commands that use it (the NEED_GIT
 * flag of main()'s command table).  repo_library_init() also lets
 * repositories with extensions.worktreeConfig open, since repo_open()
 * supplies what that extension asks for.  Returns 0, or -1 with the
 * reason in err.
 */
int repo_library_init(struct strbuf *err);
void repo_library_shutdown(void);

/*
 * Look key up in cfg: 1 and *out (owned by the caller) when set, 0 when
 * not, -1 with the reason in err.
 */
int repo_config_entry(git_config_entry **out, git_config *cfg,
		      const char *key, struct strbuf *err);

/* A boolean setting: 0 or 1 in *out (def when unset), or -1 and err. */
int repo_config_bool(int *out, git_config *cfg, const char *key, int def,
		     struct strbuf *err);

enum repo_config_flags {
	REPO_CONFIG_PATH = (1 << 0),	/* expand ~/ as git does for paths */
	REPO_CONFIG_BOOL = (1 << 1),	/* a boolean: "true" or "false" */
};

/*
 * A setting as git would read it in the current directory: the
 * repository's configuration when one opens there, else the user's and
 * the system's.  Returns 1 with the value appended to out (a relative
 * REPO_CONFIG_PATH value is taken from the work tree's top, so that the
 * setting works from any subdirectory), 0 when unset, -1 with the
 * reason in err.
 */
int repo_config_here(struct strbuf *out, const char *key, unsigned flags,
		     struct strbuf *err);

enum repo_flags {
	/*
	 * Open dir itself, no search, environment ignored: a submodule or
	 * a nested repository, as git does when it looks into one.
	 */
	REPO_EXACT = (1 << 0),
	/*
	 * Do not hand the work tree to libgit2 when it guessed another
	 * (libgit2 1.5 leaks in git_repository_set_workdir()); for callers
	 * that only need the paths below.
	 */
	REPO_PATHS_ONLY = (1 << 1),
};

struct repo {
	git_repository *git;	/* owned */
	struct strbuf gitdir;	/* absolute, no trailing slash */
	struct strbuf commondir;	/* absolute, no trailing slash */
	struct strbuf workdir;	/* absolute, symlinks resolved; "" if bare */
};
#define REPO_INIT { NULL, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT }

/*
 * Open the repository around dir (see above; GIT_DIR, when set, wins
 * over dir).  libgit2's work tree is set to the one git uses unless
 * REPO_PATHS_ONLY.  Returns 0, 1 when there is no repository (out holds
 * nothing), or -1 with a one-line reason in err.  Release with
 * repo_release(), also after a failure.
 */
int repo_open(struct repo *out, const char *dir, unsigned flags,
	      struct strbuf *err);
void repo_release(struct repo *r);

/*
 * Which git directory repo_open(dir, 0 or REPO_PATHS_ONLY) would open,
 * found as it finds it (GIT_DIR when set, else the same search upwards)
 * but without opening it: a key for callers that look up a setting of
 * the repository around many directories.  Returns 0 with the path
 * appended to key, or -1 when the search finds nothing or fails (the
 * caller then asks repo_open() itself).
 */
int repo_discover(struct strbuf *key, const char *dir);

/*
 * A setting of r's own configuration (what git reads in its work tree:
 * system, global, the repository's), its value as written.  Returns 1
 * with the value appended to out, 0 when unset, -1 with the reason in
 * err (a setting given without a value is one).
 */
int repo_config_string(struct strbuf *out, const struct repo *r,
		       const char *key, struct strbuf *err);

/*
 * repo_open() for callers that want the libgit2 handle alone: *out is
 * owned by the caller (git_repository_free()).  err may be NULL when the
 * caller goes on without a repository whatever the reason.  Returns as
 * repo_open().
 */
int repo_open_git(git_repository **out, const char *dir, unsigned flags,
		  struct strbuf *err);

/*
 * repo_config_here() for repository r (opened with repo_open()), read
 * as git reads it there: its local, worktree, global and system files.
 * A relative REPO_CONFIG_PATH value is taken from r's work tree.  The
 * one way code outside src/git/ reads a setting of an open repository.
 */
int repo_config_at(struct strbuf *out, struct repo *r, const char *key,
		   unsigned flags, struct strbuf *err);

/*
 * A boolean setting of r: 0 with *out set (def when unset), or -1 with
 * the reason in err (a value that is no boolean, as git refuses it).
 */
int repo_config_bool_at(int *out, struct repo *r, const char *key, int def,
			struct strbuf *err);

/*
 * Every value of a multi-valued setting of r, in the order git lists
 * them (`git config --get-all`); with r NULL, of the configuration that
 * repo_config_here() reads.  fn is called with each value (NULL for a
 * key written without "=") and returns 0 to go on, non-zero to stop.
 * Returns 0, or -1 with the reason in err.
 */
int repo_config_multivar(struct repo *r, const char *key,
			 int (*fn)(const char *value, void *data), void *data,
			 struct strbuf *err);

/*
 * The top of the work tree that contains dir, or, when dir is the
 * current directory and GIT_DIR or GIT_WORK_TREE names the repository,
 * of that repository's work tree (git runs from its top then): 1 with
 * the path (absolute, symlinks resolved) appended to out.  0 when there
 * is none: outside any repository, in a bare one, outside the work tree
 * the environment names, or a repository that cannot be opened (the
 * caller goes on as outside a repository, as git-less tools would).
 */
int repo_worktree_of(struct strbuf *out, const char *dir);

#endif
