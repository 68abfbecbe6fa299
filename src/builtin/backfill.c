/*
 * ahd-replay backfill: reconstruct sidecars for reports that predate the
 * replay system, byte for byte as the reference's
 * scripts/backfill-replay.mjs writes them.
 *
 * Per report: parse the header (reportheader.c), take the commit that
 * last changed the report (history.c, one walk for all reports), read the
 * token, the brief and package.json as they were at that commit, hash
 * them (the brief structured when it parses, raw otherwise: the
 * reference's order), and write the sidecar.  Reports that cannot be
 * backfilled are listed with the reason.
 */
#include "config.h"
#include "atomicfile.h"
#include "builtin.h"
#include "datetime.h"
#include "digest.h"
#include "hashfile.h"
#include "history.h"
#include "input.h"
#include "parse-options.h"
#include "repo.h"
#include "reportheader.h"
#include "root.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char backfill_usage[] =
	"usage: ahd-replay backfill [--dry-run] [--force] [--root=<dir>] [--commit-of=last|first] [<reports-dir>]\n"
	"\n"
	"    --dry-run          say what would be written, write nothing\n"
	"    --force            rewrite sidecars that exist\n"
	"    --root=<dir>       the repository root (default: found as verify\n"
	"                       finds it)\n"
	"    --commit-of=<c>    last: the commit that last changed the report\n"
	"                       (the reference's choice); first: the commit\n"
	"                       that added it\n"
	"\n"
	"Reports are the *.md files under <reports-dir> (default docs/evals\n"
	"under the root).  Exit status: 0, or 1 when a report could not be\n"
	"backfilled (0 with --dry-run), 2 on usage errors.\n";

struct backfill_opts {
	int dry_run;
	int force;
	const char *root;
	enum history_mode mode;
};

struct item {
	char *path;		/* absolute */
	char *rel;		/* relative to the root, for messages */
	char *repo_path;	/* relative to the work tree, for history */
	struct report_header h;
	int state;		/* ITEM_* */
	struct strbuf reason;
	struct history_answer answer;
};

enum { ITEM_TODO, ITEM_SKIPPED, ITEM_FAILED, ITEM_WRITTEN };

struct items {
	struct item *v;
	size_t nr, alloc;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The reference's walkMarkdown(): entries in byte order (as Node lists
 * them), directories followed through symlinks, files ending in ".md".
 */
static void walk_markdown(struct items *out, const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;

	if (depth > 64 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	for (i = 0; i < nr; i++) {
		struct strbuf full = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&full, "%s/%s", dir, names[i]);
		if (!stat(full.buf, &st)) {
			if (S_ISDIR(st.st_mode))
				walk_markdown(out, full.buf, depth + 1);
			else if (ends_with(names[i], ".md")) {
				struct item *it;

				ALLOC_GROW(out->v, out->nr + 1, out->alloc);
				it = &out->v[out->nr++];
				memset(it, 0, sizeof(*it));
				strbuf_init(&it->reason, 0);
				it->path = strbuf_detach(&full, NULL);
			}
		}
		strbuf_release(&full);
		free(names[i]);
	}
	free(names);
}

/* Node's path.relative(from, to) for absolute, normalised paths. */
static void path_relative(struct strbuf *out, const char *from, const char *to)
{
	size_t i = 0, last = 0;

	if (!strcmp(from, "/"))
		from = "";
	while (from[i] && from[i] == to[i]) {
		if (from[i] == '/')
			last = i;
		i++;
	}
	if (!from[i] && (to[i] == '/' || !to[i]))
		last = i;
	else if (!from[i] && !*from)
		last = 0;
	/* One ".." per component of from past the common part. */
	for (i = last; from[i]; i++)
		if (from[i] == '/')
			strbuf_addstr(out, out->len ? "/.." : "..");
	if (to[last] == '/')
		last++;
	if (to[last]) {
		if (out->len)
			strbuf_addch(out, '/');
		strbuf_addstr(out, to + last);
	}
}

/* The blob at path in tree, or NULL; directories and links are not read. */
static int read_at(git_repository *repo, git_tree *tree, const char *path,
		   struct strbuf *out, int *not_file)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int ret = -1;

	*not_file = 0;
	if (git_tree_entry_bypath(&e, tree, path) < 0)
		goto out;
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    git_tree_entry_filemode(e) == GIT_FILEMODE_LINK) {
		*not_file = 1;
		goto out;
	}
	if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0)
		goto out;
	/* git show decodes as UTF-8, invalid bytes becoming U+FFFD. */
	utf8_repair(out, git_blob_rawcontent(blob),
		    (size_t)git_blob_rawsize(blob));
	ret = 0;
out:
	git_blob_free(blob);
	git_tree_entry_free(e);
	return ret;
}

