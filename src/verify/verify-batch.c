/*
 * A verify command's whole run (see verify-batch.h): the scope, the
 * keys, every report verified, then the drift of all of them attributed
 * together (one history walk per input path), the counts and the exit
 * status.
 */
#include "config.h"
#include "verify-batch.h"
#include "git/repo.h"
#include "record/sidecar.h"
#include "root/rootfile.h"
#include "usage.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The cache, unless --no-cache: git config ahd-replay.cache decides
 * (cache.c reads it), and when it is unset the team's file may turn
 * the cache off.
 */
static int configure_cache(struct verify_options *o, struct strbuf *err)
{
	struct strbuf value = STRBUF_INIT, why = STRBUF_INIT;
	int rc = 0;

	if (!o->no_cache)
		rc = repo_config_here(&value, "ahd-replay.cache",
				      REPO_CONFIG_BOOL, &why);
	/* a bad value: cache.c warns and turns the cache off */
	if (rc < 0)
		rc = 1;
	if (!o->no_cache && !rc &&
	    (rc = rcfile_policy_here(&value, POLICY_CACHE)) < 0)
		strbuf_addstr(err, "cannot read .ahd-replay.yml");
	if (rc > 0 && !strcmp(value.buf, "false"))
		o->no_cache = 1;
	strbuf_release(&value);
	strbuf_release(&why);
	return rc < 0 ? -1 : 0;
}

int verify_options_configure(struct verify_options *o, struct strbuf *err)
{
	struct strbuf value = STRBUF_INIT;
	int rc;

	if (configure_cache(o, err))
		return -1;
	if (o->require_signature >= 0)
		return 0;
	rc = repo_config_here(&value, "ahd-replay.requireSignature",
			      REPO_CONFIG_BOOL, err);
	/* git config unset: the team's .ahd-replay.yml */
	if (!rc && (rc = rcfile_policy_here(&value,
					    POLICY_REQUIRE_SIGNATURE)) < 0)
		strbuf_addstr(err, "cannot read .ahd-replay.yml");
	if (rc >= 0)
		o->require_signature = rc && !strcmp(value.buf, "true");
	strbuf_release(&value);
	return rc < 0 ? -1 : 0;
}

void verify_batch_init(struct verify_batch *b)
{
	struct sig_keyring kr = SIG_KEYRING_INIT;
	struct sidecar_list list = SIDECAR_LIST_INIT;
	struct required_list missing = REQUIRED_LIST_INIT;

	struct rcfile rc = RCFILE_INIT;
	struct layout_list records = LAYOUT_LIST_INIT;

	memset(b, 0, sizeof(*b));
	b->keyring = kr;
	b->list = list;
	b->rc = rc;
	b->records = records;
	b->missing = missing;
}

/*
 * The trusted keys: --trusted-keys, else ahd-replay.trustedKeys from the
 * git configuration (a relative path is taken from the work tree's top,
 * so the setting works from any subdirectory).  Never .ahd-replay.yml:
 * the change under review can edit that file, so it could name its own
 * key.  Neither is no keys: signed sidecars then fail.
 * Returns 0, or -1 after printing an error.
 */
static int load_trusted_keys(struct sig_keyring *kr, const char *dir)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int rc = 1, ret = -1;

	if (dir)
		strbuf_addstr(&path, dir);
	else
		/*
		 * The repository's configuration when one opens here, else
		 * the user's and the system's, as git reads it.
		 */
		rc = repo_config_here(&path, "ahd-replay.trustedKeys",
				      REPO_CONFIG_PATH, &err);
	if (rc < 0)
		error("%s", err.buf);
	else if (rc && sig_keyring_load_dir(kr, path.buf, &err))
		error("%s", err.buf);
	else
		ret = 0;
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

/*
 * --require-sidecar, else git config, else the file's requireSidecar:
 * the file's globs when neither of the others gave any.
 */
static int file_globs(struct verify_batch *b,
		      const struct verify_batch_options *opts)
{
	const char *v = b->rc.policy[POLICY_REQUIRE_SIDECAR].value;

	while (!opts->nr_require && v && *v) {
		size_t n = strcspn(v, "\n");

		ALLOC_GROW(b->globs.items, b->globs.nr + 1, b->globs.alloc);
		b->globs.items[b->globs.nr++] = xmemdupz(v, n);
		v += n + !!v[n];
	}
	return 0;
}

/*
 * How many threads list the tree: --jobs, else the online CPUs.  The
 * search touches no libgit2 handle, so it runs on them even when the
 * verification must be serial (pool_size()).
 */
