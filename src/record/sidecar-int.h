#ifndef SIDECAR_INT_H
#define SIDECAR_INT_H

/*
 * Shared by sidecar.c (the full reading, through a JSON tree) and
 * sidecar-quick.c (the plain one, straight into the fields): not for use
 * outside src/record/.
 */
#include "sidecar.h"

/* Whether kind is one the reference's schema allows. */
int sidecar_kind_known(const char *kind);

/*
 * Read text (the sidecar's bytes, len of them) into sc, as
 * sidecar_parse() would read it, when it is a sidecar as the reference
 * writes one: well-formed UTF-8 (which utf8_repair() leaves as it is),
 * plain JSON (jsonplain.h), only the known
 * top-level fields (backfilled may be absent), none of them and none of
 * their keys twice, and every check sidecar_parse() makes passing.
 * Returns 0 with sc filled, its strings cut in place in text (NUL over
 * each closing quote), which the caller then hands to sc->text; or -1,
 * sc untouched and text possibly cut, for anything else, which only
 * sidecar_parse() answers.
 */
int sidecar_read_plain(struct sidecar *sc, char *text, size_t len);

#endif
