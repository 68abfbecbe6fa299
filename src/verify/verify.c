/*
 * What a verification is and finds (see verify.h).  The checks keep the
 * reference's order and words, since the text output repeats them line
 * for line.
 */
#include "config.h"
#include "verify.h"
#include "cache/cache.h"
#include "record/changed.h"
#include "verify-int.h"
#include "verify-cached.h"
#include "verify-memo.h"
#include "explain.h"
#include "hash/hashfile.h"
#include "root/inputpath.h"
#include "record/require-sidecar.h"
#include "git/checkedout.h"
#include "git/repo.h"
#include "git/revision.h"
#include "root/root.h"
#include "root/rootfile.h"
#include "quote.h"
#include "strutil.h"
#include "fs/path.h"
#include "usage.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void verify_run_init(struct verify_run *run, const struct verify_options *opts,
		     const struct sig_keyring *keyring)
{
	run->opts = *opts;
	run->keyring = keyring;
	run->memos = verify_memos_new(opts->no_cache);
	run->changed = NULL;
	run->since_base = NULL;
	run->history_walks = 0;
}

void verify_run_release(struct verify_run *run)
{
	changed_memo_free(run->changed);
	run->changed = NULL;
	verify_memos_free(run->memos);
	run->memos = NULL;
}

static void check_init(struct verify_check *c, const struct pinned_input *in)
{
	memset(c, 0, sizeof(*c));
	c->input = in;
	c->field = in->name;
	c->expected = in->hash;
	strbuf_init(&c->actual, 0);
	strbuf_init(&c->reason, 0);
	strbuf_init(&c->note, 0);
	strbuf_init(&c->rel, 0);
}

static void check_release(struct verify_check *c)
{
	if (c->explain) {
		explanation_release(c->explain);
		free(c->explain);
	}
	strbuf_release(&c->actual);
	strbuf_release(&c->reason);
	strbuf_release(&c->note);
	strbuf_release(&c->rel);
}

void verify_report_init(struct verify_report *r, const char *report,
			const char *sidecar)
{
	struct sidecar sc = SIDECAR_INIT;
	struct record rec = RECORD_INIT;

	memset(r, 0, sizeof(*r));
	strbuf_init(&r->report, 0);
	strbuf_init(&r->sidecar_path, 0);
	strbuf_init(&r->markdown, 0);
	strbuf_addstr(&r->report, report);
	strbuf_addstr(&r->sidecar_path, sidecar);
	if (ends_with(report, ".replay.json"))
		sidecar_report_for(&r->markdown, report);
	else
		strbuf_addstr(&r->markdown, report);
	r->sc = sc;
	r->rec = rec;
	strbuf_init(&r->root, 0);
	strbuf_init(&r->error, 0);
	sig_result_init(&r->sig);
	commitsig_result_init(&r->commit_sig);
	strbuf_init(&r->notes, 0);
	strbuf_init(&r->md_warning, 0);
}

void verify_report_release(struct verify_report *r)
{
	int i;

	free(r->kept);
	strbuf_release(&r->report);
	strbuf_release(&r->sidecar_path);
	strbuf_release(&r->markdown);
	sidecar_release(&r->sc);
	strbuf_release(&r->root);
	for (i = 0; i < r->nr_checks; i++)
		check_release(&r->checks[i]);
	free(r->checks);
	/* after the checks, which borrow its inputs */
	record_release(&r->rec);
	strbuf_release(&r->error);
	sig_result_release(&r->sig);
	commitsig_result_release(&r->commit_sig);
	strbuf_release(&r->notes);
	strbuf_release(&r->md_warning);
}

/* --- checking -------------------------------------------------------- */

/*
 * input_resolve() through the run's memo: the reports of a directory pin
 * the same few tokens and briefs, and resolving a path costs a walk of
 * the file system (or of a tree) each time.  Within a run a path leads
 * where it led the first time, as the hash memo already assumes.  The
 * answer is the memo's own, read-only, for the run's length.
 */