/* JSON.parse(package.json).version ?? "unknown", kept as a JSON value. */
static json_t *version_at(git_repository *repo, git_tree *tree)
{
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	json_t *pkg, *v = NULL;
	int not_file;

	strbuf_addstr(&path, "package.json");
	if (read_at(repo, tree, path.buf, &text, &not_file) || !text.len)
		goto out;
	pkg = json_loadb(text.buf, text.len, JSON_DECODE_ANY |
			 JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, NULL);
	if (json_is_object(pkg))
		v = json_incref(json_object_get(pkg, "version"));
	json_decref(pkg);
out:
	strbuf_release(&text);
	strbuf_release(&path);
	if (!v || json_is_null(v)) {
		json_decref(v);
		v = json_string("unknown");
	}
	return v;
}

/*
 * The models and conditions of a report's header as the reference's
 * backfill records them: no request ids; a critique has no conditions,
 * any other run both.
 */
static void header_arrays(const struct report_header *h, json_t *models,
			  json_t *conditions)
{
	size_t i;

	for (i = 0; i < h->nr_models; i++) {
		json_t *m = json_object();

		json_object_set_new(m, "id", json_string(h->models[i].id));
		json_object_set_new(m, "provider",
				    json_string(h->models[i].provider));
		json_object_set_new(m, "provider_request_ids", json_array());
		json_array_append_new(models, m);
	}
	if (strcmp(h->kind, "critique")) {
		json_array_append_new(conditions, json_string("raw"));
		json_array_append_new(conditions, json_string("compiled"));
	}
}

/*
 * The brief's hash at the commit: structured when it parses as YAML, raw
 * bytes otherwise (the reference's order).  Returns 1 with the hash when
 * the brief is there, 0 when it is absent or empty (recorded as null),
 * -1 with it->reason set.
 */
