/*
 * Commits named by revisions (see revision.h).
 */
#include "config.h"
#include "revision.h"
#include "fs/path.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * HEAD@{<n>} at p (rev + at): the id of the n-th entry of HEAD's own
 * reflog, in hex, appended to out; *len is how much of rev it spelled.
 * 0, or -1 with the reason in why.
 */
static int head_reflog(struct strbuf *out, git_repository *g, const char *p,
		       size_t *len, struct strbuf *why)
{
	const char *num = p + strlen("HEAD@{"), *end = num;
	git_reflog *log = NULL;
	const git_reflog_entry *e;
	char hex[REVISION_HEX_SIZE];
	unsigned long n;
	int ret = -1;

	while (isdigit((unsigned char)*end))
		end++;
	if (end == num || *end != '}' || end - num > 9) {
		/* dates and the rest: libgit2 reads the branch's reflog */
		strbuf_addstr(why, "HEAD@{...} is taken by number only "
			      "(HEAD@{1}); name the commit another way");
		return -1;
	}
	n = strtoul(num, NULL, 10);
	if (git_reflog_read(&log, g, "HEAD") < 0) {
		strbuf_addf(why, "cannot read the reflog of HEAD: %s",
			    lg2_message());
		return -1;
	}
	if (n >= git_reflog_entrycount(log)) {
		strbuf_addf(why, "the reflog of HEAD has only %lu entries",
			    (unsigned long)git_reflog_entrycount(log));
		goto out;
	}
	/* entry 0 is the newest, as HEAD@{0} is */
	e = git_reflog_entry_byindex(log, n);
	git_oid_tostr(hex, sizeof(hex), git_reflog_entry_id_new(e));
	strbuf_addstr(out, hex);
	*len = (size_t)(end + 1 - p);
	ret = 0;
out:
	git_reflog_free(log);
	return ret;
}

/* Does "HEAD@{" at rev + i start a revision (not end a longer ref name)? */
static int head_at(const char *rev, size_t i)
{
	return !strncmp(rev + i, "HEAD@{", 6) &&
		(!i || rev[i - 1] == '.' || rev[i - 1] == '^');
}

int revision_parse(git_object **obj, git_repository *g, const char *rev,
		   struct strbuf *why)
{
	struct strbuf spelled = STRBUF_INIT;
	size_t i = 0, len;
	int ret = -1;

	/*
	 * libgit2 reads HEAD@{n} from the current branch's reflog; git (and
	 * our man page) from HEAD's own, which moves on every checkout.
	 * Each one is replaced by the id git would give before parsing;
	 * after the first ':' comes a path, taken as it is.
	 */
	while (rev[i] && rev[i] != ':') {
		if (head_at(rev, i)) {
			if (head_reflog(&spelled, g, rev + i, &len, why))
				goto out;
			i += len;
		} else
			strbuf_addch(&spelled, rev[i++]);
	}
	strbuf_addstr(&spelled, rev + i);
	if (git_revparse_single(obj, g, spelled.buf) < 0) {
		strbuf_addstr(why, lg2_message());
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&spelled);
	return ret;
}

int revision_resolve(struct revision *out, struct repo *repo, const char *rev,
		     struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	git_object *obj = NULL;
	int ret = -1;

	if (revision_parse(&obj, repo->git, rev, &why) < 0)
		goto fail;
	if (git_object_peel((git_object **)&out->commit, obj,
			    GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&out->tree, out->commit) < 0) {
		strbuf_addstr(&why, lg2_message());
		goto fail;
	}
	git_oid_cpy(&out->id, git_commit_id(out->commit));
	git_oid_tostr(out->hex, sizeof(out->hex), &out->id);
	git_oid_tostr(out->short_id, sizeof(out->short_id), &out->id);
	ret = 0;
	goto out;
fail:
	strbuf_addf(err, "cannot resolve '%s' to a commit: %s", rev, why.buf);
out:
	strbuf_release(&why);
	git_object_free(obj);
	return ret;
}

void revision_release(struct revision *r)
{
	git_tree_free(r->tree);
	git_commit_free(r->commit);
	r->tree = NULL;
	r->commit = NULL;
}

int revision_prefix(struct strbuf *out, const struct repo *repo,
		    const char *dir)
{
	const char *wd = repo->workdir.buf;
	/* realpath gives "/" only for the root directory itself */
	size_t n = strcmp(wd, "/") ? strlen(wd) : 0;

	if (!repo->workdir.len || !path_is_within(dir, wd))
		return -1;
	if (dir[n] == '/')
		n++;
	if (dir[n])
		strbuf_addf(out, "%s/", dir + n);
	return 0;
}

void revision_hex(char out[REVISION_HEX_SIZE], const git_oid *id)
{
	git_oid_tostr(out, REVISION_HEX_SIZE, id);
}