static size_t search_threads(const struct verify_batch_options *opts)
{
	long jobs = opts->jobs;

	if (jobs <= 0)
		jobs = sysconf(_SC_NPROCESSORS_ONLN);
	return jobs < 1 ? 1 : (size_t)jobs;
}

/*
 * The scope and the keys.  Returns 2 when part of the scope could not be
 * searched or a trust source is unusable, else 0: the reports that could
 * be found are still verified with the keys that could be read.
 */
static int prepare(struct verify_batch *b,
		   const struct verify_batch_options *opts, int argc,
		   char **argv)
{
	int status = 0;
	size_t i;

	/* the layouts' records first: the sidecar search gets the rest */
	if (rcfile_here(&b->rc, opts->core.root) ||
	    layout_list_collect(&b->records, b->rc.layouts, b->rc.nr,
				b->rc.top.buf, &argc, argv, opts->all))
		status = 2;
	if ((argc || !b->records.taken) &&
	    sidecar_list_collect(&b->list, argc, argv, opts->all,
				 opts->core.root, search_threads(opts)))
		status = 2;
	/* JSON carries them in the document: nothing on stderr */
	for (i = 0; !opts->errors_in_document && i < b->list.errors.nr; i++)
		error("%s", b->list.errors.items[i]);
	if ((opts->trust.at ?
	     sig_trust_load_keys_at(&b->keyring, opts->trusted_keys,
				    opts->trust.at) :
	     load_trusted_keys(&b->keyring, opts->trusted_keys)) ||
	    sig_trust_load_ssh(&b->keyring, &opts->trust) ||
	    require_sidecar_globs(&b->globs, opts->require, opts->nr_require) ||
	    (!b->globs.nr && file_globs(b, opts)) ||
	    require_sidecar_missing(&b->missing, &b->globs, opts->all,
				    &b->list))
		status = 2;
	/* The other keys still check signatures; the store needs fixing. */
	if (b->keyring.skipped)
		status = 2;
	sig_trust_warn_changed(&opts->trust, opts->trusted_keys,
			       opts->core.changed_since);
	b->tally.requiring = b->globs.nr > 0;
	/* without --allow-empty, verify_batch_run() makes it an error */
	if (!b->list.sidecars.nr && !b->missing.nr && !b->records.nr &&
	    !status && !opts->errors_in_document && opts->allow_empty)
		notice("no replay sidecars found");
	return status;
}

/*
 * Reports are independent, so a pool verifies them, while the calling
 * thread hands them to the sink in order: a window of slots, report i in
 * slot i % size, which a worker fills and the sink empties once every
 * report before it was handed over.  Workers never run more than the
 * window ahead of the sink, so memory stays bounded whatever the number
 * of reports, and the output does not depend on the number of threads.
 * What the reports share (roots, hashes) is in verify-memo.c's tables,
 * each entry filled once by the thread that first wants it.
 */
struct window {
	struct verify_batch *b;
	struct verify_sink *sink;
	size_t nr;		/* every report: sidecars, records, missing */
	size_t parallel;	/* [0, parallel) may go to the workers */
	size_t size;
	struct verify_report *slots;
	unsigned char *done;	/* per slot: verified, not yet handed */
	size_t next;		/* the next report to verify */
	size_t head;		/* the next report to hand to the sink */
	size_t *owner;		/* per slot: the thread that verified it */
	struct garbage *garbage;	/* per thread: its printed reports */
	pthread_mutex_t lock;
	/*
	 * Each side is woken only when it waits and only for what it
	 * waits for (the head done; room for a batch): a wake-up per
	 * report kept the two threads of a 2-CPU machine on one CPU,
	 * where the scheduler puts a thread it wakes beside its waker.
	 */
	pthread_cond_t head_done;	/* the caller waits for the head */
	pthread_cond_t room;		/* workers wait for empty slots */
	int caller_waits;
	size_t workers_wait;
};

/*
 * Reports printed and waiting to be released by the thread that built
 * them.  glibc's malloc gives each thread its own arena and locks that
 * arena to take a chunk back: the calling thread freeing a worker's
 * report, fifty small blocks, while that worker allocates for its next
 * one, made the two take turns on the lock.  For the same reason the
 * lists never change hands: each is grown and freed only by the thread
 * that owns it, and a worker copies its reports out of the caller's
 * list into its own.  They grow as used, not to a window each: -j N
 * would make 2 N lists of N * WINDOW_PER_THREAD reports.
 */
struct garbage {
	struct verify_report *v;
	size_t nr, alloc;
};

