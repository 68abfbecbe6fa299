#ifndef HOOKSCAN_H
#define HOOKSCAN_H

#include "cache/cache.h"
#include "config/rcfile.h"
#include "git/snapshot.h"
#include "strbuf.h"

/*
 * Which sidecars could name a path a change touches: the hooks read every
 * sidecar of the new state, and judge closely only those.  A "no" here
 * must be proof.  A recorded path that leads to a changed file ends with
 * that file's last component (however it is rooted or spelled: only
 * components are dropped on the way, never made up), so a sidecar none of
 * whose recorded paths holds any changed path's last component names
 * none of them.  Symlinks break that (a path may reach the file under
 * another name): the caller judges everything when the state has any.
 */

/*
 * The changed paths' last components (pointers into the paths), and the
 * answers for the recorded paths asked about so far: many reports pin
 * the same few inputs.
 */
struct hook_names {
	const char **v;
	size_t nr;
	struct hook_names_seen {
		char *path;	/* NULL: an empty slot */
		int occurs;
	} *seen;
	size_t nr_seen, size_seen;	/* size a power of two, or 0 */
};
#define HOOK_NAMES_INIT { NULL, 0, NULL, 0, 0 }

/* paths (nr of them) must outlive names. */
void hook_names_init(struct hook_names *names, char *const *paths,
		     size_t nr);
void hook_names_release(struct hook_names *names);

/*
 * Could this text (a record of any layout) name a changed path?  Any
 * JSON escape could hide a name (one with '"', '\\', a tab, CR or
 * newline is never written raw; "\\u" and "\\/" may spell any
 * character), so a backslash anywhere says yes; else yes when a last
 * component occurs anywhere in it.
 */
int hook_names_in_text(const struct hook_names *names, const char *buf,
		       size_t len);

/*
 * The hooks' store beside verify's (cache_open_named()): a hook loads
 * and rewrites its own entries only, however many verify keeps.
 */
#define HOOK_SCAN_STORE "hooks"

/*
 * The cache the hooks use (cache.h), or NULL: git config
 * ahd-replay.cache decides, and when it is unset the judged state's
 * .ahd-replay.yml (rc) may turn it off, as it does for verify.
 */
struct cache *hook_scan_cache(const char *workdir, const struct rcfile *rc);

/* How the keys of the hooks' level of the cache start (cache.h). */
#define HOOK_SCAN_PREFIX "hs."

/*
 * Could the AHD sidecar whose blob is hex (in s) name a changed path?
 * The answer rests on its recorded paths (token and brief), kept in the
 * cache under the blob id, which names the bytes they were read from; a
 * sidecar whose text has a backslash or does not load is always judged.
 * Returns 0 (proof: it names none), or 1 (judge it).  When the blob had
 * to be read, *unread is snapshot_read_blob()'s answer (its bytes in
 * buf, or the reason in why); else *unread is left alone.  cache may be
 * NULL: the text is then scanned (hook_names_in_text()), not parsed.
 */
int hook_scan_sidecar(struct cache *cache, const struct snapshot *s,
		      const char *hex, struct hook_names *names,
		      struct strbuf *buf, int *unread, struct strbuf *why);

#endif
