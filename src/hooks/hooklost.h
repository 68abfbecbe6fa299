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

#endif
