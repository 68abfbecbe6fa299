/*
 * ahd-replay capture's core (see capture.h): the options that describe
 * a run, what is gathered about it, and the sidecar written.
 */
#include "config.h"
#include "capture.h"
#include "fs/atomicfile.h"
#include "fs/path.h"
#include "fs/readfile.h"
#include "fs/write.h"
#include "git/gitstate.h"
#include "hash/hashfile.h"
#include "json/jsonout.h"
#include "render.h"
#include "root/root.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Number.MAX_SAFE_INTEGER: integers up to here are exact doubles. */
#define MAX_SAFE_INTEGER 9007199254740991.0

/* --- the options -------------------------------------------------------- */

static void append(struct jval *arr, struct jval *v)
{
	if (!v || jval_array_append_new(arr, v))
		die("out of memory");
}

static struct jval *new_array(void)
{
	struct jval *v = jval_array();

	if (!v)
		die("out of memory");
	return v;
}

static struct jval *new_object(void)
{
	struct jval *v = jval_object();

	if (!v)
		die("out of memory");
	return v;
}

void capture_opts_init(struct capture_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->models = new_array();
	opts->requested = new_array();
}

void capture_opts_release(struct capture_opts *opts)
{
	jval_decref(opts->models);
	jval_decref(opts->requested);
	jval_decref(opts->effective);
	jval_decref(opts->argv);
	opts->models = opts->requested = opts->effective = opts->argv = NULL;
}

/*
 * --model <id>=<provider>[:<request-id>,...].  The id ends at the first
 * '=' (ids such as "cf:@cf/google/gemma-4-26b-a4b-it" hold ':' but no
 * '='), the provider at the first ':' after it.
 */
int capture_add_model(struct capture_opts *opts, const char *arg)
{
	const char *eq = strchr(arg, '='), *colon, *p;
	struct strbuf sb = STRBUF_INIT;
	struct jval *m, *ids;

	colon = eq ? strchr(eq + 1, ':') : NULL;
	if (!eq || eq == arg || eq[1] == '\0' || colon == eq + 1)
		return error("invalid --model '%s': expected "
			     "<id>=<provider>[:<request-id>,...]", arg);
	m = new_object();
	ids = new_array();
	strbuf_add(&sb, arg, (size_t)(eq - arg));
	jsonout_set(m, "id", jsonout_text(sb.buf));
	strbuf_reset(&sb);
	if (colon)
		strbuf_add(&sb, eq + 1, (size_t)(colon - eq - 1));
	else
		strbuf_addstr(&sb, eq + 1);
	jsonout_set(m, "provider", jsonout_text(sb.buf));
	for (p = colon ? colon + 1 : NULL; p && *p; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!len || (comma && !comma[1])) {
			jval_decref(m);
			jval_decref(ids);
			strbuf_release(&sb);
			return error("invalid --model '%s': empty request id",
				     arg);
		}
		strbuf_reset(&sb);
		strbuf_add(&sb, p, len);
		append(ids, jsonout_text(sb.buf));
		p = comma ? comma + 1 : NULL;
	}
	jsonout_set(m, "provider_request_ids", ids);
	append(opts->models, m);
	strbuf_release(&sb);
	return 0;
}

void capture_add_condition(struct capture_opts *opts, int effective,
			   const char *condition)
{
	struct jval **list = effective ? &opts->effective : &opts->requested;

	if (!*list)
		*list = new_array();
	append(*list, jsonout_text(condition));
}

void capture_set_argv(struct capture_opts *opts, int argc,
		      char *const *argv)
{
	int i;

	jval_decref(opts->argv);
	opts->argv = new_array();
	for (i = 0; i < argc; i++)
		append(opts->argv, jsonout_text(argv[i]));
}

