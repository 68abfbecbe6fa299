/*
 * The verdict level of the cache (see verify-cached.h): a report's
 * sidecar fields by the digests of its sidecar's and its markdown's
 * bytes.
 */
#include "config.h"
#include "verify-cached.h"
#include "cache/cache-pack.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "record/render.h"
#include "record/sidecar.h"
#include "root/rootfile.h"
#include "strutil.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

/* The fields an entry holds, in its order. */
enum {
	F_KIND, F_AHD_VERSION, F_AHD_COMMIT, F_GIT_DIRTY, F_INVOKED_AT,
	F_TOKEN_PATH, F_TOKEN_HASH, F_BRIEF_PATH, F_BRIEF_HASH, F_UNKNOWN,
	F_NR
};

/* CACHE_VERDICT_PREFIX and 64 hex digits. */
#define KEY_MAX (sizeof(CACHE_VERDICT_PREFIX) + 64)

struct verify_cached {
	char key[KEY_MAX];	/* "": not known, no entry */
	/* a miss's markdown as read for the key, until it is compared */
	struct strbuf markdown;
	int no_markdown;	/* the report is not there */
	char *fields[F_NR];	/* a hit's: r->sc points into them */
	int parsed;		/* r->sc parsed from the bytes keyed */
};

/*
 * The longest value stored: a sidecar's fields are a few hundred bytes,
 * and one whose paths or unknown keys run longer is parsed every run
 * rather than let a few such reports fill the store (cache.h's bound).
 */
#define MAX_VALUE 4096

/*
 * r's markdown as render_compare_block() reads it, into text, or
 * *missing set when it does not exist.  Returns 0, or -1 when it cannot
 * be read inside the root: then no entry answers, since
 * render_compare_block() warns about it or compares nothing.
 */
static int read_markdown(struct strbuf *text, int *missing,
			 const struct verify_report *r, int allow_outside)
{
	struct strbuf err = STRBUF_INIT;
	int rc = ROOTFILE_MISSING;

	/* missing as access(F_OK) says it: a dangling link is none too */
	if (r->markdown.len)
		rc = rootfile_read(text, r->root.buf, r->markdown.buf,
				   allow_outside, HASH_DEFAULT_MAX_SIZE, &err);
	*missing = rc == ROOTFILE_MISSING;
	if (*missing)
		strbuf_reset(text);
	strbuf_release(&err);
	return *missing || !rc ? 0 : -1;
}

/* Stands for a markdown report that is not there, in a key. */
#define NO_MARKDOWN "-"

/*
 * The entry's key into key: CACHE_VERDICT_PREFIX and a SHA-256 over
 * both files' digests ("<sidecar's> <markdown's or NO_MARKDOWN>"), which
 * keeps it as short as one digest.  The three digests share one context:
 * setting one up costs more than hashing a sidecar.  Returns 0, or -1
 * (no entry) when it cannot be computed.
 */
static int entry_key(char *key, const struct strbuf *sidecar,
		     const struct strbuf *markdown)
{
	struct digest d = DIGEST_INIT;
	char both[2 * DIGEST_HEX_MAX], sum[DIGEST_HEX_MAX];
	size_t n;
	int ret = -1;

	if (digest_buffer_hex_reuse(&d, both, sidecar->buf, sidecar->len))
		goto out;
	n = strlen(both);
	both[n++] = ' ';
	if (!markdown)
		strcpy(both + n, NO_MARKDOWN);
	else if (digest_buffer_hex_reuse(&d, both + n, markdown->buf,
					 markdown->len))
		goto out;
	if (digest_buffer_hex_reuse(&d, sum, both, strlen(both)))
		goto out;
	memcpy(key, CACHE_VERDICT_PREFIX, strlen(CACHE_VERDICT_PREFIX));
	/* the 64 digits and the NUL */
	memcpy(key + strlen(CACHE_VERDICT_PREFIX), sum + strlen("sha256:"),
	       65);
	ret = 0;
out:
	digest_release(&d);
	return ret;
}

/*
 * r->sc from an entry's fields: what sidecar_parse() would have made of
 * the bytes for what verification and the printers read.  Returns 0, or
 * -1 when the fields could not have come from a sidecar that parsed.
 */
static int fill_sidecar(struct verify_report *r, char **f)
{
	struct sidecar *sc = &r->sc;
	const char *dirty = f[F_GIT_DIRTY];

	if (!f[F_KIND] || !f[F_AHD_VERSION] || !f[F_INVOKED_AT] ||
	    !f[F_TOKEN_PATH] || !f[F_TOKEN_HASH] || !f[F_UNKNOWN] ||
	    !is_sha256_hash(f[F_TOKEN_HASH], HEX_LOWER) ||
	    !f[F_BRIEF_PATH] != !f[F_BRIEF_HASH] ||
	    (f[F_BRIEF_HASH] && !is_sha256_hash(f[F_BRIEF_HASH], HEX_LOWER)) ||
	    !dirty || (strcmp(dirty, "1") && strcmp(dirty, "0") &&
		       strcmp(dirty, "-1")))
		return -1;
	sc->schema_version = SIDECAR_SCHEMA_VERSION;
	sc->kind = f[F_KIND];
	sc->ahd_version = f[F_AHD_VERSION];
	sc->ahd_commit = f[F_AHD_COMMIT];
	sc->git_dirty = atoi(dirty);
	sc->invoked_at = f[F_INVOKED_AT];
	sc->token.path = f[F_TOKEN_PATH];
	sc->token.hash = f[F_TOKEN_HASH];
	sc->brief.path = f[F_BRIEF_PATH];
	sc->brief.hash = f[F_BRIEF_HASH];
	strbuf_addstr(&sc->unknown, f[F_UNKNOWN]);
	return 0;
}

