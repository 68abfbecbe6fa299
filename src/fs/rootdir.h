#ifndef FS_ROOTDIR_H
#define FS_ROOTDIR_H

#include <sys/stat.h>
#include "strbuf.h"

/*
 * Files opened beneath a directory by descriptor, so that the kernel,
 * not a string comparison after the fact, keeps every open inside it.
 *
 * The root is opened once (O_PATH|O_DIRECTORY).  A path beneath it is
 * opened with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) where the
 * kernel has it (Linux 5.6); where it does not (ENOSYS: an older
 * kernel, a seccomp filter, another system), or when the environment
 * sets AHD_REPLAY_NO_OPENAT2 (the tests run both ways), the path is
 * walked here one component at a time with O_NOFOLLOW from directory
 * descriptors, following each symlink by hand.  Both give the same
 * answers:
 *
 *  - ".." and relative symlinks are followed while they stay beneath the
 *    root; one that leaves it fails with EXDEV, unread.
 *  - An absolute symlink is followed when its target names the root by
 *    its path as opened (root_find() gives a symlink-free one) and goes on
 *    beneath it; the rest is walked beneath the root, never from "/".
 *    Any other absolute target leaves the root: EXDEV.  (The kernel
 *    refuses every absolute link under RESOLVE_BENEATH; such a path is
 *    walked here instead.)
 *  - More than ROOTDIR_MAX_LINKS symlinks on the way (a loop, a long
 *    chain) fail with ELOOP, as realpath() and the kernel count.
 *  - A FIFO or device is opened without blocking (O_NONBLOCK) and handed
 *    back for the caller to refuse by its st_mode; a directory is opened
 *    as itself.
 */

#define ROOTDIR_MAX_LINKS 40
#define ROOTDIR_CACHE 16

/* Set to anything but "" or "0", this turns openat2() off. */
#define ROOTDIR_NO_OPENAT2_ENV "AHD_REPLAY_NO_OPENAT2"

struct rootdir_cached {
	char *rel;	/* a directory's real path below the root, or NULL */
	int fd;
};

struct rootdir {
	int fd;			/* the root (O_PATH), -1 when not open */
	int walk;		/* 1: no openat2(), walk every path here */
	struct strbuf path;	/* the root as opened */
	/* directories the walk opened, for the next walks (reused in turn) */
	struct rootdir_cached dirs[ROOTDIR_CACHE];
	size_t next;
};
#define ROOTDIR_INIT { -1, 0, STRBUF_INIT, { { NULL, -1 } }, 0 }

/*
 * Open the directory path (absolute) as the root.  Returns 0, or -1 with
 * errno set and a reason in err ("cannot open '<path>': ...").  Release
 * with rootdir_release() either way.
 */
int rootdir_open(struct rootdir *rd, const char *path, struct strbuf *err);

/* Close the root and the cached directories; rd is ROOTDIR_INIT again. */
void rootdir_release(struct rootdir *rd);

enum rootdir_flags {
	/* Refuse (EXDEV) a file whose real path passes a .git directory. */
	ROOTDIR_NO_GIT_DIR = (1 << 0),
};

/*
 * Open rel, a path relative to the root ("" or "." is the root itself),
 * for reading beneath the root.  Returns a descriptor the caller closes
 * (O_RDONLY|O_NONBLOCK|O_CLOEXEC) with *st filled by one fstat(), and
 * when real is not NULL the file's real path below the root appended to
 * it (no symlink, no "..", "" for the root).  On failure returns -1 with
 * errno: EXDEV when the path leaves the root (or, with
 * ROOTDIR_NO_GIT_DIR, ends in a .git directory), ELOOP for too many
 * symlinks, or what open() says (ENOENT, ENOTDIR, EACCES, ...).
 */
int rootdir_openat(struct rootdir *rd, const char *rel, unsigned flags,
		   struct stat *st, struct strbuf *real);

#endif
