/*
 * The git hook shims and what a hook file is.  See hooks.h; where the
 * hooks directory is, is hooksdir.c's business, and the commands are in
 * builtin/install-hooks.c.
 */
#include "config.h"
#include "hooks.h"
#include "fs/atomicfile.h"
#include "root/root.h"
#include "usage.h"
#include "fs/path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif

const char *const hook_types[HOOK_TYPES_NR + 1] = {
	"pre-commit", "pre-push", "pre-merge-commit", NULL
};

int hook_type_known(const char *name)
{
	size_t i;

	for (i = 0; hook_types[i]; i++)
		if (!strcmp(hook_types[i], name))
			return 1;
	return 0;
}

int hook_chain_active(const char *type)
{
	const char *v = getenv("AHD_REPLAY_HOOK_ACTIVE");
	size_t n = strlen(type);
	char cwd[PATH_MAX];

	/* the shim's value: "<type>:$(pwd -P)"; getcwd() is physical too */
	if (!v || strncmp(v, type, n) || v[n] != ':' ||
	    !getcwd(cwd, sizeof(cwd)))
		return 0;
	return !strcmp(v + n + 1, cwd);
}

/* --- templates ------------------------------------------------------- */

/*
 * Template version 1.  A released version is never edited: a new one is
 * added beside it (and HOOK_TEMPLATE_VERSION raised), so that the files
 * older binaries wrote are still recognised and can be upgraded or
 * removed.  @KEY@ stands for:
 *	TYPE	the hook type, pre-commit
 *	VERSION	the template version
 *	BIN	the installing binary, single-quoted for sh
 *	GIT	the git command the hook runs in, "git commit"
 *	WHAT	what the user is doing, "commit"
 *	PREV	v1_prev_plain or v1_prev_stdin
 */
/*
 * The text both templates share (each template's bytes are what
 * install-hooks recognises, so the parts are spliced, never reworded):
 * the guard against a chained shim, the skip switch and the search for
 * the binary, and the end.
 */
#define SHIM_GUARD \
	"ahd_replay=@BIN@\n" \
	"\n" \
	"# Reached from the previous hook of another such shim: that one checks.\n" \
	"if test -n \"${AHD_REPLAY_HOOK_ACTIVE:-}\" &&\n" \
	"\ttest \"$AHD_REPLAY_HOOK_ACTIVE\" = \"@TYPE@:$(pwd -P)\"\n" \
	"then\n" \
	"\texit 0\n" \
	"fi\n" \
	"\n" \
	"# The hook that was here before install-hooks runs first.\n" \
	"case $0 in\n"

#define SHIM_FIND \
	"\n" \
	"if test \"${AHD_REPLAY_SKIP:-}\" = 1\n" \
	"then\n" \
	"\techo >&2 \"ahd-replay: AHD_REPLAY_SKIP is set; replay check skipped\"\n" \
	"\texit 0\n" \
	"fi\n" \
	"\n" \
	"run=$ahd_replay\n" \
	"if ! test -f \"$run\" || ! test -x \"$run\"\n" \
	"then\n" \
	"\trun=$(command -v ahd-replay 2>/dev/null) || run=\n" \
	"fi\n" \
	"if test -z \"$run\"\n" \
	"then\n" \
	"\tprintf >&2 'ahd-replay: cannot run the @TYPE@ check: %s is missing and ahd-replay is not on PATH\\n' \"$ahd_replay\"\n"

#define SHIM_END \
	"\tprintf >&2 'ahd-replay: to remove the hook: ahd-replay uninstall-hooks, or delete %s\\n' \"$0\"\n" \
	"\texit 1\n" \
	"fi\n" \
	"exec \"$run\" hook @TYPE@ \"$@\"\n"