/* A pool thread's view: the window and which thread it is (0: caller). */
struct pool_thread {
	struct window *w;
	size_t self;
};

/* Slots per thread: enough that a slow report rarely stalls the others. */
#define WINDOW_PER_THREAD 64

/*
 * The sidecar a report without one should have, into sc (a layout's,
 * when the report is one of its records), and that layout or NULL.
 */
static const struct layout *missing_sidecar(struct strbuf *sc,
					    const struct verify_batch *b,
					    const char *report)
{
	const struct layout *lay = layout_list_find(b->rc.layouts, b->rc.nr,
						    b->rc.top.buf, report);

	if (lay && lay->sidecar)
		layout_sidecar_for(sc, lay, report);
	else
		sidecar_path_for(sc, report);
	return lay;
}

/*
 * Leave out of b->missing the layouts' records that are verified as
 * records: one whose layout has no sidecar, or whose sidecar is there.
 */
static void drop_layout_records(struct verify_batch *b)
{
	size_t i, kept = 0;

	for (i = 0; i < b->missing.nr; i++) {
		struct strbuf sc = STRBUF_INIT;
		const struct layout *lay = missing_sidecar(&sc, b,
						b->missing.items[i].report);

		if (lay && (!lay->sidecar || !access(sc.buf, F_OK)))
			free(b->missing.items[i].report);
		else
			b->missing.items[kept++] = b->missing.items[i];
		strbuf_release(&sc);
	}
	b->missing.nr = kept;
}

/* Report i of the run, into its slot: a sidecar, a record, a missing one. */
static void report_setup(const struct verify_batch *b, size_t i,
			 struct verify_report *r)
{
	const struct layout *lay;
	struct strbuf sc = STRBUF_INIT;

	if (i < b->list.sidecars.nr) {
		verify_report_init(r, b->list.reports.items[i],
				   b->list.sidecars.items[i]);
		r->sig_absent = b->list.sig_absent[i];
		return;
	}
	i -= b->list.sidecars.nr;
	if (i < b->records.nr) {
		verify_report_init(r, b->records.items[i].shown,
				   b->records.items[i].sidecar ?
				   b->records.items[i].sidecar :
				   b->records.items[i].shown);
		r->layout = b->records.items[i].layout;
		return;
	}
	i -= b->records.nr;
	lay = missing_sidecar(&sc, b, b->missing.items[i].report);
	verify_report_init(r, b->missing.items[i].report, sc.buf);
	r->layout = lay;
	r->required_by = b->missing.items[i].glob;
	strbuf_release(&sc);
}

static void verify_slot(struct window *w, size_t i, size_t self)
{
	struct verify_report *r = &w->slots[i % w->size];

	report_setup(w->b, i, r);
	verify_one(&w->b->run, r);
	pthread_mutex_lock(&w->lock);
	w->owner[i % w->size] = self;
	w->done[i % w->size] = 1;
	if (w->caller_waits && i == w->head)
		pthread_cond_signal(&w->head_done);
	pthread_mutex_unlock(&w->lock);
}

/* Release the reports g holds; the caller is the thread that built them. */
static void garbage_release(struct garbage *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		verify_report_release(&g->v[i]);
	g->nr = 0;
}

/* Move thread self's printed reports from w into g; the lock is held. */
static void garbage_take(struct garbage *g, struct window *w, size_t self)
{
	struct garbage *from = &w->garbage[self];

	g->nr = from->nr;
	if (!g->nr)
		return;	/* both lists may be NULL still */
	ALLOC_GROW(g->v, g->nr, g->alloc);
	memcpy(g->v, from->v, g->nr * sizeof(*g->v));
	from->nr = 0;
}

static void *pool_work(void *data)
{
	struct pool_thread *t = data;
	struct window *w = t->w;
	struct garbage g;
	size_t i;

	memset(&g, 0, sizeof(g));
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->next < w->parallel && w->next >= w->head + w->size &&
		       !w->garbage[t->self].nr) {
			w->workers_wait++;
			pthread_cond_wait(&w->room, &w->lock);
			w->workers_wait--;
		}
		garbage_take(&g, w, t->self);
		if (g.nr) {
			pthread_mutex_unlock(&w->lock);
			garbage_release(&g);
			pthread_mutex_lock(&w->lock);
			continue;
		}
		if (w->next >= w->parallel)
			break;
		i = w->next++;
		pthread_mutex_unlock(&w->lock);
		verify_slot(w, i, t->self);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	free(g.v);
	/* the root this thread kept open (rootfile.h) */
	rootfile_forget();
	return NULL;
}

