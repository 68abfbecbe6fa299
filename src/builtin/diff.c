/*
 * ahd-replay diff: compare two sidecars field by field under the field
 * stability table (seed 003; seed 000's "what changes between runs").
 *
 * Stable fields are what the same command must reproduce: the inputs and
 * their hashes, the framework, sampling, models and conditions.  Every
 * other field (wall clock, argv, host, request ids, fields this tool does
 * not know) may differ between runs and is shown only with --all.  Token
 * and brief paths are compared after re-rooting, so a sidecar written on
 * a CI runner (/home/runner/work/ahd/ahd/tokens/x.yml) matches one
 * written in a checkout (tokens/x.yml).
 */
#include "config.h"
#include "builtin.h"
#include "canon.h"
#include "inputpath.h"
#include "jsonout.h"
#include "numfmt.h"
#include "parse-options.h"
#include "repo.h"
#include "root.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"

#include <errno.h>
#include <git2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char diff_usage_text[] =
	"<a> and <b> are reports or sidecars.  Exit status: 0 when every stable\n"
	"field matches, 1 when one differs, 2 on usage errors and unusable input.\n";

struct diff_opts {
	int all;
	int at;
	enum output_format format;
	const char *root;
};

/* Fields the same command must reproduce; "[]" stands for any index. */
static const char *const stable_fields[] = {
	"kind", "ahd_version", "ahd_commit",
	"token.path", "token.hash", "brief.path", "brief.hash",
	"sampling.n", "sampling.temperature", "sampling.seed",
	"models[].id", "models[].provider",
	"conditions.requested", "conditions.effective",
	NULL
};

/*
 * Objects compared member by member, so that one changed member is named
 * rather than the whole object; anything else is compared whole.
 */
static const char *const containers[] = {
	"", "token", "brief", "sampling", "models[]", "conditions", NULL
};

/*
 * The reference's writing order inside token, brief, sampling, models[]
 * and conditions; sidecar_fields has it for the top level.  Differences
 * are listed in sidecar order.
 */
static const char *const member_order[] = {
	"path", "hash", "n", "temperature", "seed",
	"id", "provider", "provider_request_ids", "requested", "effective",
	NULL
};

/* The inputs whose paths are re-rooted, indexing side.rel. */
static const char *const input_fields[] = { "token", "brief" };

struct side {
	struct strbuf name;	/* as shown: the operand, or <rev>:<path> */
	struct sidecar sc;
	/* token and brief paths relative to the root; empty: as recorded */
	struct strbuf rel[2];
	int rerooted[2];
};

struct difference {
	char *field;
	int stable;
	json_t *a, *b;		/* borrowed from the sidecars; NULL: absent */
};

struct diff {
	struct side *a, *b;
	struct difference *items;
	size_t nr, alloc;
	size_t nr_stable, nr_volatile;
	struct strbuf notes;	/* one per line */
};

static int list_rank(const char *const *list, const char *key,
		     size_t *rank)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (!strcmp(list[i], key)) {
			*rank = i;
			return 1;
		}
	return 0;
}

/*
 * Ranks only ever compare siblings, so the two lists never meet; fields
 * in neither come last, by name.
 */
static size_t key_rank(const char *key)
{
	size_t rank;

	if (list_rank(sidecar_fields, key, &rank) ||
	    list_rank(member_order, key, &rank))
		return rank;
	return SIZE_MAX;
}

static int cmp_keys(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	size_t ra = key_rank(a), rb = key_rank(b);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a, b);
}

/* Which of the two re-rooted paths a field is, or -1. */
static int path_field(const char *pattern)
{
	if (!strcmp(pattern, "token.path"))
		return 0;
	if (!strcmp(pattern, "brief.path"))
		return 1;
	return -1;
}

static int leaf_equal(const struct diff *d, const char *pattern,
		      const json_t *a, const json_t *b)
{
	int pf = path_field(pattern);

	if (!a || !b)
		return !a && !b;
	if (pf >= 0 && json_is_string(a) && json_is_string(b) &&
	    d->a->rel[pf].len && d->b->rel[pf].len)
		return !strcmp(d->a->rel[pf].buf, d->b->rel[pf].buf);
	return json_equal((json_t *)a, (json_t *)b);
}

