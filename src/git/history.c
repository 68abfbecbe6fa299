/*
 * One revision walk for many paths.
 *
 * For a single path, git's default simplification makes `git log -1`
 * follow a chain: from HEAD, a commit that is TREESAME to a parent for
 * the path passes on to the first such parent; the first commit that is
 * TREESAME to none of its parents (a root commit that has the path) is
 * the answer.  Each path is therefore pending at exactly one commit at a
 * time, and many paths travel together along the same commits.  Commits
 * are processed newest first by committer date so that paths arriving
 * from several children are handled in one visit; a commit reached again
 * after its visit (clock skew) is simply visited again for the late
 * paths.
 *
 * Comparing a commit's tree with a parent's for a set of paths descends
 * only into subtrees whose ids differ, one path component at a time.
 */
#include "config.h"
#include "history.h"
#include "repo.h"
#include "usage.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hpath {
	const char *path;
	size_t index;		/* in the caller's array */
};

struct node {
	git_oid oid;
	int64_t time;		/* committer date */
	uint64_t seq;
	size_t *pending;	/* indices into the sorted path array */
	size_t nr, alloc;
	int queued;
	int parsed;
	git_tree *tree_obj;	/* read as a parent's tree, kept for the visit */
	git_oid tree;
	git_oid *parents;	/* parent_v, or allocated for more */
	unsigned nparents;
	git_oid parent_v[2];
};

/* Nodes are allocated NODE_CHUNK at a time: a walk makes one per commit. */
#define NODE_CHUNK 1024

struct node_chunk {
	struct node_chunk *next;
	size_t used;
	struct node v[NODE_CHUNK];
};

struct walk {
	git_repository *repo;
	git_odb *odb;
	struct hpath *paths;
	size_t npaths;
	enum history_mode mode;
	struct history_answer *answers;
	unsigned char *done;	/* per sorted path: answered (last mode) */
	size_t remaining;
	int truncated;

	struct node **table;	/* open addressing by oid */
	size_t table_size, nodes;
	struct node_chunk *chunks;	/* the newest first */
	struct node **heap;
	size_t heap_nr, heap_alloc;
	uint64_t seq;
	struct strbuf *err;
	int (*shown)(void *data, const git_oid *commit);
	void *shown_data;
	int stop;

	/*
	 * By sorted path index: how many components, and for each depth d
	 * the first sorted index past the paths that share the first d+1
	 * components with it.
	 */
	int *ncomp;
	size_t **gend;
	int maxdepth;

	git_oid *shallow;	/* .git/shallow, sorted: git's roots */
	size_t nshallow;

	/*
	 * The subtrees diff_paths() read last, KEPT_TREES per depth: the
	 * ones of a commit's parent are the ones its next visit compares.
	 */
	git_tree **kept;
	size_t *kept_next;

	/*
	 * visit()'s scratch, kept from one visit to the next: a visit per
	 * commit of a long history must not cost allocations per path.
	 */
	unsigned char *differ;	/* per parent, per pending path */
	size_t differ_alloc;
	size_t *fwd;		/* per parent, the paths it is given */
	size_t fwd_alloc;
	size_t *nfwd;
	size_t nfwd_alloc;
};