static const char v1_head[] =
	"#!/bin/sh\n"
	"# ahd-replay hook: @TYPE@, template @VERSION@\n"
	"#\n"
	"# Written by `ahd-replay install-hooks`; `ahd-replay uninstall-hooks`\n"
	"# removes it and puts back the hook it moved aside.  It runs\n"
	"# `ahd-replay hook @TYPE@`, which checks that published eval reports\n"
	"# keep the inputs they record.  Skip it once with `@GIT@ --no-verify`\n"
	"# or AHD_REPLAY_SKIP=1.  An edited copy is no longer recognised as\n"
	"# ahd-replay's; `ahd-replay hooks status` says what git will run.\n"
	"\n"
	SHIM_GUARD
	"*/*) prev=${0%/*}/@TYPE@.ahd-replay-prev ;;\n"
	"*) prev=@TYPE@.ahd-replay-prev ;;\n"
	"esac\n"
	"@PREV@"
	SHIM_FIND
	"\techo >&2 \"ahd-replay: to @WHAT@ without the check: @GIT@ --no-verify, or AHD_REPLAY_SKIP=1\"\n"
	SHIM_END;

static const char v1_prev_plain[] =
	"if test -f \"$prev\" && test -x \"$prev\"\n"
	"then\n"
	"\tAHD_REPLAY_HOOK_ACTIVE=\"@TYPE@:$(pwd -P)\" \"$prev\" \"$@\" || exit\n"
	"fi\n";

static const char v1_prev_stdin[] =
	"if test -f \"$prev\" && test -x \"$prev\"\n"
	"then\n"
	"\t# Both hooks read the refs git writes to stdin: keep a copy.\n"
	"\trefs=$(mktemp \"${TMPDIR:-/tmp}/ahd-replay-@TYPE@.XXXXXX\") || {\n"
	"\t\techo >&2 \"ahd-replay: cannot make a temporary file for the @TYPE@ hook\"\n"
	"\t\texit 1\n"
	"\t}\n"
	"\ttrap 'rm -f \"$refs\"' EXIT\n"
	"\ttrap 'exit 129' HUP\n"
	"\ttrap 'exit 130' INT\n"
	"\ttrap 'exit 143' TERM\n"
	"\tcat >\"$refs\" || exit 1\n"
	"\tAHD_REPLAY_HOOK_ACTIVE=\"@TYPE@:$(pwd -P)\" \"$prev\" \"$@\" <\"$refs\" || exit\n"
	"\texec <\"$refs\"\n"
	"\trm -f \"$refs\"\n"
	"\ttrap - EXIT HUP INT TERM\n"
	"fi\n";

/*
 * Template version 2: the previous hook runs under its own name, from a
 * directory beside ours that mirrors ours (issue 15: hooks that choose
 * what to run from $0 ran nothing as <type>.ahd-replay-prev), and the
 * way to skip the check is AHD_REPLAY_SKIP=1, never --no-verify, which
 * would skip the chained hook too.  @MIRROR@ is v2_mirror.
 */
static const char v2_head[] =
	"#!/bin/sh\n"
	"# ahd-replay hook: @TYPE@, template @VERSION@\n"
	"#\n"
	"# Written by `ahd-replay install-hooks`; `ahd-replay uninstall-hooks`\n"
	"# removes it and puts back the hook it moved aside.  It runs\n"
	"# `ahd-replay hook @TYPE@`, which checks that published eval reports\n"
	"# keep the inputs they record.  Skip the check once with\n"
	"# AHD_REPLAY_SKIP=1 (the hook it chains still runs).  An edited copy\n"
	"# is no longer recognised as ahd-replay's; `ahd-replay hooks status`\n"
	"# says what git will run.\n"
	"\n"
	SHIM_GUARD
	"*/*) dir=${0%/*} ;;\n"
	"*) dir=. ;;\n"
	"esac\n"
	"prev=$dir/@TYPE@.ahd-replay-prev\n"
	"@PREV@"
	SHIM_FIND
	"\techo >&2 \"ahd-replay: to @WHAT@ without the check: AHD_REPLAY_SKIP=1 @GIT@\"\n"
	SHIM_END;

