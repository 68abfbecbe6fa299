/*
 * What a capture records about the run (see capture.h).
 */
#include "config.h"
#include "capture.h"
#include "fs/readfile.h"
#include "root/root.h"
#include "strutil.h"
#include "utf8.h"
#include "fs/path.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* The reference walks up this many directories for its package.json. */
#define PACKAGE_MAX_LEVELS 8
#define AHD_PACKAGE "@adastracomputing/ahd"

int capture_now(struct strbuf *out, struct strbuf *err)
{
	const char *fake = getenv("AHD_REPLAY_NOW");
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
	struct timespec ts;
	struct tm tm;
	size_t i;

	if (fake && *fake) {
		for (i = 0; shape[i] && fake[i]; i++)
			if (shape[i] == 'd' ? !isdigit((unsigned char)fake[i]) :
			    shape[i] != fake[i])
				break;
		if (shape[i] || fake[i]) {
			strbuf_addf(err, "invalid AHD_REPLAY_NOW '%s': "
				    "expected YYYY-MM-DDTHH:MM:SS.mmmZ", fake);
			return -1;
		}
		strbuf_addstr(out, fake);
		return 0;
	}
	if (clock_gettime(CLOCK_REALTIME, &ts) || !gmtime_r(&ts.tv_sec, &tm) ||
	    tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999) {
		strbuf_addstr(err, "cannot read the clock");
		return -1;
	}
	strbuf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, (long)(ts.tv_nsec / 1000000));
	return 0;
}

void capture_platform(struct strbuf *out)
{
	static const struct { const char *uname, *node; } systems[] = {
		{ "Linux", "linux" }, { "Darwin", "darwin" },
		{ "FreeBSD", "freebsd" }, { "OpenBSD", "openbsd" },
		{ "NetBSD", "netbsd" }, { "SunOS", "sunos" }, { "AIX", "aix" },
		{ "OS400", "os400" },
	}, machines[] = {
		{ "x86_64", "x64" }, { "amd64", "x64" }, { "i386", "ia32" },
		{ "i486", "ia32" }, { "i586", "ia32" }, { "i686", "ia32" },
		{ "i86pc", "ia32" }, { "aarch64", "arm64" },
		{ "arm64", "arm64" }, { "ppc64le", "ppc64" },
		{ "ppc64", "ppc64" }, { "powerpc", "ppc" }, { "ppc", "ppc" },
		{ "s390x", "s390x" }, { "s390", "s390" },
		{ "riscv64", "riscv64" }, { "loongarch64", "loong64" },
	};
	struct utsname u;
	const char *sys = NULL, *arch = NULL, *p;
	size_t i;

	if (uname(&u)) {
		strbuf_addstr(out, "unknown");
		return;
	}
	for (i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		if (!strcmp(u.sysname, systems[i].uname))
			sys = systems[i].node;
	if (starts_with(u.sysname, "CYGWIN") ||
	    starts_with(u.sysname, "MINGW") || starts_with(u.sysname, "MSYS"))
		sys = "win32";
#ifdef __ANDROID__
	sys = "android";
#endif
	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(u.machine, machines[i].uname))
			arch = machines[i].node;
	if (!arch && starts_with(u.machine, "arm"))
		arch = "arm";
	if (!arch && starts_with(u.machine, "mips")) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		arch = strstr(u.machine, "64") ? "mips64el" : "mipsel";
#else
		arch = strstr(u.machine, "64") ? "mips64" : "mips";
#endif
	}
	if (sys)
		strbuf_addstr(out, sys);
	else
		for (p = u.sysname; *p; p++)
			strbuf_addch(out, tolower((unsigned char)*p));
	strbuf_addch(out, '-');
	if (arch)
		strbuf_addstr(out, arch);
	else
		for (p = u.machine; *p; p++)
			strbuf_addch(out, tolower((unsigned char)*p));
}

/*
 * The package.json at path, when it is the reference's: 1 with its
 * version appended to out, 0 when it has none, -1 when the file is not
 * the reference's (missing, unreadable, not JSON, another name).
 */