static int oid_cmp(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

/* The commits a shallow clone lists in .git/shallow. */
static void load_shallow(struct walk *w)
{
	struct strbuf path = STRBUF_INIT;
	char line[GIT_OID_HEXSZ + 8];
	size_t alloc = 0;
	FILE *f;

	strbuf_addf(&path, "%sshallow", git_repository_commondir(w->repo));
	f = fopen(path.buf, "r");
	strbuf_release(&path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		ALLOC_GROW(w->shallow, w->nshallow + 1, alloc);
		if (!git_oid_fromstrn(&w->shallow[w->nshallow], line,
				      GIT_OID_HEXSZ))
			w->nshallow++;
	}
	fclose(f);
	if (w->nshallow)
		qsort(w->shallow, w->nshallow, sizeof(*w->shallow), oid_cmp);
}

/* Order paths so that those sharing a leading component are adjacent. */
static int path_cmp(const void *pa, const void *pb)
{
	const unsigned char *a = (const unsigned char *)((const struct hpath *)pa)->path;
	const unsigned char *b = (const unsigned char *)((const struct hpath *)pb)->path;

	for (;; a++, b++) {
		unsigned ca = *a == '/' ? 1 : *a ? *a + 1u : 0;
		unsigned cb = *b == '/' ? 1 : *b ? *b + 1u : 0;

		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (!ca)
			return 0;
	}
}

static size_t oid_hash(const git_oid *oid)
{
	size_t h;

	memcpy(&h, oid->id, sizeof(h));
	return h;
}

static void table_grow(struct walk *w)
{
	struct node **old = w->table;
	size_t old_size = w->table_size, i;

	w->table_size = old_size ? old_size * 2 : 1024;
	w->table = xcalloc(w->table_size, sizeof(*w->table));
	for (i = 0; i < old_size; i++) {
		struct node *n = old[i];
		size_t j;

		if (!n)
			continue;
		j = oid_hash(&n->oid) & (w->table_size - 1);
		while (w->table[j])
			j = (j + 1) & (w->table_size - 1);
		w->table[j] = n;
	}
	free(old);
}

static struct node *node_get(struct walk *w, const git_oid *oid)
{
	size_t j;

	if ((w->nodes + 1) * 2 > w->table_size)
		table_grow(w);
	j = oid_hash(oid) & (w->table_size - 1);
	while (w->table[j]) {
		if (git_oid_equal(&w->table[j]->oid, oid))
			return w->table[j];
		j = (j + 1) & (w->table_size - 1);
	}
	if (!w->chunks || w->chunks->used == NODE_CHUNK) {
		struct node_chunk *c = xmalloc(sizeof(*c));

		c->next = w->chunks;
		c->used = 0;
		w->chunks = c;
	}
	w->table[j] = &w->chunks->v[w->chunks->used++];
	memset(w->table[j], 0, sizeof(struct node));
	git_oid_cpy(&w->table[j]->oid, oid);
	w->nodes++;
	return w->table[j];
}

/* Newest first; among equal dates, first queued first (as git does). */
static int heap_before(const struct node *a, const struct node *b)
{
	if (a->time != b->time)
		return a->time > b->time;
	return a->seq < b->seq;
}

static void heap_push(struct walk *w, struct node *n)
{
	size_t i;

	n->queued = 1;
	n->seq = w->seq++;
	ALLOC_GROW(w->heap, w->heap_nr + 1, w->heap_alloc);
	i = w->heap_nr++;
	while (i && heap_before(n, w->heap[(i - 1) / 2])) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = n;
}

static struct node *heap_pop(struct walk *w)
{
	struct node *top = w->heap[0], *last = w->heap[--w->heap_nr];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= w->heap_nr)
			break;
		if (c + 1 < w->heap_nr && heap_before(w->heap[c + 1], w->heap[c]))
			c++;
		if (!heap_before(w->heap[c], last))
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->heap_nr)
		w->heap[i] = last;
	top->queued = 0;
	return top;
}

/* Merge the sorted, distinct list into n's sorted pending set. */
static void add_pending_list(struct walk *w, struct node *n,
			     const size_t *list, size_t nr)
{
	size_t *merged, i = 0, j = 0, k = 0;

	if (!nr)
		return;
	if (!n->nr) {
		ALLOC_GROW(n->pending, nr, n->alloc);
		memcpy(n->pending, list, nr * sizeof(*list));
		n->nr = nr;
	} else {
		merged = xmalloc((n->nr + nr) * sizeof(*merged));
		while (i < n->nr || j < nr) {
			if (j == nr || (i < n->nr && n->pending[i] < list[j]))
				merged[k++] = n->pending[i++];
			else if (i == n->nr || list[j] < n->pending[i])
				merged[k++] = list[j++];
			else {
				merged[k++] = list[j++];
				i++;
			}
		}
		free(n->pending);
		n->pending = merged;
		n->nr = n->alloc = k;
	}
	if (!n->queued)
		heap_push(w, n);
}

/* Component `depth` of path: its start and length. */
static const char *component(const char *path, int depth, size_t *len)
{
	const char *p = path, *slash;

	while (depth-- > 0) {
		slash = strchr(p, '/');
		if (!slash)
			return NULL;
		p = slash + 1;
	}
	slash = strchr(p, '/');
	*len = slash ? (size_t)(slash - p) : strlen(p);
	return p;
}

