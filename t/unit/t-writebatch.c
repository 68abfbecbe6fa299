/*
 * fs/writebatch.h: many files put in place after one flush.  What each
 * target holds after the commit: the new bytes, or, where a file
 * appeared at an empty path between the add and the commit, that file
 * untouched, or where the file that was there changed meanwhile and
 * may_replace says to keep it; and more files than one batch holds.
 * A temporary replaced by another file before the flush fails its file.
 * The batch opens its root once, and the directories on the way are
 * opened by its first files: a symlink planted after that, at a file or
 * in place of a directory already opened, leads nothing out of the root,
 * with openat2 and with the walk that stands in for it.
 */
#include "config.h"
#include "fs/writebatch.h"
#include "strbuf.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct strbuf root = STRBUF_INIT;
static size_t nr_ok, nr_failed;

static void done(void *data, const char *path, const char *error)
{
	(void)data;
	(void)path;
	if (error)
		nr_failed++;
	else
		nr_ok++;
}

static void at(struct strbuf *sb, const char *rel)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", root.buf, rel);
}

static int put(const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	FILE *fp;

	at(&p, rel);
	fp = fopen(p.buf, "w");
	if (fp) {
		fputs(text, fp);
		if (fclose(fp))
			fp = NULL;
	}
	strbuf_release(&p);
	return fp ? 0 : -1;
}

/* Does the file rel hold exactly text? */
static int holds(const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT, got = STRBUF_INIT;
	char buf[256];
	size_t n;
	FILE *fp;
	int ret = 0;

	at(&p, rel);
	fp = fopen(p.buf, "r");
	if (fp) {
		while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
			strbuf_add(&got, buf, n);
		ret = !ferror(fp) && !strcmp(got.buf, text);
		fclose(fp);
	}
	strbuf_release(&p);
	strbuf_release(&got);
	return ret;
}

static void add(struct write_batch *b, const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT;

	at(&p, rel);
	write_batch_add(b, p.buf, text, strlen(text), 0666, NULL);
	strbuf_release(&p);
}

static void check_appeared_meanwhile(void)
{
	struct write_batch b;

	nr_ok = nr_failed = 0;
	write_batch_init(&b, root.buf, done);
	add(&b, "new", "ours\n");
	add(&b, "raced", "ours\n");
	ok(!put("old", "old\n"), "an existing file");
	add(&b, "old", "ours\n");
	/* a run writes its own file where nothing was when it was added */
	ok(!put("raced", "theirs\n"), "a file appears meanwhile");
	write_batch_commit(&b);
	ok(holds("new", "ours\n"), "a new file is written");
	ok(holds("old", "ours\n"), "an existing file is replaced");
	ok(holds("raced", "theirs\n"),
	   "a file that appeared meanwhile is not replaced");
	is_int(2, (long long)nr_ok, "two in place");
	is_int(1, (long long)nr_failed, "one said to have failed");
}

/* may_replace: only a file that still says "old" is replaced */
static int still_old(void *data, const char *path, struct strbuf *why)
{
	(void)data;
	(void)path;
	if (holds("kept", "old\n"))
		return 0;
	strbuf_addstr(why, "not ours any more");
	return -1;
}

static void check_changed_meanwhile(void)
{
	struct write_batch b;

	nr_ok = nr_failed = 0;
	write_batch_init(&b, root.buf, done);
	b.may_replace = still_old;
	ok(!put("kept", "old\n"), "a file backfill may replace");
	add(&b, "kept", "ours\n");
	/* a run captures its own in its place */
	ok(!put("kept", "theirs\n"), "it changes meanwhile");
	write_batch_commit(&b);
	ok(holds("kept", "theirs\n"), "what changed meanwhile is kept");
	is_int(1, (long long)nr_failed, "said to have failed");
}

static void check_many(void)
{
	struct write_batch b;
	struct strbuf name = STRBUF_INIT;
	size_t i, n = WRITE_BATCH_MAX + 5, good = 0;

	nr_ok = nr_failed = 0;
	write_batch_init(&b, root.buf, done);
	for (i = 0; i < n; i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "many-%zu", i);
		add(&b, name.buf, "x\n");
	}
	write_batch_commit(&b);
	for (i = 0; i < n; i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "many-%zu", i);
		good += holds(name.buf, "x\n");
	}
	is_int((long long)n, (long long)good, "more than a batch: all written");
	is_int((long long)n, (long long)nr_ok, "each said once");
	strbuf_release(&name);
}

/*
 * The batch closes each temporary once written and opens it again by
 * its name to flush it; a file put at that name meanwhile (the
 * temporary's directory moved aside and another put there, say) is not
 * the one written, and must be neither flushed for it nor put in place.
 */
static void check_temporary_replaced(void)
{
	struct write_batch b;
	FILE *fp;
	int planted;

	nr_ok = nr_failed = 0;
	write_batch_init(&b, root.buf, done);
	add(&b, "swapped", "ours\n");
	is_int(1, (long long)b.nr, "a file waits in the batch");
	planted = b.nr == 1 && !unlink(b.v[0].af.tmp.buf) &&
		  (fp = fopen(b.v[0].af.tmp.buf, "w")) &&
		  fputs("theirs\n", fp) >= 0 && !fclose(fp);
	ok(planted, "another file at its temporary's name");
	write_batch_commit(&b);
	ok(!holds("swapped", "theirs\n"),
	   "what was planted at the temporary's name is not put in place");
	is_int(1, (long long)nr_failed, "the file is said to have failed");
}

/* mkdir, symlink and rename at paths relative to the test's directory */
static int make_dir(const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	at(&p, rel);
	r = mkdir(p.buf, 0777) && errno != EEXIST ? -1 : 0;
	strbuf_release(&p);
	return r;
}