/*
 * The entry for r's sidecar (its bytes in sidecar) and its markdown as
 * it is now, into r->sc: 1, or 0 for none (r->sc untouched; the
 * markdown and the key kept, when they could be had, for
 * verify_cached_compare()).
 */
static int lookup(struct cache *c, struct verify_report *r,
		  const struct strbuf *sidecar, int allow_outside)
{
	struct verify_cached *vc = r->cached;
	struct strbuf value = STRBUF_INIT;
	int hit = 0;

	if (read_markdown(&vc->markdown, &vc->no_markdown, r,
			  allow_outside) ||
	    entry_key(vc->key, sidecar,
		      vc->no_markdown ? NULL : &vc->markdown)) {
		vc->key[0] = '\0';
		goto out;
	}
	if (!cache_get(c, vc->key, &value) ||
	    cache_unpack(vc->fields, F_NR, value.buf))
		goto out;
	if (fill_sidecar(r, vc->fields)) {
		/* a value we did not write: parse, as without a cache */
		cache_pack_free(vc->fields, F_NR);
		goto out;
	}
	hit = 1;
out:
	if (hit || !vc->key[0])
		strbuf_release(&vc->markdown);
	strbuf_release(&value);
	return hit;
}

int verify_cached_load(struct cache *c, struct verify_report *r,
		       int allow_outside, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = -1;

	if (rootfile_read(&buf, r->root.buf, r->sidecar_path.buf,
			  allow_outside, SIDECAR_MAX_SIZE, err))
		goto out;
	if (c && !r->cached) {
		r->cached = xcalloc(1, sizeof(*r->cached));
		strbuf_init(&r->cached->markdown, 0);
		/* the key names the very bytes parsed below */
		if (lookup(c, r, &buf, allow_outside)) {
			ret = 1;
			goto out;
		}
	}
	/* verification and the printers read the fields, not the tree */
	ret = sidecar_parse_fields(&r->sc, buf.buf, buf.len, err) ? -1 : 0;
	if (!ret && r->cached)
		r->cached->parsed = 1;
out:
	strbuf_release(&buf);
	return ret;
}

/* Put the entry for r, whose sidecar was parsed from the bytes keyed. */
static void put_entry(struct cache *c, const struct verify_report *r)
{
	const struct sidecar *sc = &r->sc;
	struct strbuf value = STRBUF_INIT;
	const char *f[F_NR];

	f[F_KIND] = sc->kind;
	f[F_AHD_VERSION] = sc->ahd_version;
	f[F_AHD_COMMIT] = sc->ahd_commit;
	f[F_GIT_DIRTY] = sc->git_dirty < 0 ? "-1" : sc->git_dirty ? "1" : "0";
	f[F_INVOKED_AT] = sc->invoked_at;
	f[F_TOKEN_PATH] = sc->token.path;
	f[F_TOKEN_HASH] = sc->token.hash;
	f[F_BRIEF_PATH] = sc->brief.path;
	f[F_BRIEF_HASH] = sc->brief.hash;
	f[F_UNKNOWN] = sc->unknown.buf;
	cache_pack(&value, f, F_NR);
	if (value.len <= MAX_VALUE)
		cache_put(c, r->cached->key, value.buf);
	strbuf_release(&value);
}

void verify_cached_compare(struct cache *c, struct verify_report *r,
			   int allow_outside)
{
	struct verify_cached *vc = r->cached;

	/* an entry only for a sidecar parsed from the bytes keyed */
	if (!c || !vc || !vc->key[0] || !vc->parsed) {
		render_compare_block(&r->md_warning, &r->md_line,
				     r->markdown.buf, r->root.buf,
				     allow_outside, &r->sc);
		return;
	}
	/*
	 * The bytes the key names are the bytes compared, as
	 * render_compare_block() would have read them: a report that
	 * warns gets no entry, and is parsed and compared every run.
	 */
	if (vc->no_markdown ||
	    !render_compare_text(&r->md_warning, &r->md_line,
				 r->markdown.buf, &vc->markdown, &r->sc))
		put_entry(c, r);
	strbuf_release(&vc->markdown);
}

void verify_cached_free(struct verify_cached *vc)
{
	if (!vc)
		return;
	cache_pack_free(vc->fields, F_NR);
	strbuf_release(&vc->markdown);
	free(vc);
}
