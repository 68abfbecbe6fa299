#ifndef LAYOUT_LIST_H
#define LAYOUT_LIST_H

#include <stddef.h>
#include "layout.h"

/*
 * The layout records a verify run covers (sidecar-list.h finds AHD's
 * sidecars): each file as shown and the layout it is a record of.
 */

struct layout_record {
	char *shown;		/* as given, or relative to the current
				   directory when found in a directory */
	const struct layout *layout;	/* borrowed */
	char *sidecar;		/* its sidecar, shown likewise, when the
				   layout gives records one; else NULL */
};

struct layout_list {
	struct layout_record *items;
	size_t nr, alloc;
	int taken;		/* operands taken from argv */
};
#define LAYOUT_LIST_INIT { NULL, 0, 0, 0 }

/*
 * Of the operands, take out of argv (compacting it, *argc updated) each
 * file that a layout's records glob matches, relative to top; search
 * each directory operand for records (leaving it for the sidecar search
 * too), and the whole top when there are no operands or with all.
 * Directories are searched as sidecar-list.c searches them (not .git,
 * node_modules or symlinked directories); what is found is sorted by
 * name.  A record of a layout with sidecars that is found in a
 * directory without its sidecar is no record, as a report without its
 * sidecar is not one (--require-sidecar, or the derived block it
 * carries, says whether it should be); one named as an operand is
 * taken, for verify to say it has none.  Returns 0, or -1 after
 * printing why part of the scope could not be searched (what could be
 * listed still is).
 */
int layout_list_collect(struct layout_list *out, const struct layout *layouts,
			size_t nr, const char *top, int *argc, char **argv,
			int all);
void layout_list_release(struct layout_list *l);

/*
 * The layout whose records glob matches the file at path (as given),
 * relative to top (absolute, symlinks resolved), or NULL.
 */
const struct layout *layout_list_find(const struct layout *layouts,
				      size_t nr, const char *top,
				      const char *path);

#endif
