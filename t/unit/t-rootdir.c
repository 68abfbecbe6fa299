/*
 * fs/rootdir.h: opening beneath a root by descriptor.  Every case runs
 * twice, with openat2() (where the kernel has it) and with the walk
 * that replaces it (AHD_REPLAY_NO_OPENAT2=1), and must give the same
 * answer both ways: links out, links in, absolute links, "..", loops,
 * long chains, a FIFO, a directory where a file is expected, .git.
 */
#include "config.h"
#include "fs/rootdir.h"
#include "strbuf.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum want_kind { W_FILE, W_DIR, W_FIFO };

static struct strbuf tmp = STRBUF_INIT, root = STRBUF_INIT;
static const char *mode;

static void at(struct strbuf *sb, const char *base, const char *rel)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", base, rel);
}

static int put_file(const char *base, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	FILE *fp;

	at(&p, base, rel);
	fp = fopen(p.buf, "w");
	if (fp) {
		fputs("x\n", fp);
		fclose(fp);
	}
	strbuf_release(&p);
	return fp ? 0 : -1;
}

static int put_dir(const char *base, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	int ret;

	at(&p, base, rel);
	ret = mkdir(p.buf, 0777);
	strbuf_release(&p);
	return ret;
}

static int put_link(const char *rel, const char *target)
{
	struct strbuf p = STRBUF_INIT;
	int ret;

	at(&p, root.buf, rel);
	ret = symlink(target, p.buf);
	strbuf_release(&p);
	return ret;
}

/* A link to the root by its absolute path, then rest. */
static int put_abs_link(const char *rel, const char *base, const char *rest)
{
	struct strbuf t = STRBUF_INIT;
	int ret;

	at(&t, base, rest);
	ret = put_link(rel, t.buf);
	strbuf_release(&t);
	return ret;
}

/* tmp/outside, tmp/rootx/f, and the root with what the cases open. */
static int setup(void)
{
	struct strbuf name = STRBUF_INIT, target = STRBUF_INIT;
	int i, ret = 0;

	ret |= put_file(tmp.buf, "outside");
	ret |= put_dir(tmp.buf, "rootx") | put_file(tmp.buf, "rootx/f");
	ret |= put_file(root.buf, "f") | put_dir(root.buf, "d") |
	       put_file(root.buf, "d/g");
	ret |= put_dir(root.buf, ".git") | put_file(root.buf, ".git/config");
	ret |= put_dir(root.buf, "sub") | put_dir(root.buf, "sub/.Git") |
	       put_file(root.buf, "sub/.Git/x");
	ret |= put_link("in", "f") | put_link("din", "d") |
	       put_link("out", "../outside") | put_link("dout", "..") |
	       put_link("loop-a", "loop-b") | put_link("loop-b", "loop-a") |
	       put_link("self", "self") | put_link("dangling", "nothing") |
	       put_link("to-git", ".git/config") |
	       put_link("magic", "/proc/self/root");
	ret |= put_abs_link("abs-in", root.buf, "d/g");
	ret |= put_abs_link("abs-din", root.buf, "d");
	ret |= put_abs_link("abs-root", root.buf, "");
	ret |= put_abs_link("abs-out", tmp.buf, "outside");
	ret |= put_abs_link("similar", tmp.buf, "rootx/f");
	ret |= put_abs_link("abs-dotdot", root.buf, "../outside");
	/* chains: chain-N-i links to chain-N-(i+1), the last to f */
	for (i = 1; i <= 45; i++) {
		strbuf_reset(&name);
		strbuf_reset(&target);
		strbuf_addf(&name, "chain-%d", i);
		if (i == 1)
			strbuf_addstr(&target, "f");
		else
			strbuf_addf(&target, "chain-%d", i - 1);
		ret |= put_link(name.buf, target.buf);
	}
	at(&name, root.buf, "fifo");
	ret |= mkfifo(name.buf, 0666);
	strbuf_release(&name);
	strbuf_release(&target);
	return ret;
}

static int kind_ok(const struct stat *st, enum want_kind k)
{
	switch (k) {
	case W_FILE:
		return S_ISREG(st->st_mode);
	case W_DIR:
		return S_ISDIR(st->st_mode);
	default:
		return S_ISFIFO(st->st_mode);
	}
}