/*
 * How many threads: --jobs, else the online CPUs, never more than the
 * reports.  --at (whose failure stops the run at a report),
 * --changed-since and --require-signed-commit share libgit2 handles that
 * no lock guards, so they run serially.
 */
static size_t pool_size(const struct verify_batch_options *opts, size_t n)
{
	long jobs = opts->jobs;

	if (opts->core.at || opts->core.changed_since ||
	    opts->core.require_signed_commit)
		return 1;
	if (jobs <= 0)
		jobs = sysconf(_SC_NPROCESSORS_ONLN);
	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > n)
		jobs = (long)n;
	return jobs < 1 ? 1 : (size_t)jobs;
}

/* r onto the list of owner (a worker) to release; the list is ours. */
static void garbage_put(struct window *w, size_t owner,
			const struct verify_report *r)
{
	struct garbage *g = &w->garbage[owner];

	pthread_mutex_lock(&w->lock);
	/* rarely: a list doubles, and the worker reads it under the lock */
	ALLOC_GROW(g->v, g->nr + 1, g->alloc);
	g->v[g->nr++] = *r;
	pthread_mutex_unlock(&w->lock);
}

/*
 * Hand report r (the head, verified by thread owner) to the sink, and
 * count it; awaiting attribution, it moves to b->kept, else it is
 * released: here when this thread built it, else by its builder (struct
 * garbage).  Returns whether the run stops there.
 */
static int hand_over(struct window *w, struct verify_report *r,
		     size_t owner)
{
	struct verify_batch *b = w->b;
	int awaits = verify_awaits_attribution(&b->run, r);
	int stop = r->stop;

	b->nr++;
	if (r->skipped)
		b->tally.skipped++;
	else {
		b->tally.reports++;
		b->tally.nr[r->verdict]++;
	}
	w->sink->report(w->sink, r, awaits);
	if (awaits) {
		ALLOC_GROW(b->kept, b->nr_kept + 1, b->alloc_kept);
		b->kept[b->nr_kept++] = *r;	/* it owns no pointer to itself */
	} else if (!owner)
		verify_report_release(r);
	else
		garbage_put(w, owner, r);
	return stop;
}

/*
 * The calling thread's part: hand over the head when it is done, else
 * verify the next report itself (the serial ones only once all before
 * them were handed over: they run alone), else wait.
 */
static void window_drain(struct window *w)
{
	int stop = 0;

	pthread_mutex_lock(&w->lock);
	while (w->head < w->nr && !stop) {
		size_t i = w->next, slot = w->head % w->size;

		if (w->done[slot]) {
			pthread_mutex_unlock(&w->lock);
			stop = hand_over(w, &w->slots[slot], w->owner[slot]);
			pthread_mutex_lock(&w->lock);
			w->done[slot] = 0;
			w->head++;
			/* waiting workers get a batch, not one slot each */
			if (w->workers_wait &&
			    w->head + w->size - w->next >= w->size / 2)
				pthread_cond_broadcast(&w->room);
		} else if (i < w->nr && i < w->head + w->size &&
			   (i < w->parallel || i == w->head)) {
			w->next++;
			pthread_mutex_unlock(&w->lock);
			verify_slot(w, i, 0);
			pthread_mutex_lock(&w->lock);
		} else {
			w->caller_waits = 1;
			pthread_cond_wait(&w->head_done, &w->lock);
			w->caller_waits = 0;
		}
	}
	/* a stop: the workers take no more */
	w->parallel = w->next;
	pthread_cond_broadcast(&w->room);
	pthread_mutex_unlock(&w->lock);
}

/*
 * Every report through the window, the sidecars on threads threads (the
 * calling one among them): the first is verified here before any
 * thread starts, so whatever the libraries set up once (libgit2,
 * jansson's hash seed) is set up on one thread.  A thread that cannot
 * be started leaves its share to the others.  A report whose --at
 * cannot be used stops the run (its error is told once); then the drift
 * of the kept reports is attributed together and they go to the sink.
 */
static void verify_all(struct verify_batch *b,
		       const struct verify_batch_options *opts,
		       struct verify_sink *sink)
{
	size_t threads = pool_size(opts, b->list.sidecars.nr);
	struct window w;
	pthread_t *tids = xcalloc(threads, sizeof(*tids));
	struct pool_thread *pt = xcalloc(threads, sizeof(*pt));
	size_t started = 0, i;