static const struct resolved_input *resolve_input(struct verify_memos *memos,
						  const char *root,
						  const char *recorded,
						  const struct input_tree *tree,
						  int allow_outside)
{
	struct strbuf key = STRBUF_INIT;
	struct memo *m;
	int mine;

	strbuf_addch(&key, tree ? 't' : 'w');
	strbuf_addch(&key, allow_outside ? '1' : '0');
	strbuf_addstr(&key, root);
	strbuf_addch(&key, '\0');
	strbuf_addstr(&key, recorded);
	m = memo_claim(memos, &memos->resolved, key.buf, key.len, 0, &mine);
	if (mine) {
		input_resolve(&m->in, root, recorded, tree, allow_outside);
		memo_done(memos, m);
	}
	strbuf_release(&key);
	return &m->in;
}

/* hash_input() could not find or read the input; the check says why. */
#define INPUT_FAILED (-100)

/*
 * Read in and hash it in mode into m: its hash in m->hex with
 * hash_text()'s answer in m->ret (its error in m->text), or m->read_rc
 * nonzero with why the input could not be read in m->text.
 */
static void hash_into(struct memo *m, struct cache *cache,
		      const struct resolved_input *in,
		      const struct input_tree *tree, enum hash_mode mode)
{
	struct strbuf raw = STRBUF_INIT, err = STRBUF_INIT;

	if (mode == HASH_RAW) {
		/* Streamed: a brief of any size costs the same memory. */
		m->read_rc = input_hash_raw(m->hex, in, tree, &err) ? -1 : 0;
	} else {
		/* Read no further than the limit a parse is allowed. */
		m->read_rc = input_read(&raw, in, tree, HASH_DEFAULT_MAX_SIZE,
					&err);
		/* keyed by the blob id of raw: the bytes just read */
		if (!m->read_rc)
			m->ret = cache_hash_bytes(cache, m->hex, raw.buf,
						  raw.len, mode, &err);
	}
	m->text = m->read_rc || m->ret ? strbuf_detach(&err, NULL) : NULL;
	strbuf_release(&raw);
	strbuf_release(&err);
}

/* The memo's key for in's content: its real path, or its blob with --at. */
static void content_key(struct strbuf *key, const struct resolved_input *in,
			const struct input_tree *tree)
{
	struct strbuf p = STRBUF_INIT;
	char oid[REVISION_HEX_SIZE];
	git_oid id;
	unsigned mode;

	if (!tree) {
		strbuf_addbuf(key, &in->file);
		return;
	}
	strbuf_addf(&p, "%s%s", tree->prefix, in->rel.buf);
	if (!input_tree_blob(tree, p.buf, &id, &mode)) {
		revision_hex(oid, &id);
		strbuf_addf(key, "blob:%s", oid);
	}
	strbuf_release(&p);
}

/*
 * Why the input c resolved to could not be used, in c; returns 0 when
 * it could.
 */
static int input_unusable(struct verify_check *c,
			  const struct resolved_input *in, const char *root)
{
	const char *recorded = c->input->path;

	switch (in->status) {
	case INPUT_OK:
		return 0;
	case INPUT_NOT_FOUND:
		/* The reference's words, with its absolute path. */
		strbuf_addf(&c->reason, "%s file not found at %s", c->field,
			    in->shown.buf);
		c->kind = "missing-input";
		break;
	case INPUT_OUTSIDE:
		c->error = 1;
		c->kind = "outside-root";
		strbuf_addf(&c->reason, "%s path %s is outside the root %s "
			    "(%s; --allow-outside-root to allow)", c->field,
			    recorded, root, in->why.buf);
		break;
	default:
		c->error = 1;
		strbuf_addf(&c->reason, "cannot use the %s path %s: %s",
			    c->field, recorded, in->why.buf);
	}
	return -1;
}

/*
 * Resolve c's input and hash it in `mode`, through the memo.  Returns 0
 * with the hash in hex, INPUT_FAILED with the check filled in (the input
 * could not be found or read), or hash_text()'s error with its reason in
 * err.  shown receives the path as the reference would show it.
 */
static int hash_input(struct verify_memos *memos, struct verify_check *c,
		      const char *root, const struct input_tree *tree,
		      int allow_outside, enum hash_mode mode, char *hex,
		      struct strbuf *err, struct strbuf *shown)
{
	const char *recorded = c->input->path;
	struct resolved_input init = RESOLVED_INPUT_INIT;
	const struct resolved_input *in;
	struct strbuf key = STRBUF_INIT;
	struct memo unkeyed, *m = &unkeyed;
	int mine = 1, ret = INPUT_FAILED;

