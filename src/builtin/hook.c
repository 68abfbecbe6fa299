/*
 * ahd-replay hook pre-commit | pre-merge-commit | pre-push: what the
 * installed git hooks run.
 *
 * pre-commit judges the index git is committing (GIT_INDEX_FILE when
 * set: index.lock during `git commit -a`, a temporary index during
 * `git commit <paths>`) against HEAD; pre-push judges each pushed tip
 * against what the remote already has.  Both only read: no index, work
 * tree, ref, config or lock is written.
 */
#include "config.h"
#include "builtin.h"
#include "hooks/hookcheck.h"
#include "hooks/hooks.h"
#include "git/hooksdir.h"
#include "parse-options.h"
#include "git/repo.h"
#include "usage.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char hook_usage_text[] =
	"Run by the hooks that install-hooks writes; not usually run by hand.\n"
	"pre-commit refuses a commit whose staged changes make a published\n"
	"report's inputs drift; pre-push refuses a push whose commits do.\n"
	"AHD_REPLAY_SKIP=1 skips the check; git config ahd-replay.strict true\n"
	"also refuses drift that was there before.\n";

static const char ways_forward[] =
	"Ways forward:\n"
	"  - keep the old input under a new name for the old reports, and point new runs at the new one;\n"
	"  - re-run the affected evals, if they can be re-run, so that their sidecars record the new inputs;\n"
	"  - or go ahead anyway: %s\n";

/* For reports that had drifted before: their evals may not re-run. */
static const char repair_old[] =
	"To repair a report that had drifted already:\n"
	"  - `ahd-replay verify --explain <report>` names the commit that last had the\n"
	"    input it records, and what changed since;\n"
	"  - `git show <commit>:<path>` is that version: keep it under a new name\n"
	"    and point the sidecar's path at it (an edit that leaves the report no\n"
	"    worse than it was is not refused);\n"
	"  - or restore the input where the sidecar records it.\n";

struct hook_ctx {
	struct repo r;
	const char *workdir;	/* r's, absolute and symlink-free */
	int strict;
};

static int open_repo(struct hook_ctx *h)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	/* GIT_DIR, GIT_WORK_TREE, core.worktree as git resolves them */
	rc = repo_open(&h->r, ".", 0, &err);
	if (rc) {
		error("cannot open the repository: %s",
		      rc > 0 ? "not in a git repository" : err.buf);
		fprintf(stderr, "ahd-replay: nothing was checked; to go ahead "
			"anyway: AHD_REPLAY_SKIP=1\n");
		strbuf_release(&err);
		return -1;
	}
	if (!h->r.workdir.len) {
		strbuf_release(&err);
		return error("the repository has no work tree");
	}
	h->workdir = h->r.workdir.buf;
	if (repo_config_bool_at(&h->strict, &h->r, "ahd-replay.strict", 0,
				&err)) {
		warning("%s; old drift is not refused", err.buf);
		h->strict = 0;
	}
	strbuf_release(&err);
	return 0;
}

static void close_repo(struct hook_ctx *h)
{
	repo_release(&h->r);
}

/*
 * How to go ahead without the check.  `--no-verify` skips every hook of
 * the type, so not when install-hooks chained the hook that was there
 * before (git-lfs's pre-push, which uploads the objects, say).
 */
static const char *bypass(const char *type, const char *what)
{
	static char buf[160];
	struct hooks_dir hd = HOOKS_DIR_INIT;
	struct strbuf prev = STRBUF_INIT, err = STRBUF_INIT;
	int chained = 0;

	if (!hooks_dir_resolve(&hd, &err)) {
		strbuf_addf(&prev, "%s/%s" HOOK_PREV_SUFFIX, hd.path.buf, type);
		chained = !access(prev.buf, X_OK);
	}
	hooks_dir_release(&hd);
	strbuf_release(&prev);
	strbuf_release(&err);
	if (chained)
		snprintf(buf, sizeof(buf), "AHD_REPLAY_SKIP=1 git %s (not "
			 "--no-verify: it would also skip the chained hook that "
			 "ran before this check)", what);
	else
		snprintf(buf, sizeof(buf), "AHD_REPLAY_SKIP=1 git %s, or git %s "
			 "--no-verify", what, what);
	return buf;
}

