#ifndef HOOKLOST_H
#define HOOKLOST_H

#include "hookcheck.h"

/*
 * Lost coverage: a change after which a report or record that was
 * checked is checked no more, while the file stays.  Nothing would
 * report it later (verify finds nothing to verify), so the hooks refuse
 * it as they refuse drift.
 */

/* What the checks read: the two states and what changed between them. */
struct hook_lost {
	const struct hook_state *base, *next;
	char *const *changed;	/* the changed paths, sorted (strcmp) */
	size_t nr_changed;
	struct hook_check_result *res;
};

/*
 * AHD's sidecars ("*.replay.json") that the change removes while the
 * report stays with its ahd-replay block: each is a problem in res.
 */
void hook_lost_sidecars(const struct hook_lost *l);

struct layout;

/*
 * The report at report, a record of a layout with sidecars (lay, the
 * layout of next's .ahd-replay.yml that takes it, or of base's when the
 * change removes that), has no sidecar at sidecar in next.  When the
 * report stays with the layout's derived block (layout.h) and base had
 * its sidecar (where was, base's layout of it, put it: NULL when base
 * took it by no layout with sidecars), its coverage is lost here, which
 * verify --all calls a missing sidecar: a problem in res.
 */
void hook_lost_layout_sidecar(const struct hook_lost *l,
			      const struct layout *was, const char *report,
			      const char *sidecar);

/*
 * The file at record, which next holds, was a record of base's layout
 * was and is a record of no layout of next's .ahd-replay.yml: every
 * later check would pass over it.  A problem in res, unless base had no
 * such file (a file new here was never covered).
 */
void hook_lost_record(const struct hook_lost *l, const struct layout *was,
		      const char *record);

#endif