	memset(&unkeyed, 0, sizeof(unkeyed));
	unkeyed.in = init;
	in = resolve_input(memos, root, recorded, tree, allow_outside);
	if (!c->note.len && in->rerooted)
		strbuf_addf(&c->note, "%s path re-rooted: %s -> %s", c->field,
			    recorded, in->rel.buf);
	strbuf_reset(shown);
	strbuf_addbuf(shown, &in->shown);
	strbuf_reset(&c->rel);
	strbuf_addbuf(&c->rel, &in->rel);
	if (input_unusable(c, in, root))
		goto out;
	content_key(&key, in, tree);
	/* hashed outside the lock: a thread wanting this key waits for it */
	if (key.len)
		m = memo_claim(memos, &memos->hashes, key.buf, key.len, mode,
			       &mine);
	if (mine) {
		hash_into(m, memos->cache, in, tree, mode);
		if (m != &unkeyed)
			memo_done(memos, m);
	}
	if (m->read_rc == INPUT_READ_TOOBIG && mode != HASH_RAW &&
	    c->input->mode == PIN_RAW_THEN_STRUCTURED) {
		c->error = 1;
		strbuf_addf(&c->reason, "the %s's raw hash does not match, "
			    "and its structured hash is not computed: the %s "
			    "at %s is %s", c->field, c->field, in->shown.buf,
			    m->text);
	} else if (m->read_rc) {
		c->error = 1;
		strbuf_addf(&c->reason, "failed to read %s at %s: %s",
			    c->field, in->shown.buf, m->text);
	} else {
		ret = m->ret;
		memcpy(hex, m->hex, HASH_HEX_MAX);
		if (m->text)
			strbuf_addstr(err, m->text);
	}
out:
	if (m == &unkeyed)
		memo_clear(&unkeyed);
	strbuf_release(&key);
	return ret;
}

/*
 * Why in's structured hash could not be compared: ret is hash_text()'s
 * error, err its reason, shown the input's path.  The reference's words,
 * which say more when the raw hash was compared first.  Only the cases
 * the reference cannot decide either are errors: an input it would
 * refuse to parse is drift.
 */
static void say_unhashed(struct verify_check *c, int ret,
			 const struct strbuf *err, const char *shown)
{
	const char *name = c->field;

	if (ret == HASH_EUNSUPPORTED || ret == HASH_EIO)
		c->error = 1;
	if (c->input->mode == PIN_RAW_THEN_STRUCTURED && c->error)
		strbuf_addf(&c->reason, "the %s's raw hash does not match and "
			    "its structured hash cannot be computed as the "
			    "reference does: %s", name, err->buf);
	else if (c->input->mode == PIN_RAW_THEN_STRUCTURED)
		strbuf_addf(&c->reason, "%s is not valid YAML and the "
			    "raw-bytes hash does not match: %s", name,
			    err->buf);
	else if (ret == HASH_EUNSUPPORTED)
		strbuf_addf(&c->reason, "cannot re-hash the %s at %s as the "
			    "reference does: %s", name, shown, err->buf);
	else if (ret == HASH_EIO)
		strbuf_addf(&c->reason, "cannot re-hash the %s at %s: %s",
			    name, shown, err->buf);
	else
		strbuf_addf(&c->reason, "failed to parse %s at %s: %s", name,
			    shown, err->buf);
}

/* c's input hashed, and not to the recorded hash. */
static void say_changed(struct verify_check *c)
{
	if (c->input->mode == PIN_RAW_THEN_STRUCTURED)
		strbuf_addf(&c->reason, "%s contents have changed since the "
			    "run (neither raw-bytes nor canonical-YAML hash "
			    "matches)", c->field);
	else
		strbuf_addf(&c->reason, "%s contents have changed since the "
			    "run; re-hash differs", c->field);
}

/*
 * An input of the work tree that failed: when git did not write it as a
 * file (outside a sparse checkout, a symlink written as text with
 * core.symlinks=false), that is the reason, an error, never drift or
 * "not found" (git/checkedout.h).  Asked only on failure: it opens the
 * index.
 */
