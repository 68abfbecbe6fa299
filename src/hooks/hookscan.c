#include "config.h"
#include "hookscan.h"
#include "cache/cache-pack.h"
#include "record/sidecar.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

void hook_names_init(struct hook_names *names, char *const *paths,
		     size_t nr)
{
	size_t i;

	names->v = nr ? xcalloc(nr, sizeof(*names->v)) : NULL;
	names->nr = nr;
	for (i = 0; i < nr; i++) {
		const char *slash = strrchr(paths[i], '/');

		names->v[i] = slash ? slash + 1 : paths[i];
	}
}

void hook_names_release(struct hook_names *names)
{
	free(names->v);
	names->v = NULL;
	names->nr = 0;
}

/* Does any last component occur in the len bytes at buf? */
static int names_occur(const struct hook_names *names, const char *buf,
		       size_t len)
{
	size_t i;

	for (i = 0; i < names->nr; i++)
		if (memmem(buf, len, names->v[i], strlen(names->v[i])))
			return 1;
	return 0;
}

int hook_names_in_text(const struct hook_names *names, const char *buf,
		       size_t len)
{
	return memchr(buf, '\\', len) || names_occur(names, buf, len);
}

/*
 * The cache value for a sidecar's text: "!" (always judge) when it has a
 * backslash or does not load, else its token and brief paths packed
 * (cache-pack.h; the brief's NULL when it has none).
 */
static void sidecar_value(struct strbuf *value, const struct strbuf *buf)
{
	struct sidecar sc = SIDECAR_INIT;
	struct strbuf why = STRBUF_INIT;

	if (memchr(buf->buf, '\\', buf->len) ||
	    sidecar_parse(&sc, buf->buf, buf->len, &why))
		strbuf_addstr(value, "!");
	else {
		const char *paths[2] = { sc.token.path, sc.brief.path };

		cache_pack(value, paths, 2);
	}
	sidecar_release(&sc);
	strbuf_release(&why);
}

int hook_scan_sidecar(struct cache *cache, const struct snapshot *s,
		      const char *hex, const struct hook_names *names,
		      struct strbuf *buf, int *unread, struct strbuf *why)
{
	struct strbuf key = STRBUF_INIT, value = STRBUF_INIT;
	char *paths[2] = { NULL, NULL };
	size_t i;
	int ret = 1;

	strbuf_addf(&key, "%s%s", HOOK_SCAN_PREFIX, hex);
	if (!cache_get(cache, key.buf, &value)) {
		*unread = snapshot_read_blob(buf, s, hex, why);
		if (*unread)
			goto out;
		sidecar_value(&value, buf);
		cache_put(cache, key.buf, value.buf);
	}
	/* a value that does not unpack answers nothing: judged */
	if (!strcmp(value.buf, "!") || cache_unpack(paths, 2, value.buf))
		goto out;
	ret = 0;
	for (i = 0; i < 2 && !ret; i++)
		ret = paths[i] && names_occur(names, paths[i],
					      strlen(paths[i]));
out:
	cache_pack_free(paths, 2);
	strbuf_release(&key);
	strbuf_release(&value);
	return ret;
}