static int make_link(const char *target, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	at(&p, rel);
	r = symlink(target, p.buf);
	strbuf_release(&p);
	return r;
}

static int move(const char *from, const char *to)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int r;

	at(&a, from);
	at(&b, to);
	r = rename(a.buf, b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	return r;
}

static int missing(const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	at(&p, rel);
	r = lstat(p.buf, &st) < 0 && errno == ENOENT;
	strbuf_release(&p);
	return r;
}

/*
 * A file the batch refuses to open (it is outside the root) is dropped
 * with nothing of it left open, and nothing else closed: a descriptor
 * closed by mistake is reused by the next directory opened, and a
 * second mistake closes that one under the files waiting to go there,
 * which then go wherever its number leads at the commit.
 */
static void check_refused_closes_nothing(void)
{
	struct strbuf outside = STRBUF_INIT, path = STRBUF_INIT;
	struct write_batch b;
	int fd = open("/dev/null", O_RDONLY);

	/* descriptor 0 in use, as standard input is */
	if (fd > 0) {
		dup2(fd, 0);
		close(fd);
	}
	ok(fcntl(0, F_GETFD) >= 0, "descriptor 0 is open");
	ok(!make_dir("fds") && !make_dir("fds/root") &&
	   !make_dir("fds/root/d2") && !make_dir("fds/root/d3"),
	   "a root with two directories");
	ok(!put("fds/root/d2/c", "old\n") && !put("fds/root/d3/c", "user\n"),
	   "a file to replace in d2, a user's file of that name in d3");
	at(&outside, "fds/root/../outside");

	nr_ok = nr_failed = 0;
	at(&path, "fds/root");
	write_batch_init(&b, path.buf, done);
	write_batch_add(&b, outside.buf, "x\n", 2, 0666, NULL);
	ok(fcntl(0, F_GETFD) >= 0,
	   "a file refused leaves descriptor 0 open");
	add(&b, "fds/root/d2/c", "new\n");
	write_batch_add(&b, outside.buf, "x\n", 2, 0666, NULL);
	add(&b, "fds/root/d3/f", "new\n");
	write_batch_commit(&b);
	ok(holds("fds/root/d2/c", "new\n"), "d2/c is replaced");
	ok(holds("fds/root/d3/c", "user\n"), "the user's d3/c is untouched");
	ok(holds("fds/root/d3/f", "new\n"), "d3/f is written");
	is_int(2, (long long)nr_failed, "the two outside failed");
	strbuf_release(&outside);
	strbuf_release(&path);
}

/*
 * The batch's root is <walk>/in, and <walk>/out is outside it.  Files
 * are added to in/d and in/s, which opens them; then a symlink out is
 * planted at the next file's name in d, and s is swapped for a symlink
 * out (the directory itself moved aside, inside the root).
 */
static void check_planted_after_open(const char *walk)
{
	struct strbuf top = STRBUF_INIT, in = STRBUF_INIT, rel = STRBUF_INIT;
	struct write_batch b;

	strbuf_addf(&top, "%s", walk);
	ok(!make_dir(top.buf), "%s: a directory for the case", walk);
	strbuf_addf(&rel, "%s/in", walk);
	ok(!make_dir(rel.buf), "%s: the root", walk);
	at(&in, rel.buf);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/out", walk);
	ok(!make_dir(rel.buf), "%s: a directory outside it", walk);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/out/victim", walk);
	ok(!put(rel.buf, "theirs\n"), "%s: a file outside the root", walk);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/in/d", walk);
	ok(!make_dir(rel.buf), "%s: in/d", walk);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/in/s", walk);
	ok(!make_dir(rel.buf), "%s: in/s", walk);

	nr_ok = nr_failed = 0;
	write_batch_init(&b, in.buf, done);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/in/d/first", walk);
	add(&b, rel.buf, "ours\n");
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/in/s/first", walk);
	add(&b, rel.buf, "ours\n");

	/* planted once the batch has opened both directories */
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/in/d/victim", walk);
	ok(!make_link("../../out/victim", rel.buf),
	   "%s: a symlink out planted in an opened directory", walk);
	add(&b, rel.buf, "ours\n");
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/in/s", walk);
	strbuf_addstr(&top, "/in/s.moved");
	ok(!move(rel.buf, top.buf), "%s: an opened directory moved aside",
	   walk);
	ok(!make_link("../out", rel.buf),
	   "%s: and a symlink out in its place", walk);
	strbuf_addstr(&rel, "/second");
	add(&b, rel.buf, "ours\n");
	write_batch_commit(&b);

	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/out/victim", walk);
	ok(holds(rel.buf, "theirs\n"), "%s: the file outside is untouched",
	   walk);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/out/second", walk);
	ok(missing(rel.buf), "%s: nothing is written outside the root", walk);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/in/d/first", walk);
	ok(holds(rel.buf, "ours\n"), "%s: the files before are written",
	   walk);
	ok(nr_failed >= 1, "%s: the planted one failed", walk);
	strbuf_release(&top);
	strbuf_release(&in);
	strbuf_release(&rel);
}

int main(void)
{
	char *dir;

	plan_lazy();
	if (!(dir = tap_tmpdir("t-writebatch")))
		return 0;
	strbuf_addstr(&root, dir);
	free(dir);
	check_appeared_meanwhile();
	check_changed_meanwhile();
	check_many();
	check_temporary_replaced();
	check_refused_closes_nothing();
	check_planted_after_open("openat2");
	setenv("AHD_REPLAY_NO_OPENAT2", "1", 1);
	check_planted_after_open("walk");
	unsetenv("AHD_REPLAY_NO_OPENAT2");
	tap_rmtree(root.buf);
	strbuf_release(&root);
	return 0;
}