#define KEPT_TREES 4

/*
 * The tree id, a subtree at depth: one kept from the last visits, or
 * read and kept.  A commit's subtree that differs from its parent's is
 * read on both sides, and the parent's side is the next visit's
 * commit's side: without the keeping, each is read twice.
 */
static int subtree(struct walk *w, git_tree **out, const git_oid *id,
		   int depth)
{
	git_tree **k = w->kept + (size_t)depth * KEPT_TREES;
	size_t i;

	for (i = 0; i < KEPT_TREES; i++)
		if (k[i] && git_oid_equal(git_tree_id(k[i]), id))
			return git_object_dup((git_object **)out,
					      (git_object *)k[i]);
	if (git_tree_lookup(out, w->repo, id) < 0)
		return -1;
	i = w->kept_next[depth];
	git_tree_free(k[i]);
	git_object_dup((git_object **)&k[i], (git_object *)*out);
	w->kept_next[depth] = (i + 1) % KEPT_TREES;
	return 0;
}

/*
 * Mark in differ[] the paths of pend[lo..hi) whose entries differ between
 * trees a and b (either may be NULL: absent).  All paths in the range
 * share their first `depth` components.
 */
static int diff_paths(struct walk *w, git_tree *a, git_tree *b, int depth,
		      const size_t *pend, size_t lo, size_t hi,
		      unsigned char *differ)
{
	size_t i = lo;
	char name[4096];

	while (i < hi) {
		const git_tree_entry *ea = NULL, *eb = NULL;
		git_tree *sa = NULL, *sb = NULL;
		size_t len, j, k;
		const char *c = depth < w->maxdepth ?
			component(w->paths[pend[i]].path, depth, &len) : NULL;
		int ret = 0;

		if (!c || len >= sizeof(name)) {
			differ[i++] = 1;
			continue;
		}
		{
			/* The group's end in pend[], by binary search. */
			size_t e = w->gend[depth][pend[i]], l = i + 1, r = hi;

			while (l < r) {
				size_t m = l + (r - l) / 2;

				if (pend[m] < e)
					l = m + 1;
				else
					r = m;
			}
			j = l;
		}
		memcpy(name, c, len);
		name[len] = '\0';
		if (a)
			ea = git_tree_entry_byname(a, name);
		if (b)
			eb = git_tree_entry_byname(b, name);
		if (!ea && !eb) {
			i = j;
			continue;
		}
		if (ea && eb && git_oid_equal(git_tree_entry_id(ea),
					      git_tree_entry_id(eb)) &&
		    git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb)) {
			i = j;
			continue;
		}
		/* Paths ending here differ; longer ones need a look inside. */
		for (k = i; k < j; k++)
			if (w->ncomp[pend[k]] == depth + 1)
				differ[k] = 1;
		if (ea && git_tree_entry_type(ea) == GIT_OBJECT_TREE &&
		    subtree(w, &sa, git_tree_entry_id(ea), depth) < 0)
			ret = -1;
		if (!ret && eb && git_tree_entry_type(eb) == GIT_OBJECT_TREE &&
		    subtree(w, &sb, git_tree_entry_id(eb), depth) < 0)
			ret = -1;
		if (!ret) {
			/* Recurse over the paths that go deeper, a run at a time. */
			size_t s = i;

			while (s < j) {
				size_t e = s;

				while (e < j && differ[e])
					e++;
				s = e;
				while (e < j && !differ[e])
					e++;
				if (s < e && diff_paths(w, sa, sb, depth + 1,
							pend, s, e, differ))
					ret = -1;
				s = e;
			}
		}
		git_tree_free(sa);
		git_tree_free(sb);
		if (ret) {
			strbuf_addf(w->err, "cannot read a tree: %s",
				    lg2_message());
			return -1;
		}
		i = j;
	}
	return 0;
}

/* Does path (a sorted index) exist in tree? */
static int path_exists(git_tree *tree, const char *path)
{
	git_tree_entry *e = NULL;
	int found = !git_tree_entry_bypath(&e, tree, path);

	git_tree_entry_free(e);
	return found;
}