static const char v2_mirror[] =
	"\trefs= mirror=\n"
	"\ttrap 'rm -rf ${refs:+\"$refs\"} ${mirror:+\"$mirror\"}' EXIT\n"
	"\ttrap 'exit 129' HUP\n"
	"\ttrap 'exit 130' INT\n"
	"\ttrap 'exit 143' TERM\n"
	"\t# It runs as it ran before install-hooks: as <run>/@TYPE@, where\n"
	"\t# <run> holds a symbolic link to each entry of this directory (the\n"
	"\t# hooks moved aside under their own names), so that what a hook\n"
	"\t# finds from $0 (the hooks a dispatcher runs, the helper husky\n"
	"\t# sources) is what it found before.  <run> is made beside this\n"
	"\t# directory, unless that is in the work tree, where a hook's\n"
	"\t# `git add -A` would see it: then in TMPDIR, in a copy of the\n"
	"\t# parent made the same way.\n"
	"\thooks=$(CDPATH= cd \"$dir\" && pwd -P) || exit 1\n"
	"\ttop=$(pwd -P)\n"
	"\tup=${hooks%/*}\n"
	"\tcase $up/ in\n"
	"\t\"$top\"/.git/*) ;;\n"
	"\t\"$top\"/*) up= ;;\n"
	"\tesac\n"
	"\tahd_replay_links () {\n"
	"\t\tfor f in \"$1\"/* \"$1\"/.[!.]* \"$1\"/..?*\n"
	"\t\tdo\n"
	"\t\t\tname=${f##*/}\n"
	"\t\t\tcase $name in\n"
	"\t\t\t\"$3\" | *.ahd-replay-prev) continue ;;\n"
	"\t\t\tesac\n"
	"\t\t\tif test -e \"$f.ahd-replay-prev\" || test -L \"$f.ahd-replay-prev\"\n"
	"\t\t\tthen\n"
	"\t\t\t\tf=$f.ahd-replay-prev\n"
	"\t\t\telif ! test -e \"$f\" && ! test -L \"$f\"\n"
	"\t\t\tthen\n"
	"\t\t\t\tcontinue\n"
	"\t\t\tfi\n"
	"\t\t\tln -s \"$f\" \"$2/$name\" || return 1\n"
	"\t\tdone\n"
	"\t}\n"
	"\t# a run killed by SIGKILL leaves its directory: gone after a day\n"
	"\tfind \"${up:-${TMPDIR:-/tmp}}/\" -maxdepth 1 -type d \\\n"
	"\t\t-name '*ahd-replay-run.*' -mmin +1440 -exec rm -rf {} + 2>/dev/null\n"
	"\tif test -n \"$up\" &&\n"
	"\t\tmirror=$(mktemp -d \"$up/.ahd-replay-run.XXXXXX\" 2>/dev/null)\n"
	"\tthen\n"
	"\t\trun_dir=$mirror\n"
	"\telse\n"
	"\t\tmirror=$(mktemp -d \"${TMPDIR:-/tmp}/ahd-replay-run.XXXXXX\") || {\n"
	"\t\t\techo >&2 \"ahd-replay: cannot make a directory to run $prev from\"\n"
	"\t\t\texit 1\n"
	"\t\t}\n"
	"\t\trun_dir=$mirror/${hooks##*/}\n"
	"\t\tahd_replay_links \"${hooks%/*}\" \"$mirror\" \"${hooks##*/}\" &&\n"
	"\t\t\tmkdir \"$run_dir\" || exit 1\n"
	"\tfi\n"
	"\tln -s \"$hooks/@TYPE@.ahd-replay-prev\" \"$run_dir/@TYPE@\" &&\n"
	"\t\tahd_replay_links \"$hooks\" \"$run_dir\" @TYPE@ || exit 1\n";

static const char v2_prev_plain[] =
	"if test -f \"$prev\" && test -x \"$prev\"\n"
	"then\n"
	"@MIRROR@"
	"\tAHD_REPLAY_HOOK_ACTIVE=\"@TYPE@:$(pwd -P)\" \"$run_dir/@TYPE@\" \"$@\" || exit\n"
	"\trm -rf \"$mirror\"\n"
	"\ttrap - EXIT HUP INT TERM\n"
	"fi\n";