static void add_difference(struct diff *d, const char *field, int stable,
			   json_t *a, json_t *b)
{
	struct difference *it;

	ALLOC_GROW(d->items, d->nr + 1, d->alloc);
	it = &d->items[d->nr++];
	it->field = xstrdup(field);
	it->stable = stable;
	it->a = a;
	it->b = b;
	if (stable)
		d->nr_stable++;
	else
		d->nr_volatile++;
}

static void walk(struct diff *d, struct strbuf *path, struct strbuf *pattern,
		 json_t *a, json_t *b);

static void walk_member(struct diff *d, struct strbuf *path,
			struct strbuf *pattern, const char *sep,
			const char *key, json_t *a, json_t *b)
{
	size_t plen = path->len, qlen = pattern->len;

	strbuf_addf(path, "%s%s", plen ? sep : "", key);
	strbuf_addf(pattern, "%s%s", qlen ? sep : "", key);
	walk(d, path, pattern, a, b);
	strbuf_setlen(path, plen);
	strbuf_setlen(pattern, qlen);
}

static int object_or_null(const json_t *v)
{
	return !v || json_is_object(v) || json_is_null(v);
}

/*
 * Members of an object on either side.  A side that is null (a critique
 * run's brief) lends its null to every member, so the difference reads
 * "brief.path  null  briefs/x.md" rather than naming the whole object.
 */
static void walk_object(struct diff *d, struct strbuf *path,
			struct strbuf *pattern, json_t *a, json_t *b)
{
	const char **keys = NULL;
	size_t nr = 0, alloc = 0, i;
	json_t *sides[2] = { a, b }, *v;
	const char *key;
	int s;

	for (s = 0; s < 2; s++) {
		if (!json_is_object(sides[s]))
			continue;
		json_object_foreach(sides[s], key, v) {
			if (s && json_object_get(a, key))
				continue;
			ALLOC_GROW(keys, nr + 1, alloc);
			keys[nr++] = key;
		}
	}
	if (nr)
		qsort(keys, nr, sizeof(*keys), cmp_keys);
	for (i = 0; i < nr; i++)
		walk_member(d, path, pattern, ".", keys[i],
			    json_is_object(a) ? json_object_get(a, keys[i]) : a,
			    json_is_object(b) ? json_object_get(b, keys[i]) : b);
	free(keys);
}

/* Models pair up by position: the reference writes them in command order. */
static void walk_models(struct diff *d, struct strbuf *path,
			struct strbuf *pattern, json_t *a, json_t *b)
{
	size_t na = json_array_size(a), nb = json_array_size(b), i;
	size_t plen = path->len, qlen = pattern->len;

	strbuf_addstr(pattern, "[]");
	for (i = 0; i < (na > nb ? na : nb); i++) {
		strbuf_addf(path, "[%zu]", i);
		walk(d, path, pattern, json_array_get(a, i),
		     json_array_get(b, i));
		strbuf_setlen(path, plen);
	}
	strbuf_setlen(pattern, qlen);
}

static void walk(struct diff *d, struct strbuf *path, struct strbuf *pattern,
		 json_t *a, json_t *b)
{
	if (str_in_list(containers, pattern->buf) && object_or_null(a) &&
	    object_or_null(b) && (json_is_object(a) || json_is_object(b))) {
		walk_object(d, path, pattern, a, b);
		return;
	}
	if (!strcmp(pattern->buf, "models") &&
	    (!a || json_is_array(a)) && (!b || json_is_array(b))) {
		walk_models(d, path, pattern, a, b);
		return;
	}
	if (!leaf_equal(d, pattern->buf, a, b))
		add_difference(d, path->buf, str_in_list(stable_fields,
						     pattern->buf), a, b);
}

static void note_paths(struct diff *d)
{
	struct side *sides[2] = { d->a, d->b };
	int f, s;

	for (f = 0; f < 2; f++) {
		for (s = 0; s < 2; s++) {
			json_t *in = json_object_get(sides[s]->sc.json,
						     input_fields[f]);

			if (sides[s]->rerooted[f])
				strbuf_addf(&d->notes, "%s: %s.path %s "
					    "re-rooted to %s\n",
					    sides[s]->name.buf, input_fields[f],
					    json_string_value(json_object_get(in, "path")),
					    sides[s]->rel[f].buf);
		}
	}
}

/* --- values as text -------------------------------------------------- */

/*
 * Strings print bare (they are paths, hashes, versions) unless quoting
 * is needed to keep them on one line or tell them from other values.
 */