int capture_parse_argv_json(struct capture_opts *opts)
{
	struct jval_error jerr;
	struct jval *v = jval_loadb(opts->argv_json, strlen(opts->argv_json), 0, &jerr), *item;
	size_t i;

	if (!v) {
		return error("invalid --argv-json: %s", jerr.text);
	}
	if (!jval_is_array(v)) {
		error("invalid --argv-json: not an array");
		goto fail;
	}
	jval_array_foreach(v, i, item)
		if (!jval_is_string(item)) {
			error("invalid --argv-json: item %zu is not a string",
			      i);
			goto fail;
		}
	jval_decref(opts->argv);
	opts->argv = v;
	return 0;
fail:
	jval_decref(v);
	return -1;
}

/*
 * A decimal integer within Number.MAX_SAFE_INTEGER (so that the double
 * holds it exactly), with a '-' when negative is set.  Returns 0 or -1.
 */
static int parse_integer(const char *s, int negative, double *out)
{
	const char *p = s;
	double v = 0;

	if (negative && *p == '-')
		p++;
	if (!*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
		if (v > MAX_SAFE_INTEGER)
			return -1;
	}
	*out = *s == '-' ? -v : v;
	return 0;
}

/* A finite decimal number: -?(d+(.d*)?|.d+)([eE][+-]?d+)? */
static int parse_number(const char *s, double *out)
{
	const char *p = s;
	char *end;
	int digits = 0;

	if (*p == '-')
		p++;
	while (isdigit((unsigned char)*p))
		p++, digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return -1;
	*out = strtod(s, &end);
	if (*end || !isfinite(*out))
		return -1;
	return 0;
}

/*
 * What the options say beyond their presence: the kind, the numbers, the
 * report.  Returns 0, or -1 after error().
 */
int capture_check_options(struct capture_opts *opts)
{
	const char *report = opts->report;

	if (strcmp(opts->kind, "eval-live") && strcmp(opts->kind, "critique") &&
	    strcmp(opts->kind, "eval-image"))
		return error("invalid --kind '%s': expected eval-live, "
			     "eval-image or critique", opts->kind);
	if (opts->brief && !strcmp(opts->kind, "critique"))
		return error("critique runs have no brief (their sidecar "
			     "records brief: null)");
	if (parse_integer(opts->n, 0, &opts->n_value) || opts->n_value < 1)
		return error("invalid --n '%s': expected an integer > 0",
			     opts->n);
	if (opts->temperature &&
	    parse_number(opts->temperature, &opts->temperature_value))
		return error("invalid --temperature '%s': expected a number",
			     opts->temperature);
	if (opts->seed && parse_integer(opts->seed, 1, &opts->seed_value))
		return error("invalid --seed '%s': expected an integer",
			     opts->seed);
	if (report && ends_with(report, ".replay.json"))
		return error("--report takes the markdown report, not its "
			     "sidecar '%s'", report);
	return 0;
}

/* --- what a capture records about the run ------------------------------ */

/* The reference walks up this many directories for its package.json. */
#define PACKAGE_MAX_LEVELS 8
#define AHD_PACKAGE "@adastracomputing/ahd"

/*
 * Date.prototype.toISOString() of now, or $AHD_REPLAY_NOW for tests.
 * Returns 0, or -1 with a reason in err.
 */
static int capture_now(struct strbuf *out, struct strbuf *err)
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

/*
 * Node's `${process.platform}-${process.arch}` from uname(): the names
 * Node uses for the systems and machines it runs on, the lower-cased
 * uname names otherwise.
 */
static void capture_platform(struct strbuf *out)
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
	struct jval *pkg = NULL, *name, *version;
	int ret = -1;

	if (access(path, F_OK) ||
	    read_file_limited(&buf, path, (size_t)4 << 20, &err))
		goto out;
	pkg = jval_loadb(buf.buf, buf.len, 0, NULL);
	name = jval_object_get(pkg, "name");
	if (!jval_is_string(name) ||
	    strcmp(jval_string_value(name), AHD_PACKAGE))
		goto out;
	version = jval_object_get(pkg, "version");
	ret = 0;
	if (jval_is_string(version) && jval_string_length(version)) {
		strbuf_addstr(out, jval_string_value(version));
		ret = 1;
	}
