#ifndef VERIFY_CACHED_H
#define VERIFY_CACHED_H

/*
 * The verdict level of the persistent cache (cache/cache.h): what
 * verifying a report computes from its sidecar's and its markdown's
 * bytes alone, kept so that a warm run parses neither.
 *
 * An entry's key is the SHA-256 of the sidecar's bytes as read and of
 * the markdown report's (or its absence); its value, the sidecar's
 * fields the rest of verification and the printers use (cache-pack.h),
 * stored only when those markdown bytes carry no replay block that
 * differs from the sidecar's.  Both facts are functions of the bytes
 * keyed and are checked on the very bytes the key names before the
 * entry is put: the sidecar parsed from the buffer hashed, the markdown
 * compared (render_compare_text()) from the buffer hashed.
 *
 * What depends on anything else is never cached and is done on every
 * run, hit or miss: the root, the inputs' checks (each input read and
 * hashed through the run's memo and the input level of the cache, so a
 * drifted input is seen whatever the entry says), the signature and its
 * trust files, --require-signed-commit, --at, --changed-since, --explain,
 * drift attribution, the notes.  So no option is part of the key, and
 * a hit cannot turn drift into "intact".
 */
#include "cache/cache.h"
#include "verify.h"

/* Per report: the sidecar's digest as read, and a hit's fields. */
struct verify_cached;

/*
 * Read r's sidecar inside r's root as sidecar_load_in() does, and parse
 * it with sidecar_parse_fields() (so r->sc.json may be NULL: only the
 * fields are read), unless c (may be NULL) holds an entry for its bytes
 * and its markdown's as they are now: then fill r->sc from the entry
 * (no document, no shown fields but those the entry holds) and parse
 * nothing.  Returns 1 for a hit, 0 for a sidecar parsed, or -1 with
 * sidecar_load_in()'s reason in err.
 */
int verify_cached_load(struct cache *c, struct verify_report *r,
		       int allow_outside, struct strbuf *err);

/*
 * render_compare_block() for a report whose sidecar verify_cached_load()
 * parsed, on the markdown bytes it read for the key (when it could read
 * them): then, when those bytes agree with the sidecar, put the report's
 * entry into c (see above).  c may be NULL.
 */
void verify_cached_compare(struct cache *c, struct verify_report *r,
			   int allow_outside);

/* Release what verify_cached_load() kept for a report; NULL is fine. */
void verify_cached_free(struct verify_cached *vc);

#endif
