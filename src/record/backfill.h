#ifndef BACKFILL_H
#define BACKFILL_H

#include "git/commitinfo.h"
#include "git/history.h"
#include "git/repo.h"
#include "hash/hashfile.h"
#include "json/jval.h"
#include "reportheader.h"
#include "fs/writebatch.h"
#include "strbuf.h"

/*
 * Reconstructing sidecars for reports that predate the replay system,
 * byte for byte as the reference's scripts/backfill-replay.mjs writes
 * them.  Per report: parse the header (reportheader.c), take the commit
 * that last changed the report (history.c, one walk for all reports),
 * read the token, the brief and package.json as they were at that
 * commit, hash them (the brief structured when it parses, raw otherwise:
 * the reference's order), and build the sidecar.  Writing is the
 * caller's.
 */

enum backfill_state {
	BACKFILL_TODO,
	BACKFILL_SKIPPED,	/* its sidecar exists, or reason says why */
	BACKFILL_KEPT,		/* --force, but backfill did not write it */
	BACKFILL_FAILED,	/* reason says why */
};

struct backfill_item {
	char *path;		/* absolute */
	char *rel;		/* relative to the root, for messages */
	char *repo_path;	/* relative to the work tree, for history */
	struct report_header h;
	enum backfill_state state;
	int exists;		/* its sidecar is there (with --force) */
	struct strbuf reason;
	struct history_answer answer;
};

/*
 * The inputs read and hashed so far, by what their bytes depend on at
 * a commit (commit_files_key()): a thousand reports pin a few dozen
 * versions of the same tokens, briefs and package.json, each read,
 * filtered and hashed once a run.
 */
struct backfill_kept {
	char *key;		/* a kind letter, then the key */
	size_t len;
	int ret;		/* what the hashing returned */
	char hash[HASH_HEX_MAX];
	struct jval *version;	/* package.json's version */
};

struct backfill_memo {
	struct backfill_kept **table;	/* open addressing */
	size_t size, nr;
};

struct backfill {
	struct strbuf root;	/* absolute */
	struct backfill_memo memo;
	struct repo repo;	/* workdir "" outside a work tree */
	char head[COMMIT_HEX_MAX];
	int have_head;
	struct backfill_item *items;
	size_t nr, alloc;
	size_t skipped;		/* kept ones included */
	int truncated;		/* the history search hit a shallow boundary */
};

/*
 * Open the repository around root.  None is no error (the reports then
 * fail one by one); one that is there but cannot be read is: -1 with
 * the reason in err.  Release bf either way.
 */
int backfill_init(struct backfill *bf, const char *root, struct strbuf *err);
void backfill_release(struct backfill *bf);

/*
 * The reports: dir itself when it is a *.md file, else every *.md below
 * dir (entries in byte order, as Node
 * lists them; directories followed through symlinks), each read and its
 * header parsed; with force, also those whose sidecar exists and is
 * one backfill wrote (sidecar_backfilled()): any other is KEPT, its
 * reason said.
 */
void backfill_scan(struct backfill *bf, const char *dir, int force);

/*
 * The commit for each report still to do, found in one history walk.
 * Returns 0, or -1 with a reason in err.
 */
int backfill_find_commits(struct backfill *bf, enum history_mode mode,
			  struct strbuf *err);

/*
 * After backfill_find_commits(): a report whose history walk reached a
 * shallow clone's boundary is never backfilled (its commit may be
 * wrong).  It fails with a reason, or with allow_shallow is skipped with
 * one.
 */
void backfill_truncated(struct backfill *bf, int allow_shallow);

/*
 * The sidecar text for one report (JSON and a final newline), checked as
 * the reference's ReplaySchema checks it.  Returns 0, or -1 with
 * it->reason set.
 */
int backfill_build(struct backfill *bf, struct backfill_item *it,
		   struct strbuf *out);


/*
 * Write it's sidecar, text (backfill_build()), through the batch wb
 * (fs/writebatch.h), whose done says what became of it: refused at once
 * when a sidecar appeared meanwhile that backfill did not write (a run
 * captured it), else written beneath the root (a planted symlink leads
 * nothing out).  With dry_run nothing is written: done is told it was.
 */
void backfill_write(struct write_batch *wb, struct backfill_item *it,
		    const struct strbuf *text, int dry_run);

/*
 * The batch's may_replace (fs/writebatch.h): a sidecar is replaced only
 * while backfill wrote it.  A run may capture one between backfill_write()
 * and the batch's commit, a whole batch later; that one is kept.
 */
int backfill_may_replace(void *data, const char *path, struct strbuf *why);

#endif
