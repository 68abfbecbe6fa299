/*
 * The configured remotes (see remote.h).
 */
#include "config.h"
#include "remote.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int remote_list_read(struct remote_list *out, struct repo *r,
		     struct strbuf *err)
{
	git_strarray names = { NULL, 0 };
	size_t i;

	if (git_remote_list(&names, r->git) < 0) {
		strbuf_addf(err, "cannot list the remotes: %s", lg2_message());
		return -1;
	}
	for (i = 0; i < names.count; i++) {
		struct remote_entry *e;
		git_remote *remote = NULL;

		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		e = &out->v[out->nr++];
		e->name = xstrdup(names.strings[i]);
		e->url = e->pushurl = NULL;
		if (git_remote_lookup(&remote, r->git, names.strings[i]) < 0) {
			git_error_clear();
			continue;
		}
		e->url = dup_or_null(git_remote_url(remote));
		e->pushurl = dup_or_null(git_remote_pushurl(remote));
		git_remote_free(remote);
	}
	git_strarray_dispose(&names);
	return 0;
}

void remote_list_release(struct remote_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->v[i].name);
		free(l->v[i].url);
		free(l->v[i].pushurl);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