out:
	jval_decref(pkg);
	strbuf_release(&buf);
	strbuf_release(&err);
	return ret;
}

/*
 * The "version" of the reference's package.json: the first package.json
 * named @adastracomputing/ahd walking up from dir (dir and at most seven
 * parents, the root rule's walk).  Appends it to out and returns 1, or
 * returns 0 when there is none (or it has no version).
 */
static int capture_package_version(struct strbuf *out, const char *dir)
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

/*
 * An input of the run (what names it in messages: "token" or "brief"),
 * hashed in mode.  The recorded path is the one verify will read it by:
 * relative to root, its directories resolved, its last component kept
 * (a symlink inside the root stays a symlink).  The file, followed
 * through any symlink, must be inside the root too, or verify would
 * refuse it.  Returns 0 with the recorded path appended to rel_out and
 * the hash in hex, or -1 with a reason in err.
 */
static int capture_input(struct strbuf *rel_out, char hex[HASH_HEX_MAX],
			 const char *what, const char *path,
			 const char *root, enum hash_mode mode,
			 struct strbuf *err)
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

/* The brief's hash mode: what verify recomputes, structured for YAML/JSON. */
static enum hash_mode capture_brief_mode(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strchr(dot, '/') && (!strcasecmp(dot, ".yml") ||
					 !strcasecmp(dot, ".yaml") ||
					 !strcasecmp(dot, ".json")))
		return HASH_STRUCTURED;
	return HASH_RAW;
}

/* --- the run ------------------------------------------------------------ */

/* The directory part of path ("." without one). */
static void dirname_of(struct strbuf *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		strbuf_addch(out, '.');
	else
		strbuf_add(out, path, slash == path ? 1 :
			   (size_t)(slash - path));
}

/* What one capture reads and writes. */
struct capture_state {
	struct strbuf sidecar;		/* the file to write */
	struct strbuf report;		/* the report's text, with --report */
	char *real_report;		/* written through a symlink */
	struct strbuf root;
	struct strbuf token, brief;	/* recorded paths */
	char token_hash[HASH_HEX_MAX], brief_hash[HASH_HEX_MAX];
	struct gitstate gs;
	struct strbuf version, when, platform;
	const char *report_path;	/* --report, as given */
};

static void capture_state_release(struct capture_state *cs)
{
	strbuf_release(&cs->sidecar);
	strbuf_release(&cs->report);
	free(cs->real_report);
	strbuf_release(&cs->root);
	strbuf_release(&cs->token);
	strbuf_release(&cs->brief);
	strbuf_release(&cs->version);
	strbuf_release(&cs->when);
	strbuf_release(&cs->platform);
}

/*
 * The report's text.  Only a regular file: a report that is a link to
 * /dev/stdin or a FIFO (one a commit can plant) must not hang the run,
 * so it is opened without blocking and refused by its type.
 */
static int read_report(struct strbuf *out, const char *path,
		       struct strbuf *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		strbuf_addf(err, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addstr(err, "not a regular file; a report is not "
			      "read from it");
		close(fd);
		return -1;
	}
	return read_fd_limited(out, fd, &st, 0, err) < 0 ? -1 : 0;
}

/*
 * Where the sidecar goes, and the report it is rendered into: refuse to
 * replace a sidecar without --force, or to write the report over its
 * own sidecar.  Returns 0, or -1 after printing an error.
 */
