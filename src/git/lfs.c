/*
 * Reading through git-lfs pointers (see lfs.h).
 */
#include "config.h"
#include "lfs.h"
#include "hash/digest.h"
#include "fs/readfile.h"
#include "repo.h"
#include "usage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define POINTER_VERSION "version https://git-lfs.github.com/spec/v1"
/* git-lfs never writes a pointer this large (spec: "less than 1024") */

static int is_lower_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int lfs_pointer_parse(struct lfs_pointer *p, const char *buf, size_t len)
{
	const char *line = buf, *end = buf + len;
	int have_oid = 0, have_size = 0, ext = 0, first = 1;

	if (len >= LFS_POINTER_MAX || !len || buf[len - 1] != '\n' ||
	    memchr(buf, '\0', len))
		return 0;
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = (size_t)(nl - line);

		if (first) {
			if (n != strlen(POINTER_VERSION) ||
			    memcmp(line, POINTER_VERSION, n))
				return 0;
			first = 0;
		} else if (n > 8 && !memcmp(line, "ext-", 4) && !have_oid) {
			/* keys come sorted: extensions before oid */
			ext = 1;
		} else if (n == 4 + 7 + 64 && !memcmp(line, "oid sha256:", 11) &&
			   !have_oid && !have_size &&
			   is_lower_hex(line + 11, 64)) {
			memcpy(p->oid, line + 11, 64);
			p->oid[64] = '\0';
			have_oid = 1;
		} else if (n > 5 && n <= 5 + 19 && !memcmp(line, "size ", 5) &&
			   have_oid && !have_size) {
			const char *d;
			uint64_t v = 0;

			if (line[5] == '0' && n > 6)
				return 0;	/* no leading zeros */
			for (d = line + 5; d < nl; d++) {
				if (*d < '0' || *d > '9')
					return 0;
				v = v * 10 + (uint64_t)(*d - '0');
			}
			p->size = v;
			have_size = 1;
		} else
			return 0;
		line = nl + 1;
	}
	if (!have_oid || !have_size)
		return 0;
	return ext ? -1 : 1;
}

/*
 * Does path carry filter=lfs in the attributes of commit (or the index,
 * or with worktree the work tree's)?
 */
static int tracked(git_repository *repo, const git_oid *commit,
		   int worktree, const char *path)
{
	git_attr_options opts;
	const char *value = NULL;

	memset(&opts, 0, sizeof(opts));
	opts.version = GIT_ATTR_OPTIONS_VERSION;
	/*
	 * The attributes the state itself carries (its .gitattributes),
	 * with info/attributes and core.attributesFile as git reads them;
	 * never the work tree's, which may say something else.
	 */
	opts.flags = worktree ? GIT_ATTR_CHECK_FILE_THEN_INDEX :
		     GIT_ATTR_CHECK_INDEX_ONLY;
	if (commit) {
		opts.flags |= GIT_ATTR_CHECK_INCLUDE_COMMIT;
		git_oid_cpy(&opts.attr_commit_id, commit);
	}
	if (git_attr_get_ext(&value, repo, &opts, path, "filter") < 0)
		return 0;
	return git_attr_value(value) == GIT_ATTR_VALUE_STRING &&
	       !strcmp(value, "lfs");
}

int lfs_read_file(struct strbuf *out, struct strbuf *rel,
		  struct lfs_pointer *ptr, const char *file,
		  const void *data, size_t len, size_t max,
		  struct strbuf *err)
{
	git_repository *repo = NULL;
	struct strbuf dir = STRBUF_INIT;
	const char *slash = strrchr(file, '/');
	char *wd = NULL;
	size_t n;
	int ret = LFS_CONTENT;