/* rel opens, is a file of kind k, at real path want below the root. */
static void opens(struct rootdir *rd, const char *rel, unsigned flags,
		  enum want_kind k, const char *want)
{
	struct strbuf real = STRBUF_INIT;
	struct stat st;
	int fd = rootdir_openat(rd, rel, flags, &st, &real);

	if (!ok(fd >= 0, "%s: '%s' opens", mode, rel))
		diag("errno: %s", strerror(errno));
	if (fd >= 0) {
		ok(kind_ok(&st, k), "%s: '%s' is the right kind", mode, rel);
		is_string(want, real.buf, "%s: '%s' is '%s' below the root",
			  mode, rel, want);
		close(fd);
	}
	strbuf_release(&real);
}

/* rel fails with errno e. */
static void fails(struct rootdir *rd, const char *rel, unsigned flags, int e)
{
	struct strbuf real = STRBUF_INIT;
	struct stat st;
	int fd = rootdir_openat(rd, rel, flags, &st, &real);
	int got = errno;

	ok(fd < 0, "%s: '%s' does not open", mode, rel);
	if (fd >= 0)
		close(fd);
	else
		is_string(strerror(e), strerror(got), "%s: '%s' fails: %s",
			  mode, rel, strerror(e));
	is_string("", real.buf, "%s: '%s' names no path", mode, rel);
	strbuf_release(&real);
}

static void run_cases(struct rootdir *rd)
{
	struct strbuf abs = STRBUF_INIT;

	opens(rd, "f", 0, W_FILE, "f");
	opens(rd, "d/g", 0, W_FILE, "d/g");
	opens(rd, "d", 0, W_DIR, "d");
	opens(rd, "", 0, W_DIR, "");
	opens(rd, ".", 0, W_DIR, "");
	opens(rd, "d/../f", 0, W_FILE, "f");
	opens(rd, "d/./g", 0, W_FILE, "d/g");
	opens(rd, "d//g", 0, W_FILE, "d/g");
	fails(rd, "../outside", 0, EXDEV);
	fails(rd, "d/../../outside", 0, EXDEV);
	fails(rd, "..", 0, EXDEV);
	fails(rd, "f/x", 0, ENOTDIR);
	fails(rd, "d/g/", 0, ENOTDIR);
	fails(rd, "nothing", 0, ENOENT);
	fails(rd, "nothing/f", 0, ENOENT);

	/* links in */
	opens(rd, "in", 0, W_FILE, "f");
	opens(rd, "din/g", 0, W_FILE, "d/g");
	opens(rd, "din/../f", 0, W_FILE, "f");
	opens(rd, "abs-in", 0, W_FILE, "d/g");
	opens(rd, "abs-din/../f", 0, W_FILE, "f");
	opens(rd, "abs-root/f", 0, W_FILE, "f");
	opens(rd, "chain-30", 0, W_FILE, "f");
	at(&abs, root.buf, "d/g");
	opens(rd, abs.buf, 0, W_FILE, "d/g");

	/* links out, loops */
	fails(rd, "out", 0, EXDEV);
	fails(rd, "dout/outside", 0, EXDEV);
	fails(rd, "abs-out", 0, EXDEV);
	fails(rd, "similar", 0, EXDEV);
	fails(rd, "abs-dotdot", 0, EXDEV);
	fails(rd, "magic", 0, EXDEV);
	fails(rd, "magic/etc", 0, EXDEV);
	fails(rd, "loop-a", 0, ELOOP);
	fails(rd, "self", 0, ELOOP);
	fails(rd, "chain-45", 0, ELOOP);
	fails(rd, "dangling", 0, ENOENT);
	at(&abs, tmp.buf, "outside");
	fails(rd, abs.buf, 0, EXDEV);

	/* what is not a file is opened without blocking, for the caller */
	opens(rd, "fifo", 0, W_FIFO, "fifo");
	opens(rd, "din", 0, W_DIR, "d");

	/* .git */
	opens(rd, ".git/config", 0, W_FILE, ".git/config");
	fails(rd, ".git/config", ROOTDIR_NO_GIT_DIR, EXDEV);
	fails(rd, "to-git", ROOTDIR_NO_GIT_DIR, EXDEV);
	fails(rd, "sub/.Git/x", ROOTDIR_NO_GIT_DIR, EXDEV);
	opens(rd, ".git/../f", ROOTDIR_NO_GIT_DIR, W_FILE, "f");
	opens(rd, "in", ROOTDIR_NO_GIT_DIR, W_FILE, "f");
	/* spelt with ".", ".." or "//": judged as the path they name */
	fails(rd, "./.git/config", ROOTDIR_NO_GIT_DIR, EXDEV);
	fails(rd, "d/../.git/config", ROOTDIR_NO_GIT_DIR, EXDEV);
	fails(rd, "d//..//.git/config", ROOTDIR_NO_GIT_DIR, EXDEV);
	opens(rd, "./f", ROOTDIR_NO_GIT_DIR, W_FILE, "f");
	opens(rd, "d/.././f", ROOTDIR_NO_GIT_DIR, W_FILE, "f");
	strbuf_release(&abs);
}