static void add_value(struct strbuf *out, const json_t *v)
{
	const char *s;

	if (!v) {
		strbuf_addstr(out, "(absent)");
		return;
	}
	if (json_is_string(v)) {
		s = json_string_value(v);
		if (*s && !strpbrk(s, " \t\r\n\"\\") &&
		    strcmp(s, "null") && strcmp(s, "true") &&
		    strcmp(s, "false") && strcmp(s, "(absent)") &&
		    strlen(s) == json_string_length(v)) {
			size_t i;

			for (i = 0; s[i] && (unsigned char)s[i] >= 0x20 &&
			     s[i] != 0x7f; i++)
				;
			if (!s[i]) {
				strbuf_addstr(out, s);
				return;
			}
		}
	}
	jsonout_write(out, v, JSONOUT_SPACED, 0);
}

/* --- output ---------------------------------------------------------- */

static void print_table(const struct diff *d, int stable)
{
	struct strbuf *va, *vb;
	size_t i, n = 0, wf = strlen("field"), wa = d->a->name.len;

	va = xcalloc(d->nr, sizeof(*va));
	vb = xcalloc(d->nr, sizeof(*vb));
	for (i = 0; i < d->nr; i++) {
		if (d->items[i].stable != stable)
			continue;
		strbuf_init(&va[i], 0);
		strbuf_init(&vb[i], 0);
		add_value(&va[i], d->items[i].a);
		add_value(&vb[i], d->items[i].b);
		if (strlen(d->items[i].field) > wf)
			wf = strlen(d->items[i].field);
		if (va[i].len > wa)
			wa = va[i].len;
		n++;
	}
	if (n) {
		printf("  %-*s  %-*s  %s\n", (int)wf, "field", (int)wa,
		       d->a->name.buf, d->b->name.buf);
		for (i = 0; i < d->nr; i++)
			if (d->items[i].stable == stable)
				printf("  %-*s  %-*s  %s\n", (int)wf,
				       d->items[i].field, (int)wa, va[i].buf,
				       vb[i].buf);
	}
	for (i = 0; i < d->nr; i++) {
		strbuf_release(&va[i]);
		strbuf_release(&vb[i]);
	}
	free(va);
	free(vb);
}

static void print_count(size_t n, const char *kind)
{
	if (!n)
		printf("%s fields match\n", kind);
	else
		printf("%zu %s %s\n", n, kind,
		       n == 1 ? "field differs" : "fields differ");
}

static void print_text(const struct diff *d, const struct diff_opts *opts)
{
	const char *p, *nl;

	print_count(d->nr_stable, "stable");
	print_table(d, 1);
	if (opts->all) {
		print_count(d->nr_volatile, "volatile");
		print_table(d, 0);
	}
	for (p = d->notes.buf; (nl = strchr(p, '\n')); p = nl + 1)
		printf("note: %.*s\n", (int)(nl - p), p);
}

static void print_json(const struct diff *d, const struct diff_opts *opts,
		       int status)
{
	json_t *doc = json_object(), *list = json_array(), *notes = json_array();
	const char *p, *nl;
	size_t i;

	for (i = 0; i < d->nr; i++) {
		const struct difference *it = &d->items[i];
		json_t *o;

		if (!it->stable && !opts->all)
			continue;
		o = json_object();
		json_object_set_new(o, "field", json_string(it->field));
		json_object_set_new(o, "stable", json_boolean(it->stable));
		/* An absent value has no key: null is a value of its own. */
		if (it->a)
			json_object_set(o, "a", it->a);
		if (it->b)
			json_object_set(o, "b", it->b);
		json_array_append_new(list, o);
	}
	for (p = d->notes.buf; (nl = strchr(p, '\n')); p = nl + 1)
		json_array_append_new(notes, json_stringn(p, (size_t)(nl - p)));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "a", json_string(d->a->name.buf));
	json_object_set_new(doc, "b", json_string(d->b->name.buf));
	json_object_set_new(doc, "stable_fields_match",
			    json_boolean(!d->nr_stable));
	json_object_set_new(doc, "stable_differences",
			    json_integer((json_int_t)d->nr_stable));
	json_object_set_new(doc, "volatile_differences",
			    json_integer((json_int_t)d->nr_volatile));
	json_object_set_new(doc, "differences", list);
	json_object_set_new(doc, "notes", notes);
	json_object_set_new(doc, "exit_status", json_integer(status));
	jsonout_print(doc);
	json_decref(doc);
}

/* --- loading --------------------------------------------------------- */