static const char v2_prev_stdin[] =
	"if test -f \"$prev\" && test -x \"$prev\"\n"
	"then\n"
	"@MIRROR@"
	"\t# Both hooks read the refs git writes to stdin: keep a copy.\n"
	"\trefs=$(mktemp \"${TMPDIR:-/tmp}/ahd-replay-@TYPE@.XXXXXX\") || {\n"
	"\t\techo >&2 \"ahd-replay: cannot make a temporary file for the @TYPE@ hook\"\n"
	"\t\texit 1\n"
	"\t}\n"
	"\tcat >\"$refs\" || exit 1\n"
	"\tAHD_REPLAY_HOOK_ACTIVE=\"@TYPE@:$(pwd -P)\" \"$run_dir/@TYPE@\" \"$@\" <\"$refs\" || exit\n"
	"\texec <\"$refs\"\n"
	"\trm -rf \"$refs\" \"$mirror\"\n"
	"\ttrap - EXIT HUP INT TERM\n"
	"fi\n";

struct subst {
	const char *key;
	const char *value;
};

/* Append text with each @KEY@ of subs replaced (values are not rescanned). */
static void expand(struct strbuf *out, const char *text,
		   const struct subst *subs)
{
	const char *p = text;

	while (*p) {
		const char *at = strchr(p, '@');
		const struct subst *s;

		if (!at) {
			strbuf_addstr(out, p);
			return;
		}
		strbuf_add(out, p, (size_t)(at - p));
		for (s = subs; s->key; s++) {
			size_t n = strlen(s->key);

			if (!strncmp(at + 1, s->key, n) && at[1 + n] == '@')
				break;
		}
		if (s->key) {
			strbuf_addstr(out, s->value);
			p = at + strlen(s->key) + 2;
		} else {
			strbuf_addch(out, '@');
			p = at + 1;
		}
	}
}

/* Single-quote s for sh: 'it'\''s'. */
static void sq_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/* The inverse of sq_quote() for the whole of [s, end); -1 if it is not. */
static int sq_unquote(struct strbuf *out, const char *s, const char *end)
{
	if (s == end || *s != '\'')
		return -1;
	s++;
	for (;;) {
		while (s < end && *s != '\'')
			strbuf_addch(out, *s++);
		if (s == end)
			return -1;
		s++;		/* the closing quote */
		if (s == end)
			return 0;
		if (end - s < 3 || strncmp(s, "\\''", 3))
			return -1;
		strbuf_addch(out, '\'');
		s += 3;
	}
}

int hook_render(struct strbuf *out, const char *type, int version,
		const char *bin, struct strbuf *err)
{
	struct strbuf quoted = STRBUF_INIT, prev = STRBUF_INIT;
	struct strbuf mirror = STRBUF_INIT;
	char vbuf[16];
	const char *command, *what, *head, *plain, *with_stdin;
	struct subst subs[] = {
		{ "TYPE", type }, { "VERSION", vbuf }, { "BIN", NULL },
		{ "GIT", NULL }, { "WHAT", NULL }, { "PREV", NULL },
		{ "MIRROR", NULL }, { NULL, NULL }
	};

	if (!hook_type_known(type)) {
		strbuf_addf(err, "no hook template for '%s'", type);
		return -1;
	}
	if (version == 1) {
		head = v1_head;
		plain = v1_prev_plain;
		with_stdin = v1_prev_stdin;
	} else if (version == 2) {
		head = v2_head;
		plain = v2_prev_plain;
		with_stdin = v2_prev_stdin;
	} else {
		strbuf_addf(err, "no hook template version %d", version);
		return -1;
	}
	if (strchr(bin, '\n')) {
		strbuf_addf(err, "cannot write a hook for a binary whose path "
			    "has a newline: '%s'", bin);
		return -1;
	}
	if (!strcmp(type, "pre-push")) {
		command = "git push";
		what = "push";
	} else if (!strcmp(type, "pre-merge-commit")) {
		command = "git merge";
		what = "merge";
	} else {
		command = "git commit";
		what = "commit";
	}
	snprintf(vbuf, sizeof(vbuf), "%d", version);
	sq_quote(&quoted, bin);
	subs[2].value = quoted.buf;
	subs[3].value = command;
	subs[4].value = what;
	subs[5].value = "";
	subs[6].value = "";
	expand(&mirror, v2_mirror, subs);
	subs[6].value = mirror.buf;
	expand(&prev, strcmp(type, "pre-push") ? plain : with_stdin, subs);
	subs[5].value = prev.buf;
	expand(out, head, subs);
	strbuf_release(&quoted);
	strbuf_release(&prev);
	strbuf_release(&mirror);
	return 0;
}