/* Without a real path asked for, the kernel follows the links itself. */
static void run_kernel_links(struct rootdir *rd)
{
	static const char *good[] = { "in", "abs-in", "din/g", "chain-30" };
	static const struct { const char *rel; int e; } bad[] = {
		{ "out", EXDEV }, { "abs-out", EXDEV }, { "similar", EXDEV },
		{ "magic", EXDEV }, { "loop-a", ELOOP }, { "chain-45", ELOOP },
		{ "dangling", ENOENT },
	};
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		int fd = rootdir_openat(rd, good[i], 0, &st, NULL);

		ok(fd >= 0 && S_ISREG(st.st_mode), "%s, links followed by "
		   "the kernel: '%s' opens", mode, good[i]);
		if (fd >= 0)
			close(fd);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		int fd = rootdir_openat(rd, bad[i].rel, 0, &st, NULL);
		int e = errno;

		ok(fd < 0 && e == bad[i].e, "%s, links followed by the kernel: "
		   "'%s' fails: %s", mode, bad[i].rel, strerror(bad[i].e));
		if (fd >= 0)
			close(fd);
	}
}

static int run(const char *forced)
{
	struct rootdir rd = ROOTDIR_INIT;
	struct strbuf err = STRBUF_INIT;

	if (forced)
		setenv(ROOTDIR_NO_OPENAT2_ENV, forced, 1);
	else
		unsetenv(ROOTDIR_NO_OPENAT2_ENV);
	mode = forced ? "walk" : "openat2";
	if (!ok(!rootdir_open(&rd, root.buf, &err), "%s: the root opens", mode))
		diag("%s", err.buf);
#ifdef HAVE_LINUX_OPENAT2_H
	is_int(forced ? 1 : 0, rd.walk, "%s: %s", mode,
	       forced ? "the variable forces the walk" : "openat2 is tried");
#endif
	run_cases(&rd);
	run_kernel_links(&rd);
	if (!forced && rd.walk)
		diag("openat2() is missing here: both runs walked");
	if (forced)
		ok(rd.dirs[0].rel != NULL, "walk: the directories it opened "
		   "are kept for the next walk");
	rootdir_release(&rd);
	ok(rd.fd == -1 && !rd.dirs[0].rel, "%s: released", mode);
	rootdir_release(&rd);	/* twice is harmless */
	strbuf_release(&err);
	return 0;
}

/* "0" means off, as an unset variable does. */
static void check_zero_is_off(void)
{
#ifdef HAVE_LINUX_OPENAT2_H
	struct rootdir rd = ROOTDIR_INIT;
	struct strbuf err = STRBUF_INIT;

	setenv(ROOTDIR_NO_OPENAT2_ENV, "0", 1);
	rootdir_open(&rd, root.buf, &err);
	is_int(0, rd.walk, "AHD_REPLAY_NO_OPENAT2=0 does not force the walk");
	rootdir_release(&rd);
	strbuf_release(&err);
#endif
}

int main(void)
{
	char *dir;

	plan_lazy();
	if (!(dir = tap_tmpdir("t-rootdir")))
		return 0;
	strbuf_addstr(&tmp, dir);
	free(dir);
	at(&root, tmp.buf, "root");
	if (mkdir(root.buf, 0777) || setup()) {
		skip_all("cannot build the test tree");
		goto out;
	}
	run(NULL);
	run("1");
	check_zero_is_off();
out:
	tap_rmtree(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&root);
	return 0;
}
