/*
 * fs/path.h: the string checks that keep every read inside the root.
 * Each case is one the callers rely on; the edges (the root "/", a
 * trailing slash, a name that only starts like the directory, ".git"
 * in another case) are where a copy of these once went wrong.
 */
#include "config.h"
#include "fs/path.h"
#include "strbuf.h"
#include "tap.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

static void check_resolve(const char *base, const char *path, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	path_resolve(&sb, base, path);
	is_string(want, sb.buf, "resolve '%s' from '%s'", path,
		  base ? base : "(none)");
	strbuf_release(&sb);
}

static void check_inside(const char *path, const char *dir, const char *want)
{
	const char *got = path_inside(path, dir);

	if (!want) {
		ok(!got, "'%s' is not inside '%s'", path, dir);
		ok(!path_is_within(path, dir), "'%s' is not within '%s'",
		   path, dir);
		return;
	}
	is_string(want, got ? got : "(null)", "'%s' below '%s'", path, dir);
	ok(path_is_within(path, dir), "'%s' is within '%s'", path, dir);
}

static void check_dirname(const char *path, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "x");	/* appends: what was there stays */
	path_dirname(&sb, path);
	is_string(want, sb.buf + 1, "dirname of '%s'", path);
	strbuf_release(&sb);
}

static void check_parent(const char *path, int ret, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, path);
	is_int(ret, path_parent(&sb), "parent of '%s': returns %d", path, ret);
	is_string(want, sb.buf, "parent of '%s' is '%s'", path, want);
	strbuf_release(&sb);
}

static void check_relative(const char *from, const char *to, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	path_relative(&sb, from, to);
	is_string(want, sb.buf, "relative from '%s' to '%s'", from, to);
	strbuf_release(&sb);
}

static void test_absolute(void)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	char cwd[PATH_MAX];

	is_int(0, path_absolute(&sb, "/a/./b/../c", &err), "absolute: an "
	       "absolute path needs no current directory");
	is_string("/a/c", sb.buf, "absolute: resolved lexically");
	strbuf_reset(&sb);
	if (!getcwd(cwd, sizeof(cwd))) {
		skip("no current directory");
		skip("no current directory");
		goto out;
	}
	is_int(0, path_absolute(&sb, "x/..", &err), "absolute: relative");
	is_string(cwd, sb.buf, "absolute: from the current directory");
out:
	strbuf_release(&sb);
	strbuf_release(&err);
}

int main(void)
{
	plan_lazy();

	check_resolve(NULL, "/", "/");
	check_resolve(NULL, "//a//b/", "/a/b");
	check_resolve(NULL, "/a/./b/../../..", "/");
	check_resolve("/r", "x/../../y", "/y");
	check_resolve("/r/s", "../s/./t", "/r/s/t");
	check_resolve("/r", "", "/r");
	check_resolve("/r", "/abs", "/abs");

	check_inside("/a/b/c", "/a", "b/c");
	check_inside("/a/b/c", "/a/", "b/c");
	check_inside("/a", "/a", "");
	check_inside("/a", "/a/", "");
	check_inside("/a//b", "/a", "b");
	check_inside("/a/b", "/", "a/b");
	check_inside("/", "/", "");
	check_inside("/ab", "/a", NULL);
	check_inside("/a", "/a/b", NULL);
	check_inside("/b/a", "/a", NULL);
	check_inside("a/b", "/", NULL);

	ok(path_in_git_dir(".git"), "git dir: .git itself");
	ok(path_in_git_dir("a/.git/config"), "git dir: below the top");
	ok(path_in_git_dir("sub/.GIT"), "git dir: in another case");
	ok(path_in_git_dir("a//.Git/"), "git dir: repeated slashes");
	ok(!path_in_git_dir(""), "git dir: not the root");
	ok(!path_in_git_dir("a/.gitignore"), "git dir: not .gitignore");
	ok(!path_in_git_dir("a/x.git/b"), "git dir: not a name ending .git");
	ok(!path_in_git_dir(".gi/t"), "git dir: not split across a slash");

	check_dirname("a/b/c", "a/b");
	check_dirname("/a", "/");
	check_dirname("/", "/");
	check_dirname("a", ".");
	check_dirname("", ".");
	check_dirname("a/b/", "a/b");

	check_parent("/a/b", 0, "/a");
	check_parent("/a", 0, "/");
	check_parent("/", -1, "/");
	check_parent("a/b", 0, "a");
	check_parent("a", -1, "a");

	check_relative("/a/b", "/a/b/c/d", "c/d");
	check_relative("/a/b", "/a/c", "../c");
	check_relative("/a/b", "/a/b", "");
	check_relative("/", "/a/b", "a/b");
	check_relative("/a/b", "/", "../..");
	check_relative("/a/bc", "/a/b", "../b");

	test_absolute();
	return 0;
}