static void answer(struct walk *w, size_t p, const git_oid *commit)
{
	struct history_answer *a = &w->answers[w->paths[p].index];

	git_oid_cpy(&a->commit, commit);
	a->found = 1;
	if (w->shown && w->shown(w->shown_data, commit))
		w->stop = 1;
	if (w->mode == HISTORY_LAST && !w->done[p]) {
		w->done[p] = 1;
		w->remaining--;
	}
}

/*
 * A commit's tree, parents and committer date, read from the raw object:
 * the walk needs nothing else, and libgit2's full parse (author, message,
 * signatures) costs more than the walk itself.
 */
static int node_parse(struct walk *w, struct node *n)
{
	git_odb_object *obj = NULL;
	const char *p, *end, *line, *q;
	unsigned count = 0;
	int ret = -1;

	if (n->parsed)
		return 0;
	if (git_odb_read(&obj, w->odb, &n->oid) < 0 ||
	    git_odb_object_type(obj) != GIT_OBJECT_COMMIT)
		goto out;
	p = git_odb_object_data(obj);
	end = p + git_odb_object_size(obj);
	if (end - p < 5 + GIT_OID_HEXSZ || memcmp(p, "tree ", 5) ||
	    git_oid_fromstrn(&n->tree, p + 5, GIT_OID_HEXSZ) < 0)
		goto out;
	p += 5 + GIT_OID_HEXSZ + 1;
	for (q = p; end - q > 7 + GIT_OID_HEXSZ && !memcmp(q, "parent ", 7);
	     q += 7 + GIT_OID_HEXSZ + 1)
		count++;
	/* most commits have one parent, merges two: no allocation */
	if (n->parents != n->parent_v)
		free(n->parents);
	n->parents = count <= 2 ? n->parent_v :
		xmalloc(count * sizeof(*n->parents));
	for (n->nparents = 0; n->nparents < count; n->nparents++) {
		if (git_oid_fromstrn(&n->parents[n->nparents], p + 7,
				     GIT_OID_HEXSZ) < 0)
			goto out;
		p += 7 + GIT_OID_HEXSZ + 1;
	}
	/* "committer Name <email> 1700000000 +0000" */
	for (line = p; line < end; ) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));

		if (!nl || nl == line)
			break;
		if ((size_t)(nl - line) > 10 && !memcmp(line, "committer ", 10)) {
			const char *gt = line;
			const char *q;

			for (q = line; q < nl; q++)
				if (*q == '>')
					gt = q;
			n->time = strtoll(gt + 1, NULL, 10);
			break;
		}
		line = nl + 1;
	}
	n->parsed = 1;
	ret = 0;
out:
	git_odb_object_free(obj);
	return ret;
}

/*
 * Give parent p the sorted paths list[0..nr), allocated with room for
 * alloc, which it takes: a parent with none pending keeps the list
 * itself (the common case, a commit passing all its paths to its first
 * parent, costs no copy), else the two are merged.
 */
static void give_pending(struct walk *w, struct node *p, size_t *list,
			 size_t nr, size_t alloc)
{
	if (p->nr) {
		add_pending_list(w, p, list, nr);
		free(list);
		return;
	}
	free(p->pending);
	p->pending = list;
	p->nr = nr;
	p->alloc = alloc;
	if (!p->queued)
		heap_push(w, p);
}

/*
 * The paths pend[0..np) of a commit with nparents parents, compared
 * with ndiffed of them (differ, np bytes per parent): each goes to the
 * first parent it is TREESAME to, or is answered here (and in "first"
 * mode goes on to every parent).
 */
static void forward(struct walk *w, struct node *n, struct node **parents,
		    unsigned nparents, unsigned ndiffed, const size_t *pend,
		    size_t np, const unsigned char *differ)
{
	size_t k, *nfwd;
	unsigned j;

	ALLOC_GROW(w->fwd, (size_t)nparents * np, w->fwd_alloc);
	ALLOC_GROW(w->nfwd, nparents, w->nfwd_alloc);
	nfwd = w->nfwd;
	memset(nfwd, 0, nparents * sizeof(*nfwd));
	for (k = 0; k < np; k++) {
		for (j = 0; j < ndiffed && differ[j * np + k]; j++)
			;
		if (j < ndiffed) {
			/* TREESAME to parent j: follow it alone. */
			w->fwd[j * np + nfwd[j]++] = pend[k];
			continue;
		}
		answer(w, pend[k], &n->oid);
		if (w->mode == HISTORY_FIRST)
			for (j = 0; j < nparents; j++)
				w->fwd[j * np + nfwd[j]++] = pend[k];
	}
	for (j = 0; j < nparents; j++)
		if (nfwd[j])
			add_pending_list(w, parents[j], w->fwd + j * np,
					 nfwd[j]);
}