static void not_checked_out(struct verify_memos *memos,
			    struct verify_check *c, const char *root)
{
	struct strbuf key = STRBUF_INIT;
	enum checkedout state;
	struct memo *m;
	int mine;

	/*
	 * Once per input a run: each answer loads the whole index, and a
	 * drifted token fails in every report that pins it.
	 */
	strbuf_addstr(&key, root);
	strbuf_addch(&key, '\0');
	strbuf_addbuf(&key, &c->rel);
	m = memo_claim(memos, &memos->checkedout, key.buf, key.len, 0, &mine);
	if (mine) {
		m->ret = checkedout_state(root, c->rel.buf);
		memo_done(memos, m);
	}
	state = m->ret;
	strbuf_release(&key);

	if (state == CHECKEDOUT_AS_WRITTEN)
		return;
	c->error = 1;
	c->kind = "not-checked-out";
	strbuf_reset(&c->actual);
	strbuf_reset(&c->reason);
	strbuf_addf(&c->reason, "%s %s: %s", c->field, c->rel.buf,
		    checkedout_reason(state));
}

/*
 * Check one pinned input: hash it as its mode says (raw first, then
 * structured, for PIN_RAW_THEN_STRUCTURED: the reference's order) and
 * compare with the recorded hash, filling in c.
 */
static void check_input(struct verify_memos *memos, struct verify_check *c,
			const struct pinned_input *in, const char *root,
			const struct input_tree *tree, int allow_outside)
{
	struct strbuf err = STRBUF_INIT, shown = STRBUF_INIT;
	char hex[HASH_HEX_MAX];
	int ret;

	check_init(c, in);
	if (in->mode == PIN_RAW_THEN_STRUCTURED || in->mode == PIN_RAW) {
		if (hash_input(memos, c, root, tree, allow_outside, HASH_RAW,
			       hex, &err, &shown))
			goto out;	/* the check says why */
		if (!strcmp(hex, in->hash) || in->mode == PIN_RAW) {
			c->ok = !strcmp(hex, in->hash);
			strbuf_addstr(&c->actual, hex);
			if (!c->ok)
				strbuf_addf(&c->reason, "%s contents have "
					    "changed since the run; raw-bytes "
					    "hash differs", c->field);
			goto out;
		}
	}
	ret = hash_input(memos, c, root, tree, allow_outside, HASH_STRUCTURED,
			 hex, &err, &shown);
	if (ret == INPUT_FAILED)
		;	/* the check says why */
	else if (ret)
		say_unhashed(c, ret, &err, shown.buf);
	else {
		strbuf_addstr(&c->actual, hex);
		c->ok = !strcmp(hex, in->hash);
		if (!c->ok)
			say_changed(c);
	}
out:
	if (!tree && !c->ok && c->rel.len)
		not_checked_out(memos, c, root);
	strbuf_release(&err);
	strbuf_release(&shown);
}

