#ifndef SIDECARDIFF_H
#define SIDECARDIFF_H

#include "root/inputpath.h"
#include "record.h"
#include "sidecar.h"
#include "strbuf.h"
#include "json/jval.h"

/*
 * Two sidecars compared field by field: each difference named by its
 * path ("sampling.n", "models[0].id") and marked stable (the same
 * command must reproduce it) or volatile, in the order the reference
 * writes the fields.
 */

struct diff_side {
	struct strbuf name;	/* as shown: the operand, or <rev>:<path> */
	struct sidecar sc;
	struct record rec;	/* the inputs sc pins (diff_side_resolve()) */
	/*
	 * Per input of rec: its path relative to the root (empty: compared
	 * as recorded), and whether an absolute path was re-rooted
	 */
	struct strbuf *rel;
	int *rerooted;
};

struct diff_item {
	char *field;
	int stable;
	struct jval *a, *b;		/* borrowed from the sidecars; NULL: absent */
};

struct sidecar_diff {
	struct diff_side *a, *b;
	struct diff_item *items;
	size_t nr, alloc;
	size_t nr_stable, nr_volatile;
	struct strbuf notes;	/* one per line */
};

void diff_side_init(struct diff_side *s);
void diff_side_release(struct diff_side *s);

/*
 * Re-root the paths of the inputs s's sidecar pins (record.h: the token
 * and the brief) against root (tree: NULL for the work tree, else a
 * commit's); once per side, after its sidecar is loaded.  Nothing is
 * read: a path that cannot be resolved (gone, outside the root,
 * ambiguous) is compared as recorded.
 */
void diff_side_resolve(struct diff_side *s, const char *root,
		       const struct input_tree *tree);

/*
 * Load a and b (diff_side_init()ed) from the sidecars of two reports or
 * sidecars, each inside its root (root: --root, or NULL to find it),
 * their input paths re-rooted in the work tree.  Both are loaded even
 * when the first fails; each failure is printed.  Returns 0, or -1 when
 * either could not be loaded.
 */
int diff_sides_load_files(struct diff_side *a, struct diff_side *b,
			  const char *file_a, const char *file_b,
			  const char *root, int allow_outside);

/*
 * The same for the sidecar of report as the commits rev_a and rev_b
 * have it (diff --at), named "<rev>:<path in the work tree>", its input
 * paths re-rooted in each commit's tree.  The report's directory must
 * be in a git work tree, and its root too.
 */
int diff_sides_load_at(struct diff_side *a, struct diff_side *b,
		       const char *rev_a, const char *rev_b,
		       const char *report, const char *root);

void sidecar_diff_init(struct sidecar_diff *d);
/* Fill d with the differences between a and b (both loaded). */
void sidecar_diff_compute(struct sidecar_diff *d, struct diff_side *a,
			  struct diff_side *b);
void sidecar_diff_release(struct sidecar_diff *d);

#endif