	/* Only a blob that parses as a pointer pays for the repository. */
	if (!lfs_pointer_parse(ptr, data, len) || !slash)
		return LFS_CONTENT;
	strbuf_add(&dir, file, (size_t)(slash - file));
	if (repo_open_git(&repo, dir.len ? dir.buf : "/", 0, NULL) ||
	    !git_repository_workdir(repo) ||
	    !(wd = realpath(git_repository_workdir(repo), NULL)))
		goto out;
	n = strlen(wd);
	if (strncmp(file, wd, n) || file[n] != '/')
		goto out;
	ret = lfs_read_worktree(out, ptr, repo, file + n + 1, data, len, max,
				err);
	if (ret == LFS_ABSENT)
		strbuf_addstr(rel, file + n + 1);
out:
	free(wd);
	git_repository_free(repo);
	strbuf_release(&dir);
	return ret;
}

void lfs_raw_hash(char out[72], const struct lfs_pointer *p)
{
	snprintf(out, 72, "sha256:%s", p->oid);
}

void lfs_absent_reason(struct strbuf *out, const char *path,
		       const struct lfs_pointer *p)
{
	strbuf_addf(out, "%s is a git-lfs pointer and its object "
		    "(sha256:%.12s, %llu bytes) is not in the local LFS store; "
		    "fetch it first (git lfs fetch)", path, p->oid,
		    (unsigned long long)p->size);
}

static int read_pointer(struct strbuf *out, struct lfs_pointer *ptr,
			git_repository *repo, const git_oid *commit,
			int worktree, const char *path, const void *blob,
			size_t len, size_t max, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT, data = STRBUF_INIT;
	struct strbuf rerr = STRBUF_INIT;
	char hex[DIGEST_HEX_MAX];
	struct stat st;
	int r, ret = LFS_ERROR;

	r = lfs_pointer_parse(ptr, blob, len);
	if (!r || !tracked(repo, commit, worktree, path))
		return LFS_CONTENT;
	if (r < 0) {
		strbuf_addf(err, "%s is a git-lfs pointer with extensions; "
			    "its content cannot be read here", path);
		return LFS_ERROR;
	}
	strbuf_addf(&file, "%slfs/objects/%.2s/%.2s/%s",
		    git_repository_commondir(repo), ptr->oid, ptr->oid + 2,
		    ptr->oid);
	if (stat(file.buf, &st) < 0 && errno == ENOENT) {
		ret = LFS_ABSENT;
		goto out;
	}
	if (max && ptr->size > max) {
		strbuf_addf(err, "the git-lfs object of %s is larger than the "
			    "limit of ", path);
		format_size(err, max);
		goto out;
	}
	if (read_file_limited(&data, file.buf, max, &rerr)) {
		strbuf_addf(err, "cannot read the git-lfs object of %s: %s",
			    path, rerr.buf);
		goto out;
	}
	/* The store is not trusted: the object must be what the pointer says. */
	if ((uint64_t)data.len != ptr->size ||
	    digest_buffer_hex(hex, data.buf, data.len) ||
	    strcmp(hex + 7, ptr->oid)) {
		strbuf_addf(err, "the git-lfs object of %s (%s) does not match "
			    "its pointer (sha256:%.12s, %llu bytes)", path,
			    file.buf, ptr->oid, (unsigned long long)ptr->size);
		goto out;
	}
	strbuf_addbuf(out, &data);
	ret = LFS_SMUDGED;
out:
	strbuf_release(&file);
	strbuf_release(&data);
	strbuf_release(&rerr);
	return ret;
}

int lfs_read(struct strbuf *out, struct lfs_pointer *ptr,
	     git_repository *repo, const git_oid *commit, const char *path,
	     const void *blob, size_t len, size_t max, struct strbuf *err)
{
	return read_pointer(out, ptr, repo, commit, 0, path, blob, len, max,
			    err);
}

int lfs_read_worktree(struct strbuf *out, struct lfs_pointer *ptr,
		      git_repository *repo, const char *path,
		      const void *data, size_t len, size_t max,
		      struct strbuf *err)
{
	return read_pointer(out, ptr, repo, NULL, 1, path, data, len, max,
			    err);
}