static int report(const struct hookcheck_result *res, const char *what,
		  const char *bypass)
{
	if (!res->problems && !res->warnings)
		return 0;
	if (res->problems)
		fprintf(stderr, "ahd-replay: %s makes published reports drift:\n\n",
			what);
	else
		fprintf(stderr, "ahd-replay: warning: reports that had drifted "
			"already (not refused; ahd-replay.strict refuses them):\n\n");
	fputs(res->text.buf, stderr);
	if (res->stale) {
		fputc('\n', stderr);
		fputs(repair_old, stderr);
	}
	if (res->problems) {
		fputc('\n', stderr);
		fprintf(stderr, ways_forward, bypass);
	}
	return res->problems ? 1 : 0;
}

static int pre_commit(const char *type)
{
	struct hook_ctx h = { REPO_INIT, NULL, 0 };
	struct hookcheck_result res = HOOKCHECK_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct snapshot head = SNAPSHOT_INIT, staged = SNAPSHOT_INIT;
	struct hook_state base = { &head, "HEAD" };
	struct hook_state next = { &staged, "staged" };
	int ret = 2;

	if (open_repo(&h))
		goto out;
	/* The index being committed, not the work tree. */
	if (snapshot_index(&staged, &h.r, &err) ||
	    snapshot_head(&head, &h.r, &err) ||
	    hookcheck_run(h.workdir, &base, &next, h.strict, &res, &err)) {
		error("%s", err.buf);
		goto out;
	}
	ret = report(&res, "this commit", bypass(type, "commit"));
out:
	hookcheck_result_release(&res);
	strbuf_release(&err);
	snapshot_release(&head);
	snapshot_release(&staged);
	close_repo(&h);
	return ret;
}

static int is_zero(const char *hex)
{
	for (; *hex; hex++)
		if (*hex != '0')
			return 0;
	return 1;
}

/*
 * Where a push goes.  git passes the remote's name and URL, or the URL
 * twice for `git push <url>`: the tracking refs of a configured remote
 * with that URL say what the destination has; a URL no remote has is a
 * destination we know nothing of.
 */
struct push_dest {
	char *remote;		/* the configured remote, or NULL */
	int unknown;		/* a URL no configured remote has */
	const char *url;	/* as git passed it */
};

/*
 * What the destination has of this history: its old tip when we have it
 * (merged with ours, for a forced push), else the best merge base with
 * its tracking refs, else nothing.  Returns 1 with the commit in out, or
 * 0; says in desc which it was.
 */
static int remote_base(git_repository *repo, const struct push_dest *dest,
		       const git_oid *tip, const char *remote_hex,
		       git_oid *out, struct strbuf *desc)
{
	git_oid rid, mb;
	git_reference_iterator *it = NULL;
	git_reference *ref;
	struct strbuf glob = STRBUF_INIT;
	git_commit *best = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int found = 0;

	if (!is_zero(remote_hex) && !git_oid_fromstr(&rid, remote_hex)) {
		git_object *obj = NULL;

		if (!git_object_lookup(&obj, repo, &rid, GIT_OBJECT_COMMIT)) {
			git_object_free(obj);
			/* what the remote has is its tip, force push or not */
			git_oid_cpy(out, &rid);
			strbuf_addf(desc, "the destination's tip, %.12s",
				    remote_hex);
			return 1;
		}
	}
	if (dest->unknown) {
		strbuf_addf(desc, "nothing: %s is not the URL of a configured "
			    "remote, so every pushed commit counts as new",
			    dest->url);
		return 0;
	}
	strbuf_addf(&glob, "refs/remotes/%s/*",
		    dest->remote ? dest->remote : "*");
	if (git_reference_iterator_glob_new(&it, repo, glob.buf) < 0)
		goto out;
	while (!git_reference_next(&ref, it)) {
		git_object *peeled = NULL;

		if (!git_reference_peel(&peeled, ref, GIT_OBJECT_COMMIT) &&
		    !git_merge_base(&mb, repo, tip, git_object_id(peeled))) {
			git_commit *c = NULL;

			if (!git_commit_lookup(&c, repo, &mb)) {
				if (!best || git_commit_time(c) >
					     git_commit_time(best)) {
					git_commit_free(best);
					best = c;
				} else
					git_commit_free(c);
			}
		}
		git_object_free(peeled);
		git_reference_free(ref);
	}
	if (best) {
		git_oid_cpy(out, git_commit_id(best));
		git_oid_tostr(hex, sizeof(hex), out);
		strbuf_addf(desc, "%.12s, the newest commit of it that %s has",
			    hex, dest->remote ? dest->remote : "a remote");
		found = 1;
	}
out:
	if (!found)
		strbuf_addf(desc, "nothing: %s has no commit of this history",
			    dest->remote ? dest->remote : "no remote");
	git_commit_free(best);
	git_reference_iterator_free(it);
	strbuf_release(&glob);
	return found;
}

