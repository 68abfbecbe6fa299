/*
 * What the destination of a push already has (see hookpush.h).
 */
#include "config.h"
#include "hookpush.h"
#include "git/remote.h"
#include "git/revrange.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hook_push_id_is_zero(const char *hex)
{
	for (; *hex; hex++)
		if (*hex != '0')
			return 0;
	return 1;
}

/* The length of url without trailing slashes, then ".git", then slashes. */
static size_t url_key_len(const char *url)
{
	size_t n = strlen(url);

	while (n > 1 && url[n - 1] == '/')
		n--;
	if (n > 4 && !strncmp(url + n - 4, ".git", 4))
		n -= 4;
	while (n > 1 && url[n - 1] == '/')
		n--;
	return n;
}

/* Do two URLs name the same repository, as far as their text says? */
static int url_same(const char *a, const char *b)
{
	size_t na, nb;

	if (!a || !b)
		return 0;
	na = url_key_len(a);
	nb = url_key_len(b);
	return na == nb && !memcmp(a, b, na);
}

void hook_push_dest_find(struct hook_push_dest *d, struct repo *r,
			 const char *remote, const char *url)
{
	struct remote_list remotes = REMOTE_LIST_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	d->remote = NULL;
	d->unknown = 0;
	d->url = url ? url : remote;
	if (!remote)
		return;
	if (remote_list_read(&remotes, r, &err)) {
		warning("%s; every pushed commit counts as new", err.buf);
		d->unknown = 1;
		goto out;
	}
	for (i = 0; i < remotes.nr && !d->remote; i++)
		if (!strcmp(remotes.v[i].name, remote))
			d->remote = xstrdup(remote);
	for (i = 0; i < remotes.nr && !d->remote && d->url; i++)
		if (url_same(remotes.v[i].url, d->url) ||
		    url_same(remotes.v[i].pushurl, d->url))
			d->remote = xstrdup(remotes.v[i].name);
	d->unknown = !d->remote;
out:
	remote_list_release(&remotes);
	strbuf_release(&err);
}

void hook_push_dest_release(struct hook_push_dest *d)
{
	free(d->remote);
	d->remote = NULL;
}

/*
 * The newest commit of tip's history that the destination's tracking
 * refs (every remote's, when it is not known) reach: 1 with it in out,
 * else 0.  Refs that cannot be listed reach nothing (with a warning):
 * judged against less, a push is refused more often, never less.
 */
static int tracking_base(char *out, struct repo *r, const char *remote,
			 const char *tip)
{
	struct strbuf glob = STRBUF_INIT, err = STRBUF_INIT;
	int rc;

	strbuf_addf(&glob, "refs/remotes/%s/*", remote ? remote : "*");
	rc = revrange_newest_base(out, r, tip, glob.buf, &err);
	if (rc < 0)
		warning("cannot list %s: %s", glob.buf, err.buf);
	strbuf_release(&glob);
	strbuf_release(&err);
	return rc > 0;
}

int hook_push_base(char *out, struct repo *r, const struct hook_push_dest *d,
		   const char *tip, const char *remote_hex, struct strbuf *desc)
{
	const char *who = d->remote ? d->remote : "a remote";

	/* what the remote has is its tip, force push or not */
	if (!hook_push_id_is_zero(remote_hex) &&
	    revrange_has_commit(r, remote_hex)) {
		/* the id is its first SNAPSHOT_HEX_MAX - 1 digits */
		snprintf(out, SNAPSHOT_HEX_MAX, "%s", remote_hex);
		strbuf_addf(desc, "the destination's tip, %.12s", remote_hex);
		return 1;
	}
	if (d->unknown) {
		strbuf_addf(desc, "nothing: %s is not the URL of a configured "
			    "remote, so every pushed commit counts as new",
			    d->url);
		return 0;
	}
	if (tracking_base(out, r, d->remote, tip)) {
		strbuf_addf(desc, "%.12s, the newest commit of it that %s has",
			    out, who);
		return 1;
	}
	strbuf_addf(desc, "nothing: %s has no commit of this history",
		    d->remote ? d->remote : "no remote");
	return 0;
}