int at_commit_open(struct at_commit *at, const char *root, const char *rev,
		   struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	if (repo_open(&at->repo, root, 0, &why) || !at->repo.workdir.len) {
		strbuf_addf(err, "--at needs a git work tree around %s: %s", root,
			    why.len ? why.buf : "not a repository");
		goto out;
	}
	if (revision_resolve(&at->rev, &at->repo, rev, err))
		goto out;
	if (revision_prefix(&at->prefix, &at->repo, root)) {
		strbuf_addf(err, "the root %s is not inside the repository %s",
			    root, at->repo.workdir.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&why);
	return ret;
}

void at_commit_tree(struct input_tree *out, const struct at_commit *at)
{
	out->repo = at->repo.git;
	out->tree = at->rev.tree;
	out->index = NULL;
	out->commit = &at->rev.id;
	out->prefix = at->prefix.buf;
}

void at_commit_release(struct at_commit *at)
{
	revision_release(&at->rev);
	repo_release(&at->repo);
	strbuf_release(&at->prefix);
}

struct at_commit *verify_memo_at(struct verify_memos *m, const char *root,
				 const char *rev, struct strbuf *err)
{
	struct at_commit init = AT_COMMIT_INIT;
	struct at_memo *am;
	size_t i;

	for (i = 0; i < m->nr_ats; i++)
		if (!strcmp(m->ats[i]->root, root))
			break;
	if (i == m->nr_ats) {
		ALLOC_GROW(m->ats, m->nr_ats + 1, m->alloc_ats);
		am = m->ats[m->nr_ats++] = xcalloc(1, sizeof(*am));
		am->root = xstrdup(root);
		am->at = init;
		strbuf_init(&am->err, 0);
		if (at_commit_open(&am->at, root, rev, &am->err))
			at_commit_release(&am->at);
	}
	am = m->ats[i];
	if (am->err.len) {
		strbuf_addbuf(err, &am->err);
		return NULL;
	}
	return &am->at;
}

/*
 * root_describe() once per root (the key is the root, the mode 1 +
 * its origin; directories are mode 0), copied into m: the directories
 * of a tree share one root, and describing it opens its repository.
 */
static void describe_root(struct verify_memos *memos, struct memo *m)
{
	struct memo *d;
	int mine;

	d = memo_claim(memos, &memos->roots, m->text, strlen(m->text),
		       1 + m->origin, &mine);
	if (mine) {
		struct strbuf note = STRBUF_INIT, warning = STRBUF_INIT;

		root_describe(&note, &warning, m->text, m->origin);
		d->note = note.len ? strbuf_detach(&note, NULL) : NULL;
		d->warning = warning.len ? strbuf_detach(&warning, NULL) : NULL;
		strbuf_release(&note);
		strbuf_release(&warning);
		memo_done(memos, d);
	}
	m->note = d->note ? xstrdup(d->note) : NULL;
	m->warning = d->warning ? xstrdup(d->warning) : NULL;
}

/*
 * Roots by directory, so a thousand reports do not walk up a thousand
 * times; a directory without one fails the same way each time.
 */
static int find_root(struct verify_memos *memos, struct strbuf *out,
		     const char *dir, const char *given, struct strbuf *err)
{
	struct memo *m;
	int mine;

	m = memo_claim(memos, &memos->roots, dir, strlen(dir), 0, &mine);
	if (mine) {
		struct strbuf root = STRBUF_INIT, why = STRBUF_INIT;

		if (given)
			m->origin = root_find_pinned(&root, dir, given, &why);
		else {
			pthread_mutex_lock(&memos->root_lock);
			m->origin = root_find_pinned_memo(&root, dir,
							  &memos->root_memo,
							  &why);
			pthread_mutex_unlock(&memos->root_lock);
		}
		m->text = m->origin < 0 ? strbuf_detach(&why, NULL) :
			  strbuf_detach(&root, NULL);
		if (m->origin >= 0)
			describe_root(memos, m);
		strbuf_release(&root);
		strbuf_release(&why);
		memo_done(memos, m);
	}
	strbuf_addstr(m->origin < 0 ? err : out, m->text);
	return m->origin < 0 ? -1 : m->origin;
}

/*
 * Add "  <label>: <text>" to r's notes, text escaped onto one line
 * (quote.h): notes quote paths, keys and commit subjects.
 */
void verify_add_note(struct verify_report *r, const char *label,
		     const char *fmt, ...)
{
	struct strbuf text = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	strbuf_addf(&r->notes, "  %s: ", label);
	quote_escape(&r->notes, text.buf, text.len);
	strbuf_addch(&r->notes, '\n');
	strbuf_release(&text);
}

/* --- --changed-since and --require-sidecar ---------------------------- */

/* The --changed-since base for r's root, or NULL with r->error set. */
static const struct changed_base *since_base(struct verify_run *run,
					    struct verify_report *r)
{
	struct strbuf err = STRBUF_INIT;
	const struct changed_base *b;

	b = changed_base_for(&run->changed, r->root.buf,
			     run->opts.changed_since, run->opts.at, &err);
	if (!b)
		strbuf_addbuf(&r->error, &err);
	else if (!run->since_base)
		run->since_base = changed_base_name(b);
	strbuf_release(&err);
	return b;
}

/*
 * A report --require-sidecar wants a sidecar for has none: a failure of
 * its own, unless --changed-since leaves the report out.
 */
static int missing_sidecar(struct verify_run *run, struct verify_report *r)
{
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	const struct changed_base *b;
	int missing = 0;

	if (run->opts.changed_since) {
		path_dirname(&dir, r->markdown.buf);
		if (find_root(run->memos, &r->root, dir.buf, run->opts.root,
			      &err) < 0) {
			strbuf_addbuf(&r->error, &err);
			goto out;
		}
		b = since_base(run, r);
		if (!b)
			goto out;
		if (!changed_file(b, r->markdown.buf)) {
			r->skipped = 1;
			goto out;
		}
	}
	if (r->required_by == REQUIRED_BY_BLOCK)
		strbuf_addf(&r->error, "no replay sidecar for %s, which "
			    "carries an %s block (was its sidecar "
			    "removed?)", r->markdown.buf, r->layout ?
			    "ahd-replay-record" : "ahd-replay");
	else
		strbuf_addf(&r->error, "no replay sidecar for %s (reports "
			    "matching %s must have one)", r->markdown.buf,
			    r->required_by);
	missing = 1;
out:
	strbuf_release(&dir);
	strbuf_release(&err);
	return missing;
}

/*
 * Name r's root when it is not the work tree's top, and warn when a
 * package.json a pull request could plant set it (root_describe()).
 */
static void root_notes(struct verify_memos *memos, struct verify_report *r,
		       const char *dir)
{
	const struct memo *m = memo_get(memos, &memos->roots, dir,
					strlen(dir), 0);

	if (m && m->note)
		verify_add_note(r, "note", "%s", m->note);
	if (m && m->warning)
		verify_add_note(r, "warning", "%s", m->warning);
}

/* A signature that fails, or none when one is required. */
int verify_signature_failed(const struct verify_report *r,
			    const struct verify_options *opts)
{
	if (r->sig.status == SIG_OK)
		return r->sig.sidecar_only && opts->require_signature;
	return r->sig.status != SIG_UNSIGNED || opts->require_signature;
}

static void check_signature(struct verify_report *r,
			    const struct sig_keyring *kr,
			    const struct verify_options *opts)
{
	struct strbuf sig = STRBUF_INIT, err = STRBUF_INIT;
	struct sig_subject subj;

	/*
	 * A .sig that leads out of the root is refused unread; one that is
	 * not there (ROOTFILE_MISSING) is sig_check_sidecar()'s to report.
	 */
	strbuf_addf(&sig, "%s%s", r->sidecar_path.buf, SIGNATURE_SUFFIX);
	if (!r->sig_absent &&
	    rootfile_check(r->root.buf, sig.buf, opts->allow_outside, NULL,
			   &err) == ROOTFILE_OUTSIDE) {
		r->sig.status = SIG_MALFORMED;
		strbuf_addbuf(&r->sig.sig_path, &sig);
		strbuf_addf(&r->sig.reason, "%s: %s", sig.buf, err.buf);
		goto out;
	}
	subj.sidecar = r->sidecar_path.buf;
	subj.report = r->layout && !r->layout->sidecar ? NULL :
		r->markdown.buf;
	subj.root = r->root.buf;
	subj.invoked_at = r->layout ? NULL : r->sc.invoked_at;
	subj.layout = r->layout;
	subj.sig_absent = r->sig_absent;
	switch (sig_check_sidecar(&r->sig, kr, &subj)) {
	case SIG_OK:
		if (r->sig.sidecar_only && opts->require_signature)
			strbuf_addstr(&r->sig.reason, "a version 1 signature "
				      "covers the sidecar only, not its report "
				      "(--require-signature); sign it again");
		break;
	case SIG_UNSIGNED:
		if (opts->require_signature)
			strbuf_addf(&r->sig.reason, "no signature at %s "
				    "(--require-signature)",
				    r->sig.sig_path.buf);
		break;
	case SIG_UNKNOWN_KEY:
		if (!kr->nr && kr->skipped && r->sig.kind &&
		    !strcmp(r->sig.kind, "ed25519"))
			strbuf_addf(&r->sig.reason, " (no usable trusted keys: "
				    "%zu key file%s skipped, see the warnings)",
				    kr->skipped, kr->skipped == 1 ? "" : "s");
		else if (!kr->nr && r->sig.kind &&
			 !strcmp(r->sig.kind, "ed25519"))
			strbuf_addstr(&r->sig.reason, " (no trusted keys: "
				      "--trusted-keys or ahd-replay.trustedKeys)");
		break;
	default:
		break;
	}
out:
	strbuf_release(&sig);
	strbuf_release(&err);
}

/*
 * changed_report() for a layout's record: the record (and its sidecar),
 * the file that declares the layout, or an input it pins.
 */
static int changed_record(const struct changed_base *b,
			  const struct verify_report *r,
			  const struct input_tree *tree, int allow_outside)
{
	struct strbuf rc = STRBUF_INIT;
	size_t i;
	int changed;

	strbuf_addf(&rc, "%s/.ahd-replay.yml", r->root.buf);
	changed = changed_file(b, r->sidecar_path.buf) ||
		  changed_file(b, r->markdown.buf) || changed_file(b, rc.buf);
	for (i = 0; !changed && i < r->rec.nr; i++)
		changed = changed_input(b, r->root.buf, r->rec.inputs[i].path,
					tree, allow_outside);
	strbuf_release(&rc);
	return changed;
}

/*
 * Which of r's inputs the change since --changed-since's base touches:
 * the github format annotates those inputs themselves, where a pull
 * request shows annotations inline.
 */
static void mark_in_change(struct verify_run *run, struct verify_report *r,
			   const struct input_tree *tp)
{
	const struct changed_base *b = since_base(run, r);
	int i;

	for (i = 0; b && i < r->nr_checks; i++)
		r->checks[i].in_change =
			changed_input(b, r->root.buf, r->rec.inputs[i].path,
				      tp, run->opts.allow_outside);
}

/*
 * Once r is verified, what the printers show of its sidecar (verify-*.c)
 * is a few strings: copies of them are kept and the parsed document,
 * several times the file's size, is freed.  A run holds every report
 * until it prints; this keeps 10,000 of them to tens of megabytes.
 */
static void keep_shown_fields(struct verify_report *r)
{
	const char **field[VERIFY_KEPT_FIELDS] = {
		&r->sc.kind, &r->sc.ahd_version, &r->sc.ahd_commit,
		&r->sc.invoked_at, &r->sc.token.path, &r->sc.token.hash,
		&r->sc.brief.path, &r->sc.brief.hash
	};
	struct strbuf unknown = r->sc.unknown;
	size_t len[VERIFY_KEPT_FIELDS], total = 0;
	char *p;
	int i;

	/* in one block: a report is built and freed on the hot path */
	for (i = 0; i < VERIFY_KEPT_FIELDS; i++) {
		len[i] = *field[i] ? strlen(*field[i]) + 1 : 0;
		total += len[i];
	}
	p = r->kept = total ? xmalloc(total) : NULL;
	for (i = 0; i < VERIFY_KEPT_FIELDS; i++)
		if (*field[i]) {
			memcpy(p, *field[i], len[i]);
			*field[i] = p;
			p += len[i];
		}
	/* sidecar_release() frees the document; unknown stays ours */
	strbuf_init(&r->sc.unknown, 0);
	sidecar_release(&r->sc);
	r->sc.unknown = unknown;
}

/*
 * After the root or the sidecar failed: when the sidecar is not there at
 * all, that is the error (or, for --require-sidecar, the verdict), not
 * the failure.  Asked only then, so an intact report costs no access().
 * Returns 1 when the sidecar is absent, with r's error set.
 */
static int sidecar_absent(struct verify_run *run, struct verify_report *r,
			  int *missing)
{
	if (!access(r->sidecar_path.buf, F_OK))
		return 0;
	strbuf_reset(&r->root);
	if (r->required_by)
		*missing = missing_sidecar(run, r);
	else
		strbuf_addf(&r->error, "no replay sidecar found at %s",
			    r->sidecar_path.buf);
	return 1;
}

void verify_one(struct verify_run *run, struct verify_report *r)
{
	struct verify_memos *memos = run->memos;
	const struct verify_options *opts = &run->opts;
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	const struct at_commit *at = NULL;
	struct input_tree tree, *tp = NULL;
	int i, hit = 0, missing = 0;

	/* The root first: the sidecar and its neighbours must lie in it. */
	path_dirname(&dir, r->report.buf);
	r->root_origin = find_root(memos, &r->root, dir.buf, opts->root, &err);
	if (r->root_origin < 0) {
		if (!sidecar_absent(run, r, &missing))
			strbuf_addbuf(&r->error, &err);
		goto out;
	}
	if (r->layout) {
		if (record_from_layout(&r->rec, r->layout, r->sidecar_path.buf,
				       &err)) {
			/* a report of a layout with sidecars, as AHD's */
			if (!r->layout->sidecar ||
			    !sidecar_absent(run, r, &missing))
				strbuf_addbuf(&r->error, &err);
			goto out;
		}
		r->loaded = 1;
		check_signature(r, run->keyring, opts);
		goto loaded;
	}
	/* a hit fills r->sc from the cache, unparsed (verify-cached.h) */
	hit = verify_cached_load(memos->cache, r, opts->allow_outside, &err);
	if (hit < 0) {
		if (!sidecar_absent(run, r, &missing))
			strbuf_addf(&r->error, "%s", err.buf);
		goto out;
	}
	r->loaded = 1;
	record_from_sidecar(&r->rec, &r->sc, r->sidecar_path.buf,
			    r->markdown.buf);
	check_signature(r, run->keyring, opts);
	if (opts->require_signed_commit) {
		commitsig_check(&r->commit_sig, r->sidecar_path.buf,
				run->keyring->have_ssh ? &run->keyring->ssh : NULL);
		r->commit_checked = 1;
	}
	if (r->sc.unknown.len)
		verify_add_note(r, "note", "ignoring unknown fields in the "
				"sidecar: %s", r->sc.unknown.buf);
loaded:
	root_notes(memos, r, dir.buf);

	if (opts->at) {
		strbuf_reset(&err);
		at = verify_memo_at(memos, r->root.buf, opts->at, &err);
		if (!at) {
			strbuf_addbuf(&r->error, &err);
			r->stop = 1;
			goto out;
		}
		at_commit_tree(&tree, at);
		tp = &tree;
		verify_add_note(r, "note", "inputs read at commit %s (%s)",
				at->rev.short_id, opts->at);
	}
	if (opts->changed_since) {
		const struct changed_base *b = since_base(run, r);

		if (!b)
			goto out;
		if (r->layout ? !changed_record(b, r, tp, opts->allow_outside) :
		    !changed_report(b, r->root.buf, r->sidecar_path.buf,
				    r->markdown.buf, &r->sc, tp,
				    opts->allow_outside)) {
			r->skipped = 1;
			goto out;
		}
	}

	r->checks = xcalloc(r->rec.nr ? r->rec.nr : 1, sizeof(*r->checks));
	for (i = 0; (size_t)i < r->rec.nr; i++)
		check_input(memos, &r->checks[r->nr_checks++],
			    &r->rec.inputs[i], r->root.buf, tp,
			    opts->allow_outside);
	if (opts->changed_since)
		mark_in_change(run, r, tp);
	for (i = 0; i < r->nr_checks; i++)
		if (r->checks[i].note.len)
			verify_add_note(r, "note", "%s", r->checks[i].note.buf);
	/* a hit's entry was put only for markdown bytes that agreed */
	if (!r->layout && !hit)
		verify_cached_compare(memos->cache, r, opts->allow_outside);
	else if (r->layout && r->layout->block)
		layout_compare_block(&r->md_warning, &r->md_line, r->layout,
				     &r->rec, r->markdown.buf, r->root.buf,
				     opts->allow_outside);
out:
	r->verdict = VERIFY_INTACT;
	if (r->error.len)
		r->verdict = missing ? VERIFY_MISSING : VERIFY_ERRORED;
	for (i = 0; i < r->nr_checks; i++) {
		if (r->checks[i].error)
			r->verdict = VERIFY_ERRORED;
		else if (!r->checks[i].ok && r->verdict == VERIFY_INTACT)
			r->verdict = VERIFY_DRIFTED;
	}
	/* An untrusted sidecar's hashes mean nothing, drifted or not. */
	if (r->loaded && (verify_signature_failed(r, opts) ||
			  (r->commit_checked && !r->commit_sig.ok)) &&
	    r->verdict != VERIFY_ERRORED)
		r->verdict = VERIFY_UNTRUSTED;
	if (r->loaded)
		keep_shown_fields(r);
	/* copied by now, or of no use: a report skipped keeps no markdown */
	verify_cached_free(r->cached);
	r->cached = NULL;
	strbuf_release(&dir);
	strbuf_release(&err);
}
