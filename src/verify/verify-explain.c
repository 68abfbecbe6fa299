/*
 * verify --explain: the version that had the recorded hash, against
 * today's (see verify-int.h; the comparison is explain.c's).
 */
#include "config.h"
#include "verify-int.h"
#include "hash/digest.h"
#include "explain.h"
#include "hash/hashfile.h"
#include "git/blob.h"
#include "usage.h"
#include "utf8.h"

#include <string.h>

/* The bytes of path at commit (symlinks followed, LFS read), repaired. */
static int read_version(struct strbuf *out, struct repo *repo,
			const git_oid *commit, const char *path,
			struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT;
	int ret = blob_read_checkout(&raw, repo, commit, path, err);

	if (!ret)
		utf8_repair(out, raw.buf, raw.len);
	strbuf_release(&raw);
	return ret;
}

/* Today's bytes of the input, as verify read them, repaired. */
static int read_today(struct strbuf *out, const char *root,
		      const char *recorded, const struct input_tree *tree,
		      int allow_outside, struct strbuf *err)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	struct strbuf raw = STRBUF_INIT;
	int ret = -1;

	input_resolve(&in, root, recorded, tree, allow_outside);
	if (in.status != INPUT_OK)
		strbuf_addbuf(err, &in.why);
	else if (!input_read(&raw, &in, tree, HASH_DEFAULT_MAX_SIZE, err)) {
		utf8_repair(out, raw.buf, raw.len);
		ret = 0;
	}
	resolved_input_release(&in);
	strbuf_release(&raw);
	return ret;
}

void verify_explain_check(struct verify_report *r, struct verify_check *c,
			  struct repo *repo, const git_oid *found,
			  const char *why, const char *path,
			  const struct input_tree *tree, int allow_outside)
{
	struct strbuf old = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *recorded = c->input->path;
	int raw_first = c->input->mode == PIN_RAW_THEN_STRUCTURED ||
			c->input->mode == PIN_RAW;
	char hex[REVISION_HEX_SIZE], raw_hex[DIGEST_HEX_MAX];

	/* Drift with content today: there is something to compare. */
	if (c->ok || c->error || !c->rel.len || !c->actual.len)
		return;
	c->explain = xcalloc(1, sizeof(*c->explain));
	explanation_init(c->explain);
	if (!found) {
		strbuf_addstr(&c->explain->why, why);
		goto out;
	}
	revision_hex(hex, found);
	if (read_version(&old, repo, found, path, &err) ||
	    read_today(&now, r->root.buf, recorded, tree, allow_outside,
		       &err)) {
		strbuf_addf(&c->explain->why, "%s", err.buf);
		goto out;
	}
	/* An input whose bytes had the recorded hash is compared as text. */
	explain_compare(c->explain, hex, old.buf, old.len, now.buf, now.len,
			raw_first && !digest_buffer_hex(raw_hex, old.buf,
							old.len) &&
			!strcmp(raw_hex, c->expected), c->rel.buf);
out:
	strbuf_release(&old);
	strbuf_release(&now);
	strbuf_release(&err);
}