/* Judge one pushed tip; returns 1 when it must be refused, -1 on errors. */
static int judge_push(struct hook_ctx *h, const struct push_dest *dest,
		      const char *ref_name, const git_oid *tip,
		      const char *remote_hex)
{
	struct hookcheck_result res = HOOKCHECK_RESULT_INIT;
	struct strbuf err = STRBUF_INIT, what = STRBUF_INIT;
	struct strbuf desc = STRBUF_INIT;
	struct snapshot pushed = SNAPSHOT_INIT, remote = SNAPSHOT_INIT;
	git_oid base_id;
	char hex[GIT_OID_HEXSZ + 1];
	struct hook_state base = { &remote, "remote" };
	struct hook_state next = { &pushed, "pushed" };
	int ret = -1, rc;

	git_oid_tostr(hex, sizeof(hex), tip);
	rc = snapshot_at(&pushed, &h->r, hex, &err);
	if (rc) {
		ret = 0;	/* a tag of a blob or tree: nothing to judge */
		goto out;
	}
	if (remote_base(h->r.git, dest, tip, remote_hex, &base_id, &desc)) {
		git_oid_tostr(hex, sizeof(hex), &base_id);
		if (snapshot_at(&remote, &h->r, hex, &err)) {
			error("cannot read %s: %s", ref_name, err.buf);
			goto out;
		}
	}
	if (hookcheck_run(h->workdir, &base, &next, h->strict, &res, &err)) {
		error("%s", err.buf);
		goto out;
	}
	strbuf_addf(&what, "pushing %s (judged against %s)", ref_name,
		    desc.buf);
	ret = report(&res, what.buf, bypass("pre-push", "push"));
out:
	hookcheck_result_release(&res);
	strbuf_release(&err);
	strbuf_release(&what);
	strbuf_release(&desc);
	snapshot_release(&pushed);
	snapshot_release(&remote);
	return ret;
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

/*
 * Find the configured remote git is pushing to: by name, else by URL
 * (push URLs too).  Without a name (run by hand) every remote's tracking
 * refs stand for the destination.
 */
static void push_dest_find(struct push_dest *d, git_repository *repo,
			   const char *remote, const char *url)
{
	git_strarray names = { NULL, 0 };
	size_t i;

	d->remote = NULL;
	d->unknown = 0;
	d->url = url ? url : remote;
	if (!remote)
		return;
	if (git_remote_list(&names, repo) < 0) {
		d->unknown = 1;
		return;
	}
	for (i = 0; i < names.count && !d->remote; i++)
		if (!strcmp(names.strings[i], remote))
			d->remote = xstrdup(remote);
	for (i = 0; i < names.count && !d->remote && d->url; i++) {
		git_remote *r = NULL;

		if (git_remote_lookup(&r, repo, names.strings[i]) < 0)
			continue;
		if (url_same(git_remote_url(r), d->url) ||
		    url_same(git_remote_pushurl(r), d->url))
			d->remote = xstrdup(names.strings[i]);
		git_remote_free(r);
	}
	d->unknown = !d->remote;
	git_strarray_dispose(&names);
}

static int pre_push(const char *remote_arg, const char *url)
{
	struct push_dest dest = { NULL, 0, NULL };
	struct hook_ctx h = { REPO_INIT, NULL, 0 };
	struct strbuf line = STRBUF_INIT;
	const char *from = getenv("PRE_COMMIT_FROM_REF");
	const char *to = getenv("PRE_COMMIT_TO_REF");
	int ret = 2, refused = 0, lines = 0, c;

	if (open_repo(&h))
		goto out;
	/* the pre-commit framework passes no arguments but says where */
	if (!remote_arg && getenv("PRE_COMMIT_REMOTE_NAME") &&
	    *getenv("PRE_COMMIT_REMOTE_NAME")) {
		remote_arg = getenv("PRE_COMMIT_REMOTE_NAME");
		url = getenv("PRE_COMMIT_REMOTE_URL");
	}
	push_dest_find(&dest, h.r.git, remote_arg, url);
	if (from && *from && to && *to) {
		/* Run by the pre-commit framework: it names the range. */
		git_object *f = NULL, *t = NULL;
		char hex[GIT_OID_HEXSZ + 1];
		int r;

		if (git_revparse_single(&f, h.r.git, from) < 0 ||
		    git_revparse_single(&t, h.r.git, to) < 0) {
			git_object_free(f);
			git_object_free(t);
			error("cannot resolve %s..%s: %s", from, to,
			      lg2_message());
			goto out;
		}
		git_oid_tostr(hex, sizeof(hex), git_object_id(f));
		r = judge_push(&h, &dest, to, git_object_id(t), hex);
		git_object_free(f);
		git_object_free(t);
		ret = r < 0 ? 2 : r;
		goto out;
	}
	/* Read every line: git may send several refs. */
	for (;;) {
		char local_ref[4096], local_hex[80], remote_ref[4096], remote_hex[80];
		git_object *obj = NULL;
		int r;

		strbuf_reset(&line);
		while ((c = getchar()) != EOF && c != '\n')
			strbuf_addch(&line, c);
		if (!line.len && c == EOF)
			break;
		if (sscanf(line.buf, "%4095s %79s %4095s %79s", local_ref,
			   local_hex, remote_ref, remote_hex) != 4) {
			warning("ignoring a line git did not send: '%s'",
				line.buf);
			continue;
		}
		lines++;
		if (is_zero(local_hex))
			continue;	/* a deletion */
		if (git_revparse_single(&obj, h.r.git, local_hex) < 0) {
			error("cannot read %s: %s", local_ref, lg2_message());
			refused = -1;
			continue;
		}
		{
			git_object *peeled = NULL;

			/* Annotated tags: judge what they point to. */
			if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0)
				r = 0;
			else
				r = judge_push(&h, &dest, remote_ref,
					       git_object_id(peeled), remote_hex);
			git_object_free(peeled);
		}
		git_object_free(obj);
		if (r < 0)
			refused = -1;
		else if (r && refused >= 0)
			refused = 1;
	}
	if (!lines) {
		git_oid head;
		char zero[] = "0";

		warning("no refs on standard input; checking HEAD");
		if (git_reference_name_to_id(&head, h.r.git, "HEAD") < 0) {
			ret = 0;
			goto out;
		}
		refused = judge_push(&h, &dest, "HEAD", &head, zero);
	}
	ret = refused < 0 ? 2 : refused;
out:
	free(dest.remote);
	strbuf_release(&line);
	close_repo(&h);
	return ret;
}

int cmd_hook(int argc, char **argv)
{
	const char *skip = getenv("AHD_REPLAY_SKIP");
	int ret;
	const struct parse_opt options[] = { OPT_END() };
	const struct cmd_usage usage = {
		"hook", OPERANDS("(pre-commit | pre-merge-commit | pre-push "
				 "<remote> [<url>])"), options, hook_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_msg_opt(&usage, "which hook?");
	if (strcmp(argv[0], "pre-commit") &&
	    strcmp(argv[0], "pre-merge-commit") && strcmp(argv[0], "pre-push"))
		usage_msg_opt(&usage, "unknown hook '%s'", argv[0]);
	/* A shim already running us further up the chain: check once. */
	if (hook_chain_active(argv[0]))
		return 0;
	if (skip && !strcmp(skip, "1")) {
		fprintf(stderr, "ahd-replay: AHD_REPLAY_SKIP is set; replay check skipped\n");
		return 0;
	}
	/* git does not re-hash every object it reads; neither do we */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	if (!strcmp(argv[0], "pre-push"))
		ret = pre_push(argc > 1 ? argv[1] : NULL,
			       argc > 2 ? argv[2] : NULL);
	else
		ret = pre_commit(argv[0]);
	return finish_stdout(ret);
}
