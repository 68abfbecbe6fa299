#ifndef HOOKS_H
#define HOOKS_H

#include "strbuf.h"

/*
 * The git hooks that install-hooks writes: the shim templates and what a
 * hook file is (hooksdir.h finds the directory).
 *
 * The templates live here, as C text, and nowhere else: the files in
 * hooks/ are renderings of them, with HOOK_BIN_PLACEHOLDER for the
 * binary, and t/t3000 checks that they are byte for byte what
 * `ahd-replay install-hooks --print <hook>` prints.
 *
 * A shim is POSIX sh.  Its second line is the marker, "# ahd-replay
 * hook: <type>, template <n>".  It runs <type>.ahd-replay-prev (a hook
 * install-hooks moved aside) first, when that exists and is executable,
 * with the same arguments and, for pre-push, the same bytes on stdin.
 * Template 1 ran it by that name; template 2 runs it as <type> in a
 * directory beside the hooks directory (in its parent, else in TMPDIR)
 * that holds a symbolic link to each entry of the hooks directory, the
 * hooks moved aside under their own names again, and is removed
 * afterwards: a hook that finds its helpers, the hooks it dispatches to
 * or its own name from $0 finds what it found before install.  Then,
 * unless AHD_REPLAY_SKIP=1,
 * `exec <binary> hook <type> "$@"`, where the binary is the path of the
 * ahd-replay that installed it, else ahd-replay on PATH; with neither it
 * fails (exit 1) and says how to bypass or remove the hook.  While the
 * previous hook runs, AHD_REPLAY_HOOK_ACTIVE is "<type>:<physical
 * current directory>"; a shim (or `ahd-replay hook`) that finds that
 * value is running inside the chain of another and exits 0 at once, so
 * the check runs once however the hooks are layered.
 */

/* The newest template version this binary writes. */
#define HOOK_TEMPLATE_VERSION 2

#define HOOK_MARKER "# ahd-replay hook: "
#define HOOK_PREV_SUFFIX ".ahd-replay-prev"
#define HOOK_BIN_PLACEHOLDER "@AHD_REPLAY@"

/*
 * 1 when AHD_REPLAY_HOOK_ACTIVE says that a shim of ours for hook `type`
 * is running its previous hook in this directory, so that this run is
 * inside that chain and the shim checks afterwards: `ahd-replay hook`
 * then exits 0 without checking.  Else 0.
 */
int hook_chain_active(const char *type);

/* The hook types we have shims for, NULL-terminated. */
#define HOOK_TYPES_NR 3
extern const char *const hook_types[HOOK_TYPES_NR + 1];

/* 1 if name is one of hook_types, else 0. */
int hook_type_known(const char *name);

/*
 * Append the shim for hook `type` in template `version` (1 to
 * HOOK_TEMPLATE_VERSION) running `bin`.  Returns 0, or -1 with a reason
 * in err (an unknown type or version, a path with a newline).
 */
int hook_render(struct strbuf *out, const char *type, int version,
		const char *bin, struct strbuf *err);

/*
 * The absolute path of the running binary, as it was started (symbolic
 * links kept, so that an upgrade behind a link such as
 * /usr/local/bin/ahd-replay keeps working).  Returns 0, or -1 with a
 * reason in err.
 */
int hook_self_path(struct strbuf *out, struct strbuf *err);

enum hook_kind {
	HOOK_MISSING,
	HOOK_OURS,		/* exactly one of our templates */
	HOOK_OURS_NEWER,	/* our marker, a template newer than we know */
	HOOK_OURS_EDITED,	/* our marker, but none of our templates */
	HOOK_FOREIGN,		/* a file or symbolic link that is not ours */
	HOOK_NOT_FILE,		/* a directory, a FIFO, ... */
};

enum hook_manager {
	MANAGER_NONE,
	MANAGER_PRE_COMMIT,	/* the pre-commit framework, pre-commit.com */
	MANAGER_HUSKY,
	MANAGER_LEFTHOOK,
};

struct hook_file {
	enum hook_kind kind;
	enum hook_manager manager;	/* for HOOK_FOREIGN */
	int version;		/* template version, for ours */
	int symlink;
	int executable;		/* git would run it: a file with x permission */
	struct strbuf content;	/* regular files (up to a size limit) */
	struct strbuf bin;	/* the binary an exact shim of ours runs */
};
#define HOOK_FILE_INIT { HOOK_MISSING, MANAGER_NONE, 0, 0, 0, STRBUF_INIT, \
			 STRBUF_INIT }

/*
 * Look at the hook file at path, which git runs as hook `type`.  A
 * regular file is ours when it is one of our templates for that type
 * (any version we know, any binary path) byte for byte.  Symbolic links
 * are never ours.  Returns 0, or -1 with a reason in err when the file
 * exists but cannot be read.
 */
int hook_file_read(struct hook_file *hf, const char *path, const char *type,
		   struct strbuf *err);
void hook_file_release(struct hook_file *hf);

/* "the pre-commit framework", "husky", "lefthook", or NULL. */
const char *hook_manager_name(enum hook_manager m);

/*
 * Replace path with len bytes of buf, mode 0755 less the umask,
 * atomically (a temporary file beside it, flushed, renamed over it).
 * Nothing is left behind on failure.  Returns 0 or -1 with a reason in
 * err.
 */
int hook_write(const char *path, const char *buf, size_t len,
	       struct strbuf *err);

/*
 * Search PATH for an executable regular file named name, as the shell's
 * `command -v` does.  Returns 1 with the path in out, or 0.
 */
int hook_find_on_path(struct strbuf *out, const char *name);

#endif