	drop_layout_records(b);
	memset(&w, 0, sizeof(w));
	w.b = b;
	w.sink = sink;
	w.nr = b->list.sidecars.nr + b->records.nr + b->missing.nr;
	w.parallel = threads > 1 ? b->list.sidecars.nr : 0;
	w.size = threads * WINDOW_PER_THREAD;
	w.slots = xcalloc(w.size, sizeof(*w.slots));
	w.done = xcalloc(w.size, 1);
	w.owner = xcalloc(w.size, sizeof(*w.owner));
	w.garbage = xcalloc(threads, sizeof(*w.garbage));
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.head_done, NULL);
	pthread_cond_init(&w.room, NULL);
	if (w.parallel) {
		w.next = 1;
		verify_slot(&w, 0, 0);
		for (i = 1; i < threads; i++) {
			pt[started].w = &w;
			pt[started].self = started + 1;
			if (!pthread_create(&tids[started], NULL, pool_work,
					    &pt[started]))
				started++;
		}
	}
	window_drain(&w);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	/* what a worker left when it stopped */
	for (i = 0; i < threads; i++) {
		garbage_release(&w.garbage[i]);
		free(w.garbage[i].v);
	}
	/* after a stop, what the workers verified past it is not shown */
	for (i = w.head; i < w.next; i++)
		verify_report_release(&w.slots[i % w.size]);
	pthread_cond_destroy(&w.head_done);
	pthread_cond_destroy(&w.room);
	pthread_mutex_destroy(&w.lock);
	free(w.garbage);
	free(w.owner);
	free(w.done);
	free(w.slots);
	free(pt);
	free(tids);
	verify_attribute(&b->run, b->kept, b->nr_kept);
	sink->kept(sink, b->kept, b->nr_kept);
}

int verify_batch_run(struct verify_batch *b,
		     const struct verify_batch_options *opts, int argc,
		     char **argv, struct verify_sink *sink)
{
	int status;

	/* first: the cache's store is read while prepare() lists the tree */
	verify_run_init(&b->run, &opts->core, &b->keyring);
	status = prepare(b, opts, argc, argv);
	verify_all(b, opts, sink);
	if (!b->nr && !opts->allow_empty) {
		b->empty = 1;
		ALLOC_GROW(b->list.errors.items, b->list.errors.nr + 1,
			   b->list.errors.alloc);
		b->list.errors.items[b->list.errors.nr++] =
			xstrdup(VERIFY_EMPTY_MESSAGE);
		if (!opts->errors_in_document)
			error("%s", VERIFY_EMPTY_MESSAGE);
		status = 2;
	}
	if (b->tally.nr[VERIFY_ERRORED])
		status = 2;
	else if ((b->tally.nr[VERIFY_DRIFTED] ||
		  b->tally.nr[VERIFY_UNTRUSTED] ||
		  b->tally.nr[VERIFY_MISSING]) && status < 1)
		status = 1;
	return status;
}

void verify_batch_release(struct verify_batch *b)
{
	size_t i;

	for (i = 0; i < b->nr_kept; i++)
		verify_report_release(&b->kept[i]);
	free(b->kept);
	b->kept = NULL;
	b->nr_kept = b->alloc_kept = b->nr = 0;
	verify_run_release(&b->run);
	sig_keyring_release(&b->keyring);
	sidecar_list_release(&b->list);
	layout_list_release(&b->records);
	rcfile_release(&b->rc);
	required_list_release(&b->missing);
	require_sidecar_globs_release(&b->globs);
}

void verify_summary_line(struct strbuf *out, const struct verify_batch *b)
{
	const struct verify_tally *t = &b->tally;

	/* Fixed words, for the scripts that read this line. */
	strbuf_addf(out, "%zu reports: %zu intact, %zu drifted, %zu errors",
		    t->reports, t->nr[VERIFY_INTACT], t->nr[VERIFY_DRIFTED],
		    t->nr[VERIFY_ERRORED]);
	/* Only when present, so the line stays as it was for scripts. */
	if (t->nr[VERIFY_UNTRUSTED])
		strbuf_addf(out, ", %zu untrusted", t->nr[VERIFY_UNTRUSTED]);
	if (t->nr[VERIFY_MISSING])
		strbuf_addf(out, ", %zu missing sidecars",
			    t->nr[VERIFY_MISSING]);
}

void verify_skipped_line(struct strbuf *out, const struct verify_batch *b)
{
	const char *base = b->run.since_base;

	strbuf_addf(out, "%zu reports unchanged since %s%s%s%s not checked",
		    b->tally.skipped, b->run.opts.changed_since,
		    base ? " (merge base " : "", base ? base : "",
		    base ? ")" : "");
}