static void side_init(struct side *s)
{
	struct sidecar init = SIDECAR_INIT;

	strbuf_init(&s->name, 0);
	s->sc = init;
	strbuf_init(&s->rel[0], 0);
	strbuf_init(&s->rel[1], 0);
	s->rerooted[0] = s->rerooted[1] = 0;
}

static void side_release(struct side *s)
{
	strbuf_release(&s->name);
	sidecar_release(&s->sc);
	strbuf_release(&s->rel[0]);
	strbuf_release(&s->rel[1]);
}

static void dir_of(struct strbuf *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		strbuf_addch(out, '.');
	else if (slash == path)
		strbuf_addch(out, '/');
	else
		strbuf_add(out, path, (size_t)(slash - path));
}

/*
 * Re-root the token and brief paths.  Nothing is read: a path that
 * cannot be resolved (gone, outside the root, ambiguous) is compared as
 * recorded.
 */
static void resolve_paths(struct side *s, const char *root,
			  const struct input_tree *tree)
{
	int f;

	for (f = 0; f < 2; f++) {
		struct resolved_input in = RESOLVED_INPUT_INIT;
		const char *recorded = json_string_value(json_object_get(
			json_object_get(s->sc.json, input_fields[f]), "path"));

		if (!recorded)
			continue;
		input_resolve(&in, root, recorded, tree, 0);
		if (in.status == INPUT_OK || in.status == INPUT_NOT_FOUND) {
			strbuf_addbuf(&s->rel[f], &in.rel);
			s->rerooted[f] = in.rerooted;
		}
		resolved_input_release(&in);
	}
}

static int load_file(struct side *s, const char *operand, const char *given)
{
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT, root = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	sidecar_path_for(&path, operand);
	strbuf_addstr(&s->name, operand);
	if (sidecar_load(&s->sc, path.buf, &err)) {
		error("%s: %s", path.buf, err.buf);
		goto out;
	}
	dir_of(&dir, path.buf);
	if (root_find(&root, dir.buf, given, &err) < 0) {
		error("%s: %s", path.buf, err.buf);
		goto out;
	}
	resolve_paths(s, root.buf, NULL);
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&dir);
	strbuf_release(&root);
	strbuf_release(&err);
	return ret;
}

/* The repository, and where the report and the root lie inside it. */
struct at_repo {
	git_repository *repo;
	struct strbuf sidecar;	/* relative to the work tree */
	struct strbuf root;	/* absolute */
	struct strbuf prefix;	/* the root relative to the work tree, "" or "dir/" */
};

static int open_repo(struct at_repo *r, const char *report, const char *given)
{
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT, err = STRBUF_INIT;
	char *real_dir = NULL, *real_wd = NULL;
	const char *base;
	size_t n;
	int ret = -1;

	sidecar_path_for(&path, report);
	dir_of(&dir, path.buf);
	real_dir = realpath(dir.buf, NULL);
	if (!real_dir) {
		error("%s: %s", dir.buf, strerror(errno));
		goto out;
	}
	if (repo_open_git(&r->repo, real_dir, 0, &err) ||
	    !git_repository_workdir(r->repo)) {
		error("--at needs a git work tree around %s: %s", real_dir,
		      err.len ? err.buf : "not a repository");
		goto out;
	}
	real_wd = realpath(git_repository_workdir(r->repo), NULL);
	if (!real_wd) {
		error("cannot resolve the work tree: %s", strerror(errno));
		goto out;
	}
	n = strlen(real_wd);
	/* realpath gives "/" only for the root directory itself. */
	if (n == 1)
		n = 0;
	if (strncmp(real_dir, real_wd, n) || (real_dir[n] && real_dir[n] != '/')) {
		error("%s is not inside the work tree %s", real_dir, real_wd);
		goto out;
	}
	base = strrchr(path.buf, '/') ? strrchr(path.buf, '/') + 1 : path.buf;
	if (real_dir[n])
		strbuf_addf(&r->sidecar, "%s/", real_dir + n + 1);
	strbuf_addstr(&r->sidecar, base);
	if (root_find(&r->root, real_dir, given, &err) < 0) {
		error("%s: %s", path.buf, err.buf);
		goto out;
	}
	if (strcmp(r->root.buf, real_wd)) {
		if (strncmp(r->root.buf, real_wd, n) || r->root.buf[n] != '/') {
			error("the root %s is not inside the repository %s",
			      r->root.buf, real_wd);
			goto out;
		}
		strbuf_addf(&r->prefix, "%s/", r->root.buf + n + 1);
	}
	ret = 0;
out:
	free(real_dir);
	free(real_wd);
	strbuf_release(&path);
	strbuf_release(&dir);
	strbuf_release(&err);
	return ret;
}