static int visit(struct walk *w, struct node *n)
{
	git_tree *tree = NULL;
	struct node **parents = NULL;
	git_tree **ptrees = NULL;
	size_t *pend = NULL, pend_alloc, np = 0, i, k;
	unsigned nparents = 0, j, ndiffed;
	int ret = -1, root = 0;

	/*
	 * Take the pending paths (sorted, distinct); late arrivals
	 * re-queue the node.
	 */
	pend = n->pending;
	pend_alloc = n->alloc;
	for (i = 0; i < n->nr; i++)
		if (!w->done[pend[i]])
			pend[np++] = pend[i];
	n->pending = NULL;
	n->nr = n->alloc = 0;
	if (!np) {
		ret = 0;
		goto out;
	}
	if (node_parse(w, n) < 0)
		goto lg2_fail;
	if (n->tree_obj) {
		tree = n->tree_obj;
		n->tree_obj = NULL;
	} else if (git_tree_lookup(&tree, w->repo, &n->tree) < 0)
		goto lg2_fail;
	nparents = n->nparents;
	parents = xcalloc(nparents ? nparents : 1, sizeof(*parents));
	ptrees = xcalloc(nparents ? nparents : 1, sizeof(*ptrees));
	if (w->nshallow && bsearch(&n->oid, w->shallow, w->nshallow,
				   sizeof(*w->shallow), oid_cmp)) {
		/* A shallow clone's boundary: git treats it as a root. */
		w->truncated = 1;
		for (k = 0; k < np; k++)
			w->answers[w->paths[pend[k]].index].truncated = 1;
		root = 1;
		nparents = 0;
	}
	for (j = 0; j < nparents; j++) {
		parents[j] = node_get(w, &n->parents[j]);
		if (node_parse(w, parents[j]) < 0)
			goto lg2_fail;
		if (!parents[j]->tree_obj &&
		    git_tree_lookup(&parents[j]->tree_obj, w->repo,
				    &parents[j]->tree) < 0)
			goto lg2_fail;
		ptrees[j] = parents[j]->tree_obj;
	}
	if (!nparents)
		root = 1;
	if (root) {
		for (k = 0; k < np; k++)
			if (path_exists(tree, w->paths[pend[k]].path))
				answer(w, pend[k], &n->oid);
		ret = 0;
		goto out;
	}
	ALLOC_GROW(w->differ, (size_t)nparents * np, w->differ_alloc);
	memset(w->differ, 0, (size_t)nparents * np);
	for (ndiffed = 0; ndiffed < nparents; ) {
		unsigned char *d = w->differ + (size_t)ndiffed * np;

		if (diff_paths(w, tree, ptrees[ndiffed], 0, pend, 0, np, d))
			goto out;
		/*
		 * TREESAME to this parent for every path: each has found
		 * the parent it follows, the later ones need no look.
		 */
		if (!memchr(d, 1, np))
			break;
		ndiffed++;
	}
	if (ndiffed == 0) {
		/* all to the first parent, the list as it is */
		give_pending(w, parents[0], pend, np, pend_alloc);
		pend = NULL;
	} else
		forward(w, n, parents, nparents,
			ndiffed < nparents ? ndiffed + 1 : nparents, pend, np,
			w->differ);
	ret = 0;
	goto out;
lg2_fail:
	{
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &n->oid);
		strbuf_addf(w->err, "cannot read commit %s: %s", hex,
			    lg2_message());
	}
out:
	for (j = 0; parents && j < nparents; j++) {
		/* A parent that gets no path will not be visited. */
		if (parents[j] && !parents[j]->queued) {
			git_tree_free(parents[j]->tree_obj);
			parents[j]->tree_obj = NULL;
		}
	}
	free(parents);
	free(ptrees);
	free(pend);
	git_tree_free(tree);
	return ret;
}

/*
 * Set libgit2 up for a long walk; walk_paths() turns the object cache
 * back on when it is done.
 */
