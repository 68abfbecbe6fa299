#ifndef FS_DIRLIST_H
#define FS_DIRLIST_H

#include <stddef.h>

/*
 * A directory read once, for the searches that walk a tree (the sidecar
 * search, the search for reports that must have one): each entry's type
 * comes from the listing itself (readdir()'s d_type), and whether a
 * sibling exists is answered from the listing, so a search costs a few
 * system calls per directory rather than two or three per file.
 *
 * Where the listing cannot tell (a file system without d_type, a
 * symlink, a directory that can be listed but not searched) the
 * answers come from lstat() and access() as before, so they are the
 * same either way.
 */

struct dirlist_entry {
	char *name;
	unsigned char type;	/* DT_DIR, DT_REG, ...; DT_UNKNOWN: ask */
};

struct dirlist {
	struct dirlist_entry *v;	/* in the order readdir() gave them */
	size_t nr, alloc;
	struct dirlist_entry **sorted;	/* by name, for dirlist_access() */
	char *names;	/* every entry's name, one after another: one block
			   per directory, not one per entry */
	char *path;
	int read_errno;	/* readdir() failed after v: its errno, else 0 */
	int ask;	/* the entries cannot be looked at: every answer is
			   asked of the file system */
};
#define DIRLIST_INIT { NULL, 0, 0, NULL, NULL, NULL, 0, 0 }

/*
 * List the directory path ("." and ".." left out).  Returns 0 (with
 * read_errno set when the listing stopped early: what was read is
 * kept), or -1 with errno when the directory cannot be opened.  Release
 * with dirlist_release() either way.
 */
int dirlist_read(struct dirlist *l, const char *path);
void dirlist_release(struct dirlist *l);

/*
 * access(path/name, F_OK) for a sibling name of the listing: 0, or -1
 * with errno (ENOENT when the listing has no such name).
 */
int dirlist_access(const struct dirlist *l, const char *name);

/*
 * 1 when the listing, whole and to be trusted, has no entry name at all
 * (no file, no symlink, dangling or not), else 0: then only the file
 * system can say.
 */
int dirlist_absent(const struct dirlist *l, const char *name);

#endif