static int load_at(struct side *s, const struct at_repo *r, const char *rev)
{
	git_object *obj = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	struct input_tree it;
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&s->name, "%s:%s", rev, r->sidecar.buf);
	if (git_revparse_single(&obj, r->repo, rev) < 0 ||
	    git_object_peel((git_object **)&commit, obj,
			    GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		error("cannot resolve '%s' to a commit: %s", rev,
		      lg2_message());
		goto out;
	}
	if (git_tree_entry_bypath(&entry, tree, r->sidecar.buf) < 0 ||
	    git_tree_entry_type(entry) != GIT_OBJECT_BLOB ||
	    git_blob_lookup(&blob, r->repo, git_tree_entry_id(entry)) < 0) {
		error("%s: no replay sidecar at that commit", s->name.buf);
		goto out;
	}
	if (sidecar_parse(&s->sc, git_blob_rawcontent(blob),
			  (size_t)git_blob_rawsize(blob), &err)) {
		error("%s: %s", s->name.buf, err.buf);
		goto out;
	}
	it.repo = r->repo;
	it.tree = tree;
	it.index = NULL;
	it.commit = git_commit_id(commit);
	it.prefix = r->prefix.buf;
	resolve_paths(s, r->root.buf, &it);
	ret = 0;
out:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	git_tree_free(tree);
	git_commit_free(commit);
	git_object_free(obj);
	strbuf_release(&err);
	return ret;
}

static int load_sides(struct side *a, struct side *b, char **argv,
		      const struct diff_opts *opts)
{
	struct at_repo r = { NULL, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	int ret;

	/* Both sides are loaded even when the first fails: one run, every error. */
	if (!opts->at) {
		ret = load_file(a, argv[0], opts->root);
		return load_file(b, argv[1], opts->root) ? -1 : ret;
	}
	ret = open_repo(&r, argv[2], opts->root);
	if (!ret) {
		ret = load_at(a, &r, argv[0]);
		if (load_at(b, &r, argv[1]))
			ret = -1;
	}
	git_repository_free(r.repo);
	strbuf_release(&r.sidecar);
	strbuf_release(&r.root);
	strbuf_release(&r.prefix);
	return ret;
}

/* --- driver ---------------------------------------------------------- */

int cmd_diff(int argc, char **argv)
{
	struct diff_opts opts = { 0, 0, FORMAT_TEXT, NULL };
	struct side a, b;
	struct diff d;
	struct strbuf path = STRBUF_INIT, pattern = STRBUF_INIT;
	size_t i;
	int status = 2;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "all", &opts.all, "also show volatile fields that "
			 "differ (invoked_at, argv, node_version, platform, "
			 "git_dirty, request ids, unknown fields)"),
		OPT_FORMAT(&opts.format, 0, "text (default) or json"),
		OPT_STRING(0, "root", &opts.root, "<dir>", "recorded paths "
			   "are relative to <dir>"),
		OPT_BOOL_F(0, "at", &opts.at, "compare <report>'s sidecar at "
			   "two commits", OPT_NO_SYNOPSIS),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"diff", OPERANDS("<a> <b>", "--at <rev1> <rev2> <report>"),
		options, diff_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc != (opts.at ? 3 : 2))
		usage_msg_opt(&usage, opts.at ?
			      "--at wants <rev1> <rev2> <report>" :
			      "diff wants two reports or sidecars");
	side_init(&a);
	side_init(&b);
	memset(&d, 0, sizeof(d));
	strbuf_init(&d.notes, 0);
	d.a = &a;
	d.b = &b;
	if (!load_sides(&a, &b, argv, &opts)) {
		walk(&d, &path, &pattern, a.sc.json, b.sc.json);
		note_paths(&d);
		status = d.nr_stable ? 1 : 0;
		if (opts.format == FORMAT_JSON)
			print_json(&d, &opts, status);
		else
			print_text(&d, &opts);
	}
	for (i = 0; i < d.nr; i++)
		free(d.items[i].field);
	free(d.items);
	strbuf_release(&d.notes);
	strbuf_release(&path);
	strbuf_release(&pattern);
	side_release(&a);
	side_release(&b);
	return finish_stdout(status);
}