static void walk_tune_libgit2(void)
{
	/*
	 * libgit2 caches trees only up to 4 KiB by default; a reports
	 * directory of a thousand entries is far larger and would be parsed
	 * again at every commit that touches it.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)1 << 20);
	/*
	 * Re-hashing every object read costs a tenth of the walk; git does
	 * not do it on reads either (fsck does).
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * The walk keeps what it needs itself (each commit's tree, parents
	 * and date; a parent's tree until its visit), so libgit2's object
	 * cache only costs memory and time here.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
}

/*
 * The paths sorted (each remembering its place in the caller's list),
 * with their numbers of components and the deepest of those.
 */
static void walk_init_paths(struct walk *w, const char *const *paths,
			    size_t n, struct history_answer *answers)
{
	size_t i;

	w->npaths = n;
	w->remaining = n;
	w->paths = xmalloc((n ? n : 1) * sizeof(*w->paths));
	w->done = xcalloc(n ? n : 1, 1);
	for (i = 0; i < n; i++) {
		w->paths[i].path = paths[i];
		w->paths[i].index = i;
		answers[i].found = 0;
		answers[i].truncated = 0;
		answers[i].hex[0] = '\0';
	}
	qsort(w->paths, n, sizeof(*w->paths), path_cmp);
	w->ncomp = xcalloc(n ? n : 1, sizeof(*w->ncomp));
	for (i = 0; i < n; i++) {
		const char *p = w->paths[i].path;

		w->ncomp[i] = 1;
		for (; *p; p++)
			if (*p == '/')
				w->ncomp[i]++;
		if (w->ncomp[i] > w->maxdepth)
			w->maxdepth = w->ncomp[i];
	}
}

/* Whether paths a and b have the same first d+1 components. */
static int same_components(const char *a, const char *b, int d)
{
	int c = 0;

	for (;; a++, b++) {
		int ea = !*a || *a == '/', eb = !*b || *b == '/';

		if (ea || eb) {
			if (!(ea && eb))
				return 0;
			if (c == d)
				return 1;
			if (!*a || !*b)
				return 0;
			c++;
		} else if (*a != *b)
			return 0;
	}
}

/*
 * gend[d][i]: one past the last sorted path that shares path i's first
 * d+1 components.
 */
static void walk_init_groups(struct walk *w)
{
	size_t i, n = w->npaths;
	int d;

	w->gend = xcalloc(w->maxdepth ? w->maxdepth : 1, sizeof(*w->gend));
	for (d = 0; d < w->maxdepth; d++) {
		w->gend[d] = xmalloc((n ? n : 1) * sizeof(**w->gend));
		for (i = n; i-- > 0;) {
			int same = 0;

			if (i + 1 < n && w->ncomp[i] > d && w->ncomp[i + 1] > d)
				same = same_components(w->paths[i].path,
						       w->paths[i + 1].path, d);
			w->gend[d][i] = same ? w->gend[d][i + 1] : i + 1;
		}
	}
}

/* Queue every path at the start commit. */
static int walk_start(struct walk *w, const git_oid *start,
		      struct strbuf *err)
{
	struct node *first = node_get(w, start);
	size_t i, n = w->npaths, *all;

	if (node_parse(w, first) < 0) {
		strbuf_addstr(err, "cannot read the start commit");
		return -1;
	}
	all = xmalloc(n * sizeof(*all));

	for (i = 0; i < n; i++)
		all[i] = i;
	add_pending_list(w, first, all, n);
	free(all);
	return 0;
}

static void walk_release(struct walk *w)
{
	size_t i;
	int d;

	git_odb_free(w->odb);
	for (i = 0; i < w->table_size; i++)
		if (w->table[i]) {
			free(w->table[i]->pending);
			if (w->table[i]->parents != w->table[i]->parent_v)
				free(w->table[i]->parents);
			git_tree_free(w->table[i]->tree_obj);
		}
	while (w->chunks) {
		struct node_chunk *c = w->chunks;

		w->chunks = c->next;
		free(c);
	}
	free(w->table);
	free(w->heap);
	free(w->paths);
	free(w->done);
	for (d = 0; w->gend && d < w->maxdepth; d++)
		free(w->gend[d]);
	free(w->gend);
	free(w->ncomp);
	free(w->shallow);
	free(w->differ);
	free(w->fwd);
	free(w->nfwd);
	for (i = 0; w->kept && i < (size_t)w->maxdepth * KEPT_TREES; i++)
		git_tree_free(w->kept[i]);
	free(w->kept);
	free(w->kept_next);
}

static int walk_paths(git_repository *repo, const git_oid *start,
		      const char *const *paths, size_t n, enum history_mode mode,
		      struct history_answer *answers, int *truncated,
		      int (*fn)(void *data, const git_oid *commit), void *data,
		      struct strbuf *err)
{
	struct walk w;
	git_commit *head = NULL;
	int ret = -1;

	walk_tune_libgit2();
	memset(&w, 0, sizeof(w));
	w.repo = repo;
	w.mode = mode;
	w.shown = fn;
	w.shown_data = data;
	w.answers = answers;
	w.err = err;
	walk_init_paths(&w, paths, n, answers);
	walk_init_groups(&w);
	w.kept = xcalloc((size_t)(w.maxdepth ? w.maxdepth : 1) * KEPT_TREES,
			 sizeof(*w.kept));
	w.kept_next = xcalloc(w.maxdepth ? w.maxdepth : 1,
			      sizeof(*w.kept_next));
	*truncated = 0;
	load_shallow(&w);
	if (git_repository_odb(&w.odb, repo) < 0 ||
	    git_commit_lookup(&head, repo, start) < 0) {
		strbuf_addf(err, "cannot read the start commit: %s",
			    lg2_message());
		goto out;
	}
	if (n && walk_start(&w, start, err))
		goto out;
	while (w.heap_nr && !w.stop && (mode == HISTORY_FIRST || w.remaining))
		if (visit(&w, heap_pop(&w)))
			goto out;
	*truncated = w.truncated;
	ret = 0;
out:
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 1);
	git_commit_free(head);
	walk_release(&w);
	return ret;
}