static int check_outputs(struct capture_state *cs,
			 const struct capture_opts *opts)
{
	struct strbuf err = STRBUF_INIT, placed = STRBUF_INIT;
	struct strbuf block = STRBUF_INIT;
	char *real_sidecar = NULL;
	struct stat st;
	int ret = -1;

	if (opts->out)
		strbuf_addstr(&cs->sidecar, opts->out);
	else
		sidecar_path_for(&cs->sidecar, opts->report);
	if (!opts->force && !lstat(cs->sidecar.buf, &st)) {
		error("%s already exists; use --force to replace it",
		      cs->sidecar.buf);
		goto out;
	}
	if (opts->report) {
		if (read_report(&cs->report, opts->report, &err)) {
			error("%s: %s", opts->report, err.buf);
			goto out;
		}
		cs->report_path = opts->report;
		/* a report that is a symlink stays one */
		cs->real_report = realpath(opts->report, NULL);
		if (!cs->real_report) {
			error("cannot resolve '%s': %s", opts->report,
			      strerror(errno));
			goto out;
		}
		if (!stat(cs->real_report, &st) && st.st_nlink > 1) {
			error("%s has %lu hard links; rewriting it would "
			      "detach it from the others", opts->report,
			      (unsigned long)st.st_nlink);
			goto out;
		}
		/* a block that cannot be replaced safely: refuse now */
		if (render_place_block(&placed, &cs->report, &block, &err)) {
			error("%s: %s", opts->report, err.buf);
			goto out;
		}
		real_sidecar = realpath(cs->sidecar.buf, NULL);
		if (!strcmp(opts->report, cs->sidecar.buf) ||
		    (real_sidecar && !strcmp(real_sidecar, cs->real_report))) {
			error("the sidecar and the report are the same file "
			      "'%s'", cs->sidecar.buf);
			goto out;
		}
	}
	ret = 0;
out:
	free(real_sidecar);
	strbuf_release(&err);
	strbuf_release(&placed);
	strbuf_release(&block);
	return ret;
}

/*
 * The root, the inputs' paths and hashes, the git state, the time, the
 * version and the platform.  Returns 0, or -1 after printing an error.
 */
static int gather(struct capture_state *cs, const struct capture_opts *opts)
{
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	const char *env;
	int ret = -1;

	/* The root verify will find for this report (or sidecar). */
	dirname_of(&dir, opts->report ? opts->report : cs->sidecar.buf);
	if (root_find(&cs->root, dir.buf, opts->root, &err) < 0 ||
	    capture_input(&cs->token, cs->token_hash, "token", opts->token,
			  cs->root.buf, HASH_STRUCTURED, &err) ||
	    (opts->brief &&
	     capture_input(&cs->brief, cs->brief_hash, "brief", opts->brief,
			   cs->root.buf, capture_brief_mode(opts->brief),
			   &err)) ||
	    gitstate_read(&cs->gs, cs->root.buf, &err) ||
	    capture_now(&cs->when, &err)) {
		error("%s", err.buf);
		goto out;
	}
	env = getenv("AHD_VERSION");
	if (env && *env)
		strbuf_addstr(&cs->version, env);
	else if (!capture_package_version(&cs->version, cs->root.buf))
		strbuf_addstr(&cs->version, "unknown");
	capture_platform(&cs->platform);
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&err);
	return ret;
}

/* The sidecar's text from what was gathered and the options. */
static void build(struct strbuf *out, const struct capture_state *cs,
		  const struct capture_opts *opts)
{
	struct sidecar_record rec;
	struct jval *version = jsonout_text(cs->version.buf);
	const char *env = getenv("AHD_NODE_VERSION");

	memset(&rec, 0, sizeof(rec));
	rec.kind = opts->kind;
	rec.ahd_version = version;
	rec.ahd_commit = cs->gs.commit[0] ? cs->gs.commit : NULL;
	rec.git_dirty = cs->gs.dirty;
	rec.node_version = env && *env ? env : "unknown";
	rec.platform = cs->platform.buf;
	rec.invoked_at = cs->when.buf;
	rec.argv = opts->argv;
	rec.token.path = cs->token.buf;
	rec.token.hash = cs->token_hash;
	if (opts->brief) {
		rec.brief.path = cs->brief.buf;
		rec.brief.hash = cs->brief_hash;
	}
	rec.n = opts->n_value;
	rec.temperature = opts->temperature ? &opts->temperature_value : NULL;
	rec.seed = opts->seed ? &opts->seed_value : NULL;
	rec.models = opts->models;
	rec.requested = opts->requested;
	rec.effective = opts->effective ? opts->effective : opts->requested;
	sidecar_to_json(out, &rec);
	jval_decref(version);
}