static int hash_brief(struct item *it, git_repository *repo, git_tree *tree,
		      const char *hex, char hash[HASH_HEX_MAX])
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	int not_file, r, ret = 0;

	if (!read_at(repo, tree, it->h.brief, &text, &not_file) && text.len) {
		r = hash_text(hash, text.buf, text.len, HASH_STRUCTURED, &err);
		if (r == HASH_EUNSUPPORTED) {
			strbuf_addf(&it->reason, "brief at %.12s:%s cannot be "
				    "hashed as the reference does: %s", hex,
				    it->h.brief, err.buf);
			ret = -1;
		} else {
			if (r)
				digest_buffer_hex(hash, text.buf, text.len);
			ret = 1;
		}
	} else if (not_file) {
		strbuf_addf(&it->reason, "brief %s at commit %.12s is not a "
			    "file", it->h.brief, hex);
		ret = -1;
	}
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/* The token's structured hash at the commit; -1 with it->reason set. */
static int hash_token(struct item *it, git_repository *repo, git_tree *tree,
		      const char *hex, const char *path,
		      char hash[HASH_HEX_MAX])
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	int not_file, r, ret = -1;

	if (read_at(repo, tree, path, &text, &not_file) || !text.len) {
		/* An empty file reads as "" and counts as absent, as there. */
		strbuf_addf(&it->reason, not_file ?
			    "%s at commit %.12s is not a file" :
			    "token file %s not present at commit %.12s",
			    path, hex);
		goto out;
	}
	r = hash_text(hash, text.buf, text.len, HASH_STRUCTURED, &err);
	if (r) {
		strbuf_addf(&it->reason, r == HASH_EUNSUPPORTED ?
			    "token at %.12s:%s cannot be hashed as the "
			    "reference does: %s" :
			    "token at %.12s:%s did not parse as YAML: %s",
			    hex, path, err.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/* What the reference's ReplaySchema checks before it writes. */
static int validate_record(struct item *it, const struct sidecar_record *rec)
{
	const struct report_header *h = &it->h;

	if (!json_is_string(rec->ahd_version) ||
	    !json_string_length(rec->ahd_version)) {
		strbuf_addstr(&it->reason, "built replay does not validate: "
			      "/ahd_version: must be a non-empty string");
		return -1;
	}
	if (!h->has_n || !isfinite(h->n) || h->n <= 0 || h->n != floor(h->n)) {
		strbuf_addstr(&it->reason, "built replay does not validate: "
			      "/sampling/n: must be an integer > 0");
		return -1;
	}
	if (datetime_parse(h->run_at, strlen(h->run_at), DATETIME_ZOD, NULL,
			   NULL)) {
		strbuf_addstr(&it->reason, "built replay does not validate: "
			      "/invoked_at: invoked_at must be an ISO-8601 "
			      "datetime string.");
		return -1;
	}
	return 0;
}

/*
 * Build the sidecar text for one report; 0, or -1 with it->reason set.
 */
static int build(struct item *it, git_repository *repo, struct strbuf *out)
{
	struct report_header *h = &it->h;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	struct strbuf token_path = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], hash[HASH_HEX_MAX], bhash[HASH_HEX_MAX];
	json_t *version = NULL, *models = json_array();
	json_t *conditions = json_array();
	struct sidecar_record rec;
	int ret = -1, brief = 0;

	git_oid_tostr(hex, sizeof(hex), &it->answer.commit);
	if (git_commit_lookup(&commit, repo, &it->answer.commit) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		strbuf_addf(&it->reason, "cannot read commit %s: %s", hex,
			    lg2_message());
		goto out;
	}
	version = version_at(repo, tree);
	strbuf_addf(&token_path, "tokens/%s.yml", h->token);
	if (hash_token(it, repo, tree, hex, token_path.buf, hash))
		goto out;
	if (h->brief && strcmp(h->kind, "critique") &&
	    (brief = hash_brief(it, repo, tree, hex, bhash)) < 0)
		goto out;
	header_arrays(h, models, conditions);
	memset(&rec, 0, sizeof(rec));
	rec.kind = h->kind;
	rec.ahd_version = version;
	rec.ahd_commit = hex;
	rec.git_dirty = 0;
	rec.node_version = "unknown";
	rec.platform = "unknown";
	rec.invoked_at = h->run_at;
	rec.token.path = token_path.buf;
	rec.token.hash = hash;
	if (brief) {
		rec.brief.path = h->brief;
		rec.brief.hash = bhash;
	}
	rec.n = h->has_n ? h->n : 0;
	rec.models = models;
	rec.requested = conditions;
	rec.effective = conditions;
	rec.backfilled = 1;
	if (validate_record(it, &rec))
		goto out;
	sidecar_to_json(out, &rec);
	ret = 0;
out:
	json_decref(version);
	json_decref(models);
	json_decref(conditions);
	git_tree_free(tree);
	git_commit_free(commit);
	strbuf_release(&token_path);
	return ret;
}

static const struct option backfill_options[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "force", no_argument, NULL, 'f' },
	{ "root", required_argument, NULL, 'r' },
	{ "commit-of", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void progress(size_t done, size_t total)
{
	if (isatty(2))
		fprintf(stderr, "\rbackfill: %zu/%zu reports", done, total);
}

int cmd_backfill(int argc, char **argv)
{
	struct backfill_opts opts = { 0, 0, NULL, HISTORY_LAST };
	struct strbuf root = STRBUF_INIT, scan = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf workdir = STRBUF_INIT;
	struct items items = { NULL, 0, 0 };
	git_repository *repo = NULL;
	const char **paths = NULL;
	struct history_answer *answers = NULL;
	size_t i, npaths = 0, scanned = 0, written = 0, skipped = 0, failed = 0;
	int c, status = 0, truncated = 0;
	git_oid head;
	int have_head = 0, rc;

	reset_getopt();
	while ((c = getopt_long(argc, argv, "+h", backfill_options, NULL)) != -1) {
		switch (c) {
		case 'n':
			opts.dry_run = 1;
			break;
		case 'f':
			opts.force = 1;
			break;
		case 'r':
			opts.root = optarg;
			break;
		case 'c':
			if (!strcmp(optarg, "last"))
				opts.mode = HISTORY_LAST;
			else if (!strcmp(optarg, "first"))
				opts.mode = HISTORY_FIRST;
			else
				usage_error(backfill_usage, "--commit-of takes "
					    "last or first, not '%s'", optarg);
			break;
		case 'h':
			usage_help(backfill_usage);
		default:
			usage_error(backfill_usage, "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		usage_error(backfill_usage, "backfill takes one reports directory");
	if (root_find(&root, ".", opts.root, &err) < 0)
		die("%s", err.buf);
	if (optind < argc) {
		char *real = realpath(argv[optind], NULL);

		if (!real)
			die("cannot read '%s': %s", argv[optind], strerror(errno));
		strbuf_addstr(&scan, real);
		free(real);
	} else
		path_resolve(&scan, root.buf, "docs/evals");

	/* a repository that is there but cannot be read is no untracked one */
	rc = repo_open_git(&repo, root.buf, 0, &err);
	if (rc < 0)
		die("%s", err.buf);
	if (!rc && git_repository_workdir(repo)) {
		char *real = realpath(git_repository_workdir(repo), NULL);

		strbuf_addstr(&workdir, real ? real : "");
		free(real);
		have_head = !git_reference_name_to_id(&head, repo, "HEAD");
	}

	walk_markdown(&items, scan.buf, 0);
	paths = xcalloc(items.nr ? items.nr : 1, sizeof(*paths));
	for (i = 0; i < items.nr; i++) {
		struct item *it = &items.v[i];
		struct strbuf sc = STRBUF_INIT, rel = STRBUF_INIT, text = STRBUF_INIT;
		size_t wl = workdir.len;

		scanned++;
		path_relative(&rel, root.buf, it->path);
		it->rel = strbuf_detach(&rel, NULL);
		sidecar_path_for(&sc, it->path);
		if (!access(sc.buf, F_OK) && !opts.force) {
			it->state = ITEM_SKIPPED;
			skipped++;
			strbuf_release(&sc);
			continue;
		}
		strbuf_release(&sc);
		if (read_file_limited(&text, it->path, 0, &err)) {
			it->state = ITEM_FAILED;
			strbuf_addf(&it->reason, "cannot read the report: %s",
				    err.buf);
			strbuf_reset(&err);
			continue;
		}
		{
			struct strbuf fixed = STRBUF_INIT;

			utf8_repair(&fixed, text.buf, text.len);
			report_header_parse(&it->h, fixed.buf, fixed.len);
			strbuf_release(&fixed);
		}
		strbuf_release(&text);
		if (!it->h.kind || !it->h.token || !*it->h.token ||
		    !it->h.run_at || !*it->h.run_at) {
			it->state = ITEM_FAILED;
			strbuf_addstr(&it->reason, "header did not match the "
				      "expected pattern (need # ahd <kind> · "
				      "<token> · <runAt>)");
			continue;
		}
		if (wl && !strncmp(it->path, workdir.buf, wl) &&
		    it->path[wl] == '/')
			it->repo_path = xstrdup(it->path + wl + 1);
		if (it->repo_path && have_head)
			paths[npaths++] = it->repo_path;
	}

	/* One walk answers every report. */
	answers = xcalloc(npaths ? npaths : 1, sizeof(*answers));
	if (npaths && history_find(repo, &head, paths, npaths, opts.mode,
				   answers, &truncated, &err))
		die("%s", err.buf);
	if (truncated)
		warning("the history is truncated (a shallow clone): commits "
			"older than its boundary were not seen");
	for (i = 0, npaths = 0; i < items.nr; i++) {
		struct item *it = &items.v[i];

		if (it->state != ITEM_TODO)
			continue;
		if (it->repo_path && have_head)
			it->answer = answers[npaths++];
	}

	for (i = 0; i < items.nr; i++) {
		struct item *it = &items.v[i];
		struct strbuf out = STRBUF_INIT;

		progress(i, items.nr);
		if (it->state == ITEM_SKIPPED)
			continue;
		if (it->state == ITEM_FAILED) {
			failed++;
			continue;
		}
		if (!it->answer.found) {
			it->state = ITEM_FAILED;
			failed++;
			strbuf_addstr(&it->reason, "no git commit found for the "
				      "report; needs to be tracked first");
			continue;
		}
		if (build(it, repo, &out)) {
			it->state = ITEM_FAILED;
			failed++;
			strbuf_release(&out);
			continue;
		}
		{
			struct strbuf sc = STRBUF_INIT, rel = STRBUF_INIT;

			sidecar_path_for(&sc, it->path);
			path_relative(&rel, root.buf, sc.buf);
			if (opts.dry_run)
				printf("would write %s\n", rel.buf);
			else if (write_file_atomic(sc.buf, out.buf, out.len,
						   0666, &err)) {
				error("%s", err.buf);
				strbuf_reset(&err);
				status = 2;
			} else
				printf("wrote %s\n", rel.buf);
			written++;
			strbuf_release(&out);
			strbuf_release(&sc);
			strbuf_release(&rel);
		}
	}
	if (isatty(2) && items.nr)
		fputs("\r\033[K", stderr);

	printf("\nbackfill: scanned=%zu written=%zu skipped=%zu failed=%zu\n",
	       scanned, written, skipped, failed);
	if (failed) {
		printf("failures:\n");
		for (i = 0; i < items.nr; i++)
			if (items.v[i].state == ITEM_FAILED)
				printf("  - %s: %s\n", items.v[i].rel,
				       items.v[i].reason.buf);
	}
	if (!status && failed && !opts.dry_run)
		status = 1;

	for (i = 0; i < items.nr; i++) {
		free(items.v[i].path);
		free(items.v[i].rel);
		free(items.v[i].repo_path);
		report_header_release(&items.v[i].h);
		strbuf_release(&items.v[i].reason);
	}
	free(items.v);
	free(paths);
	free(answers);
	git_repository_free(repo);
	strbuf_release(&root);
	strbuf_release(&scan);
	strbuf_release(&err);
	strbuf_release(&workdir);
	return finish_stdout(status);
}