int history_find(git_repository *repo, const git_oid *start,
		 const char *const *paths, size_t n, enum history_mode mode,
		 struct history_answer *answers, int *truncated,
		 struct strbuf *err)
{
	size_t i;

	if (walk_paths(repo, start, paths, n, mode, answers, truncated,
		       NULL, NULL, err))
		return -1;
	for (i = 0; i < n; i++)
		if (answers[i].found)
			git_oid_tostr(answers[i].hex, sizeof(answers[i].hex),
				      &answers[i].commit);
	return 0;
}

int history_find_hex(const struct repo *r, const char *start,
		     const char *const *paths, size_t n,
		     enum history_mode mode, struct history_answer *answers,
		     int *truncated, struct strbuf *err)
{
	git_oid id;

	if (git_oid_fromstr(&id, start) < 0) {
		strbuf_addf(err, "cannot read the start commit: %s",
			    lg2_message());
		return -1;
	}
	return history_find(r->git, &id, paths, n, mode, answers, truncated,
			    err);
}

struct changes {
	int (*fn)(void *data, const git_oid *commit);
	void *data;
	git_oid *seen;		/* commits passed on, in order */
	size_t nr, alloc;
};

/* Several paths may change in one commit: pass it on once. */
static int change_once(void *data, const git_oid *commit)
{
	struct changes *ch = data;
	size_t i;

	for (i = ch->nr; i-- > 0;)
		if (git_oid_equal(&ch->seen[i], commit))
			return 0;
	ALLOC_GROW(ch->seen, ch->nr + 1, ch->alloc);
	git_oid_cpy(&ch->seen[ch->nr++], commit);
	return ch->fn(ch->data, commit);
}

int history_changes(git_repository *repo, const git_oid *start,
		    const char *const *paths, size_t n,
		    int (*fn)(void *data, const git_oid *commit), void *data,
		    int *truncated, struct strbuf *err)
{
	struct history_answer *answers = xcalloc(n ? n : 1, sizeof(*answers));
	struct changes ch = { fn, data, NULL, 0, 0 };
	int ret;

	/*
	 * The "first" walk goes on past every change, through all parents
	 * of merges that changed the path, as git log does.
	 */
	ret = walk_paths(repo, start, paths, n, HISTORY_FIRST, answers,
			 truncated, n > 1 ? change_once : fn,
			 n > 1 ? (void *)&ch : data, err);
	free(answers);
	free(ch.seen);
	return ret;
}