static int read_package(struct strbuf *out, const char *path)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	json_t *pkg = NULL, *name, *version;
	int ret = -1;

	if (access(path, F_OK) ||
	    read_file_limited(&buf, path, (size_t)4 << 20, &err))
		goto out;
	pkg = json_loadb(buf.buf, buf.len, 0, NULL);
	name = json_object_get(pkg, "name");
	if (!json_is_string(name) ||
	    strcmp(json_string_value(name), AHD_PACKAGE))
		goto out;
	version = json_object_get(pkg, "version");
	ret = 0;
	if (json_is_string(version) && json_string_length(version)) {
		strbuf_addstr(out, json_string_value(version));
		ret = 1;
	}
out:
	json_decref(pkg);
	strbuf_release(&buf);
	strbuf_release(&err);
	return ret;
}

int capture_package_version(struct strbuf *out, const char *dir)
{
	struct strbuf cur = STRBUF_INIT, path = STRBUF_INIT;
	int i, found = -1;

	path_resolve(&cur, NULL, dir);
	for (i = 0; i < PACKAGE_MAX_LEVELS && found < 0; i++) {
		char *slash;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s%spackage.json", cur.buf,
			    strcmp(cur.buf, "/") ? "/" : "");
		found = read_package(out, path.buf);
		if (!strcmp(cur.buf, "/"))
			break;
		slash = strrchr(cur.buf, '/');
		strbuf_setlen(&cur, slash == cur.buf ? 1 :
			      (size_t)(slash - cur.buf));
	}
	strbuf_release(&cur);
	strbuf_release(&path);
	return found > 0;
}

static int under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return path[0] == '/';
	return !strncmp(path, root, n) && path[n] == '/';
}

int capture_input(struct strbuf *rel_out, char hex[HASH_HEX_MAX],
		  const char *what, const char *path, const char *root,
		  enum hash_mode mode, struct strbuf *err)
{
	struct strbuf parent = STRBUF_INIT, abs = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *base, *rel;
	char *real = NULL, *real_parent = NULL;
	struct stat st;
	int ret = -1;

	if (!*path || !strcmp(path, "-")) {
		strbuf_addf(err, "the %s must be a file", what);
		goto out;
	}
	real = realpath(path, NULL);
	if (!real || stat(real, &st)) {
		strbuf_addf(err, "cannot open %s '%s': %s", what, path,
			    strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s '%s' is not a regular file", what, path);
		goto out;
	}
	base = strrchr(path, '/');
	if (base)
		strbuf_add(&parent, path, base == path ? 1 :
			   (size_t)(base - path));
	else
		strbuf_addch(&parent, '.');
	base = base ? base + 1 : path;
	real_parent = realpath(parent.buf, NULL);
	if (!real_parent) {
		strbuf_addf(err, "cannot resolve '%s': %s", parent.buf,
			    strerror(errno));
		goto out;
	}
	strbuf_addstr(&abs, real_parent);
	if (strcmp(real_parent, "/"))
		strbuf_addch(&abs, '/');
	strbuf_addstr(&abs, base);
	if (!under(abs.buf, root) || !under(real, root)) {
		strbuf_addf(err, "%s '%s' is outside the root %s", what, path,
			    root);
		goto out;
	}
	rel = abs.buf + strlen(root) + (strcmp(root, "/") ? 1 : 0);
	/* JSON holds text; a name that is not UTF-8 could not be found */
	if (utf8_valid_prefix(rel, strlen(rel)) != strlen(rel)) {
		strbuf_addf(err, "%s path '%s' is not valid UTF-8", what, rel);
		goto out;
	}
	if (hash_file(hex, path, mode, HASH_DEFAULT_MAX_SIZE, &why)) {
		strbuf_addf(err, "%s: %s", path, why.buf);
		goto out;
	}
	strbuf_addstr(rel_out, rel);
	ret = 0;
out:
	free(real);
	free(real_parent);
	strbuf_release(&parent);
	strbuf_release(&abs);
	strbuf_release(&why);
	return ret;
}

enum hash_mode capture_brief_mode(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strchr(dot, '/') && (!strcasecmp(dot, ".yml") ||
					 !strcasecmp(dot, ".yaml") ||
					 !strcasecmp(dot, ".json")))
		return HASH_STRUCTURED;
	return HASH_RAW;
}