/*
 * Open the replacement of path, a file capture writes.  Inside the root
 * it is held to the root (fs/write.h): no symlink of the repository
 * leads the write out.  Outside it (only where --out names a place
 * there, the user's own choice) the path must name that place itself:
 * a symlink on the way (one that took the root search into another
 * repository, say) is refused; a sidecar that is a symlink is followed
 * as before.
 */
static int open_output(struct atomic_file *af, const char *root,
		       const char *path, struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT, dir = STRBUF_INIT;
	char *real = NULL;
	struct stat st;
	int ret = -1;

	if (path_absolute(&abs, path, err))
		goto out;
	if (path_is_within(abs.buf, root)) {
		ret = write_beneath_open(af, root, path, 0666, err);
		goto out;
	}
	path_dirname(&dir, abs.buf);
	real = realpath(dir.buf, NULL);
	if (!real || strcmp(real, dir.buf)) {
		strbuf_addf(err, "cannot write '%s': it is outside the root "
			    "%s and a symlink leads to it; not written", path,
			    root);
		goto out;
	}
	ret = lstat(path, &st) ? atomic_file_open(af, path, 0666, err) :
		atomic_file_open_in_place(af, path, err);
out:
	free(real);
	strbuf_release(&abs);
	strbuf_release(&dir);
	return ret;
}

static int write_all(struct atomic_file *af, const struct strbuf *text,
		     struct strbuf *err)
{
	if (atomic_file_write(af, text->buf, text->len, err) < 0)
		return -1;
	return atomic_file_commit(af, err);
}

/*
 * Write the sidecar, then render what was written (as verify will read
 * it) into the report.  Both places are checked before either is
 * written: a report that may not be written leaves no sidecar behind.
 * Returns 0, or -1 after printing an error.
 */
static int write_outputs(const struct capture_state *cs,
			 const struct strbuf *text)
{
	struct strbuf err = STRBUF_INIT, block = STRBUF_INIT;
	struct strbuf placed = STRBUF_INIT;
	struct sidecar sc = SIDECAR_INIT;
	struct atomic_file side, report;
	int have_report = 0, ret = -1;

	if (cs->real_report) {
		if (open_output(&report, cs->root.buf, cs->report_path, &err))
			goto fail;
		have_report = 1;
	}
	/* --force over a sidecar that is a symlink rewrites what it names */
	if (open_output(&side, cs->root.buf, cs->sidecar.buf, &err) ||
	    write_all(&side, text, &err))
		goto fail;
	if (have_report) {
		if (sidecar_load(&sc, cs->sidecar.buf, &err)) {
			error("%s: %s", cs->sidecar.buf, err.buf);
			goto out;
		}
		render_markdown(&block, &sc);
		if (render_place_block(&placed, &cs->report, &block, &err) ||
		    atomic_file_write(&report, placed.buf, placed.len,
				      &err) < 0 ||
		    atomic_file_commit(&report, &err) < 0) {
			have_report = 0;	/* aborted by the failure */
			goto fail;
		}
		have_report = 0;
	}
	ret = 0;
	goto out;
fail:
	error("%s", err.buf);
out:
	if (have_report)
		atomic_file_abort(&report);
	sidecar_release(&sc);
	strbuf_release(&err);
	strbuf_release(&block);
	strbuf_release(&placed);
	return ret;
}

int capture_write(const struct capture_opts *opts)
{
	struct capture_state cs = {
		STRBUF_INIT, STRBUF_INIT, NULL, STRBUF_INIT, STRBUF_INIT,
		STRBUF_INIT, "", "", GITSTATE_INIT, STRBUF_INIT, STRBUF_INIT,
		STRBUF_INIT, NULL
	};
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	if (!check_outputs(&cs, opts) && !gather(&cs, opts)) {
		build(&text, &cs, opts);
		if (!write_outputs(&cs, &text))
			ret = 0;
	}
	strbuf_release(&text);
	capture_state_release(&cs);
	return ret;
}