/*
 * Is buf[0..len) template `version` for type, with any binary?  Each
 * template has exactly one line "ahd_replay=<quoted path>": what comes
 * before and after it must match byte for byte.  On a match the path
 * goes to bin.
 */
static int match_template(const char *buf, size_t len, const char *type,
			  int version, struct strbuf *bin)
{
	static const char key[] = "\nahd_replay=";
	struct strbuf t = STRBUF_INIT, err = STRBUF_INIT;
	const char *k, *line_end, *t_after;
	size_t head, tail;
	int ret = 0;

	if (hook_render(&t, type, version, HOOK_BIN_PLACEHOLDER, &err))
		goto out;
	k = strstr(t.buf, key);
	if (!k)
		BUG("template %d has no binary line", version);
	head = (size_t)(k - t.buf) + strlen(key);
	t_after = strchr(t.buf + head, '\n');
	tail = t.len - (size_t)(t_after - t.buf);
	if (len < head + tail || memcmp(buf, t.buf, head))
		goto out;
	line_end = memchr(buf + head, '\n', len - head);
	if (!line_end || (size_t)(buf + len - line_end) != tail ||
	    memcmp(line_end, t_after, tail))
		goto out;
	strbuf_reset(bin);
	if (sq_unquote(bin, buf + head, line_end) || memchr(bin->buf, '\0',
							    bin->len)) {
		strbuf_reset(bin);
		goto out;
	}
	ret = 1;
out:
	strbuf_release(&t);
	strbuf_release(&err);
	return ret;
}

/*
 * The template version of the first marker line of buf, 0 when a marker
 * line has no readable version, -1 when there is none.
 */
static int marker_version(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	size_t mlen = strlen(HOOK_MARKER);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) > mlen && !memcmp(p, HOOK_MARKER, mlen)) {
			const char *v;
			long n = 0;

			for (v = le; v > p && v[-1] >= '0' && v[-1] <= '9'; v--)
				;
			if (v == le || le - v > 6 || v - p < 9 ||
			    memcmp(v - 9, "template ", 9))
				return 0;
			for (; v < le; v++)
				n = n * 10 + (*v - '0');
			return (int)n;
		}
		p = le + 1;
	}
	return -1;
}

static int contains(const struct strbuf *sb, const char *s)
{
	size_t n = strlen(s), i;

	if (sb->len < n)
		return 0;
	for (i = 0; i + n <= sb->len; i++)
		if (!memcmp(sb->buf + i, s, n))
			return 1;
	return 0;
}

static enum hook_manager detect_manager(const struct strbuf *content)
{
	if (contains(content, "File generated by pre-commit: https://pre-commit.com"))
		return MANAGER_PRE_COMMIT;
	/* husky 9's hooks source the file "h" beside them; older ones husky.sh */
	if (contains(content, "husky") || contains(content, "${0%/*}/h\""))
		return MANAGER_HUSKY;
	/* lefthook's own test: "LEFTHOOK" anywhere in the file */
	if (contains(content, "LEFTHOOK") && contains(content, "lefthook"))
		return MANAGER_LEFTHOOK;
	return MANAGER_NONE;
}

const char *hook_manager_name(enum hook_manager m)
{
	switch (m) {
	case MANAGER_PRE_COMMIT:
		return "the pre-commit framework";
	case MANAGER_HUSKY:
		return "husky";
	case MANAGER_LEFTHOOK:
		return "lefthook";
	default:
		return NULL;
	}
}

/* Hooks are small; a bigger file is not ours and is read only this far. */
#define HOOK_READ_MAX (256 * 1024)

