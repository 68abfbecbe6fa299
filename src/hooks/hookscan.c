#include "config.h"
#include "hookscan.h"
#include "cache/cache-pack.h"
#include "git/repo.h"
#include "record/sidecar.h"
#include "usage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void hook_names_init(struct hook_names *names, char *const *paths,
		     size_t nr)
{
	size_t i;

	memset(names, 0, sizeof(*names));
	names->v = nr ? xcalloc(nr, sizeof(*names->v)) : NULL;
	names->nr = nr;
	for (i = 0; i < nr; i++) {
		const char *slash = strrchr(paths[i], '/');

		names->v[i] = slash ? slash + 1 : paths[i];
	}
}

void hook_names_release(struct hook_names *names)
{
	size_t i;

	for (i = 0; i < names->size_seen; i++)
		free(names->seen[i].path);
	free(names->seen);
	free(names->v);
	memset(names, 0, sizeof(*names));
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

/* FNV-1a: the slot a recorded path starts looking from */
static size_t seen_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

static struct hook_names_seen *seen_slot(struct hook_names_seen *v,
					 size_t size, const char *path)
{
	size_t i = seen_hash(path) & (size - 1);

	while (v[i].path && strcmp(v[i].path, path))
		i = (i + 1) & (size - 1);
	return &v[i];
}

static void seen_grow(struct hook_names *names)
{
	struct hook_names_seen *old = names->seen;
	size_t i, size = names->size_seen;

	names->size_seen = size ? 2 * size : 64;
	names->seen = xcalloc(names->size_seen, sizeof(*names->seen));
	for (i = 0; i < size; i++)
		if (old[i].path)
			*seen_slot(names->seen, names->size_seen,
				   old[i].path) = old[i];
	free(old);
}

/* names_occur() for a recorded path, remembered by the path */
static int path_names(struct hook_names *names, const char *path)
{
	struct hook_names_seen *e;

	if (2 * (names->nr_seen + 1) > names->size_seen)
		seen_grow(names);
	e = seen_slot(names->seen, names->size_seen, path);
	if (!e->path) {
		e->path = xstrdup(path);
		e->occurs = names_occur(names, path, strlen(path));
		names->nr_seen++;
	}
	return e->occurs;
}

int hook_names_in_text(const struct hook_names *names, const char *buf,
		       size_t len)
{
	return memchr(buf, '\\', len) || names_occur(names, buf, len);
}

struct cache *hook_scan_cache(const char *workdir, const struct rcfile *rc)
{
	struct strbuf value = STRBUF_INIT, why = STRBUF_INIT;
	const char *policy = rc->policy[POLICY_CACHE].value;
	int set = repo_config_here(&value, CACHE_CONFIG_KEY, REPO_CONFIG_BOOL,
				   &why);

	strbuf_release(&value);
	strbuf_release(&why);
	/* a bad git config value: cache_open() warns and turns it off */
	if (!set && policy && !strcmp(policy, "false"))
		return NULL;
	return cache_open_named(workdir, HOOK_SCAN_STORE);
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
		      const char *hex, struct hook_names *names,
		      struct strbuf *buf, int *unread, struct strbuf *why)
{
	struct strbuf key = STRBUF_INIT, value = STRBUF_INIT;
	char *paths[2] = { NULL, NULL };
	size_t i;
	int ret = 1;

	strbuf_addstr(&key, HOOK_SCAN_PREFIX);
	strbuf_addstr(&key, hex);
	if (!cache_get(cache, key.buf, &value)) {
		*unread = snapshot_read_blob(buf, s, hex, why);
		if (*unread)
			goto out;
		/*
		 * Without a cache to keep it for, parsing the sidecar costs
		 * more than scanning its text once per changed name.
		 */
		if (!cache) {
			ret = hook_names_in_text(names, buf->buf, buf->len);
			goto out;
		}
		sidecar_value(&value, buf);
		cache_put(cache, key.buf, value.buf);
	}
	/* a value that does not unpack answers nothing: judged */
	if (!strcmp(value.buf, "!") || cache_unpack(paths, 2, value.buf))
		goto out;
	ret = 0;
	for (i = 0; i < 2 && !ret; i++)
		ret = paths[i] && path_names(names, paths[i]);
out:
	cache_pack_free(paths, 2);
	strbuf_release(&key);
	strbuf_release(&value);
	return ret;
}