static int read_head(struct strbuf *out, const char *path, int *whole,
		     struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_NOCTTY);
	char buf[8192];

	*whole = 0;
	if (fd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	while (out->len < HOOK_READ_MAX) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			strbuf_addf(err, "cannot read '%s': %s", path,
				    strerror(errno));
			close(fd);
			return -1;
		}
		if (!n) {
			*whole = 1;
			break;
		}
		strbuf_add(out, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

int hook_file_read(struct hook_file *hf, const char *path, const char *type,
		   struct strbuf *err)
{
	struct stat st;
	int whole = 0, v;

	hf->kind = HOOK_MISSING;
	hf->manager = MANAGER_NONE;
	hf->version = 0;
	hf->symlink = hf->executable = 0;
	strbuf_reset(&hf->content);
	strbuf_reset(&hf->bin);
	if (lstat(path, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		strbuf_addf(err, "cannot look at '%s': %s", path,
			    strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		struct stat target;

		hf->symlink = 1;
		hf->kind = HOOK_FOREIGN;
		/* git runs what the link points to, if it can */
		if (!stat(path, &target) && S_ISREG(target.st_mode)) {
			hf->executable = !access(path, X_OK);
			if (!read_head(&hf->content, path, &whole, err))
				hf->manager = detect_manager(&hf->content);
			else
				strbuf_reset(err);
		}
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		hf->kind = HOOK_NOT_FILE;
		return 0;
	}
	hf->executable = !access(path, X_OK);
	if (read_head(&hf->content, path, &whole, err))
		return -1;
	for (v = 1; whole && v <= HOOK_TEMPLATE_VERSION; v++)
		if (match_template(hf->content.buf, hf->content.len, type, v,
				   &hf->bin)) {
			hf->kind = HOOK_OURS;
			hf->version = v;
			return 0;
		}
	v = marker_version(hf->content.buf, hf->content.len);
	if (v > HOOK_TEMPLATE_VERSION) {
		hf->kind = HOOK_OURS_NEWER;
		hf->version = v;
	} else if (v >= 0) {
		hf->kind = HOOK_OURS_EDITED;
		hf->version = v;
	} else {
		hf->kind = HOOK_FOREIGN;
		hf->manager = detect_manager(&hf->content);
	}
	return 0;
}

void hook_file_release(struct hook_file *hf)
{
	strbuf_release(&hf->content);
	strbuf_release(&hf->bin);
}

/* --- files ----------------------------------------------------------- */

int hook_write(const char *path, const char *buf, size_t len,
	       struct strbuf *err)
{
	return write_file_atomic(path, buf, len, 0755, err);
}

int hook_find_on_path(struct strbuf *out, const char *name)
{
	const char *p = getenv("PATH");

	if (!p)
		return 0;
	for (;;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		struct stat st;

		strbuf_reset(out);
		if (n)
			strbuf_add(out, p, n);
		else
			strbuf_addch(out, '.');
		strbuf_addch(out, '/');
		strbuf_addstr(out, name);
		if (!stat(out->buf, &st) && S_ISREG(st.st_mode) &&
		    !access(out->buf, X_OK))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	strbuf_reset(out);
	return 0;
}

int hook_self_path(struct strbuf *out, struct strbuf *err)
{
	struct stat self;
	struct strbuf why = STRBUF_INIT;	/* a removed cwd: try on */
	char buf[PATH_MAX];
	ssize_t n;
	int have_self = !stat("/proc/self/exe", &self);

#if defined(__linux__) && defined(AT_EXECFN)
	{
		/* The name the binary was started by, links not resolved. */
		const char *fn = (const char *)getauxval(AT_EXECFN);
		struct stat st;

		if (fn && *fn && strchr(fn, '/') && have_self) {
			strbuf_reset(out);
			if (!path_absolute(out, fn, &why) &&
			    !stat(out->buf, &st) && st.st_dev == self.st_dev &&
			    st.st_ino == self.st_ino) {
				strbuf_release(&why);
				return 0;
			}
		}
	}
#endif
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0 && buf[0] == '/') {
		strbuf_reset(out);
		strbuf_add(out, buf, (size_t)n);
		strbuf_release(&why);
		return 0;
	}
	/* without /proc: the ahd-replay on PATH, which the shim falls back to */
	{
		struct strbuf found = STRBUF_INIT;
		int ok = hook_find_on_path(&found, "ahd-replay");

		if (ok) {
			strbuf_reset(out);
			ok = !path_absolute(out, found.buf, &why);
		}
		strbuf_release(&found);
		if (ok) {
			strbuf_release(&why);
			return 0;
		}
	}
	strbuf_release(&why);
	strbuf_addstr(err, "cannot tell where this ahd-replay binary is");
	return -1;
}
