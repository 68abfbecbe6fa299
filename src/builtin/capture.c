/*
 * ahd-replay capture: write the replay sidecar of a run.
 *
 * Everything is checked before anything is written: the options, the
 * inputs (inside the root, hashed exactly as verify will re-hash them:
 * the token structured, a YAML or JSON brief structured, any other brief
 * raw), the report, the git state.  Then the sidecar is written
 * atomically, read back through sidecar_load() (so a sidecar this tool
 * writes is one its verify accepts) and, with --report, rendered into
 * the report under its first heading or over the block already there.
 *
 * Field for field the sidecar is what the reference's runner writes,
 * with two differences forced by not being Node: node_version comes from
 * AHD_NODE_VERSION ("unknown" without it), and the token's hash is the
 * one its verifier recomputes from the file (the runner hashes its
 * schema-normalised token object instead, SPEC section 6).
 */
#include "config.h"
#include "atomicfile.h"
#include "builtin.h"
#include "gitstate.h"
#include "hashfile.h"
#include "input.h"
#include "jsonout.h"
#include "parse-options.h"
#include "render.h"
#include "root.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const char capture_usage[] =
	"usage: ahd-replay capture --kind=<kind> --token=<path> [--brief=<path>] --n=<n> [--temperature=<x>] [--seed=<s>] [--model=<id>=<provider>[:<request-id>,...]]... [--condition=<c>]... [--effective=<c>]... [--report=<report.md>] [--out=<sidecar>] [--root=<dir>] [--force] [--argv-json=<json> | -- <argv>...]\n"
	"\n"
	"    --kind=<kind>         eval-live, eval-image or critique\n"
	"    --token=<path>        the style token the run used (hashed\n"
	"                          structured)\n"
	"    --brief=<path>        the brief: .yml, .yaml, .json hashed\n"
	"                          structured, anything else raw (none for\n"
	"                          critique runs)\n"
	"    --n=<n>               samples per cell, an integer > 0\n"
	"    --temperature=<x>     the sampling temperature (default null)\n"
	"    --seed=<s>            the global seed, an integer (default null)\n"
	"    --model=<id>=<provider>[:<request-id>,...]\n"
	"                          a model of the run, repeatable\n"
	"    --condition=<c>       a requested condition, repeatable\n"
	"    --effective=<c>       an effective condition, repeatable\n"
	"                          (default: the requested ones)\n"
	"    --report=<report.md>  write the sidecar beside this report and\n"
	"                          put the rendered block in it\n"
	"    --out=<sidecar>       where to write the sidecar (needed without\n"
	"                          --report)\n"
	"    --root=<dir>          record paths relative to <dir>\n"
	"    --force               replace an existing sidecar\n"
	"    --argv-json=<json>    the run's command line, a JSON array of\n"
	"                          strings; or give it after --\n"
	"\n"
	"Exit status: 0 when the sidecar was written, 2 on usage errors and\n"
	"unusable input.\n";

static const struct option capture_options[] = {
	{ "kind", required_argument, NULL, 'k' },
	{ "token", required_argument, NULL, 't' },
	{ "brief", required_argument, NULL, 'b' },
	{ "n", required_argument, NULL, 'n' },
	{ "temperature", required_argument, NULL, 'T' },
	{ "seed", required_argument, NULL, 's' },
	{ "model", required_argument, NULL, 'm' },
	{ "condition", required_argument, NULL, 'c' },
	{ "effective", required_argument, NULL, 'e' },
	{ "report", required_argument, NULL, 'r' },
	{ "out", required_argument, NULL, 'o' },
	{ "root", required_argument, NULL, 'R' },
	{ "force", no_argument, NULL, 'f' },
	{ "argv-json", required_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Number.MAX_SAFE_INTEGER: integers up to here are exact doubles. */
#define MAX_SAFE_INTEGER 9007199254740991.0

/* The reference walks up this many directories for its package.json. */
#define PACKAGE_MAX_LEVELS 8
#define AHD_PACKAGE "@adastracomputing/ahd"

struct capture_opts {
	const char *kind;
	const char *token;
	const char *brief;
	const char *n;
	const char *temperature;
	const char *seed;
	const char *report;
	const char *out;
	const char *root;
	const char *argv_json;
	int force;
	json_t *models;		/* owned; array of model objects */
	json_t *requested;	/* owned; array of strings */
	json_t *effective;	/* owned; NULL unless --effective */
	json_t *argv;		/* owned; NULL without --argv-json or -- */
};

static void capture_opts_release(struct capture_opts *opts)
{
	json_decref(opts->models);
	json_decref(opts->requested);
	json_decref(opts->effective);
	json_decref(opts->argv);
	opts->models = opts->requested = opts->effective = opts->argv = NULL;
}

static void append(json_t *arr, json_t *v)
{
	if (!v || json_array_append_new(arr, v))
		die("out of memory");
}

static json_t *new_array(void)
{
	json_t *v = json_array();

	if (!v)
		die("out of memory");
	return v;
}

static json_t *new_object(void)
{
	json_t *v = json_object();

	if (!v)
		die("out of memory");
	return v;
}

static void once(const char **slot, const char *value, const char *name)
{
	if (*slot)
		usage_error(capture_usage, "--%s given twice", name);
	*slot = value;
}

/*
 * --model <id>=<provider>[:<request-id>,...].  The id ends at the first
 * '=' (ids such as "cf:@cf/google/gemma-4-26b-a4b-it" hold ':' but no
 * '='), the provider at the first ':' after it.
 */
static void parse_model(json_t *models, const char *arg)
{
	const char *eq = strchr(arg, '='), *colon, *p;
	struct strbuf sb = STRBUF_INIT;
	json_t *m, *ids;

	colon = eq ? strchr(eq + 1, ':') : NULL;
	if (!eq || eq == arg || eq[1] == '\0' || colon == eq + 1)
		usage_error(capture_usage, "invalid --model '%s': expected "
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

		if (!len || (comma && !comma[1]))
			usage_error(capture_usage, "invalid --model '%s': "
				    "empty request id", arg);
		strbuf_reset(&sb);
		strbuf_add(&sb, p, len);
		append(ids, jsonout_text(sb.buf));
		p = comma ? comma + 1 : NULL;
	}
	jsonout_set(m, "provider_request_ids", ids);
	append(models, m);
	strbuf_release(&sb);
}

/* --argv-json: a JSON array of strings, as process.argv would be. */
static json_t *parse_argv_json(const char *text)
{
	json_error_t jerr;
	json_t *v = json_loads(text, 0, &jerr), *item;
	size_t i;

	if (!v)
		usage_error(capture_usage, "invalid --argv-json: %s",
			    jerr.text);
	if (!json_is_array(v))
		usage_error(capture_usage, "invalid --argv-json: not an array");
	json_array_foreach(v, i, item)
		if (!json_is_string(item))
			usage_error(capture_usage, "invalid --argv-json: item "
				    "%zu is not a string", i);
	return v;
}

static void parse_capture_options(struct capture_opts *opts, int argc,
				  char **argv)
{
	const char *last_arg = NULL;
	int c, i;

	opts->models = new_array();
	opts->requested = new_array();
	reset_getopt();
	while ((c = getopt_long(argc, argv, "+:h", capture_options,
				NULL)) != -1) {
		last_arg = optarg;
		switch (c) {
		case 'k':
			once(&opts->kind, optarg, "kind");
			break;
		case 't':
			once(&opts->token, optarg, "token");
			break;
		case 'b':
			once(&opts->brief, optarg, "brief");
			break;
		case 'n':
			once(&opts->n, optarg, "n");
			break;
		case 'T':
			once(&opts->temperature, optarg, "temperature");
			break;
		case 's':
			once(&opts->seed, optarg, "seed");
			break;
		case 'm':
			parse_model(opts->models, optarg);
			break;
		case 'c':
			append(opts->requested, jsonout_text(optarg));
			break;
		case 'e':
			if (!opts->effective)
				opts->effective = new_array();
			append(opts->effective, jsonout_text(optarg));
			break;
		case 'r':
			once(&opts->report, optarg, "report");
			break;
		case 'o':
			once(&opts->out, optarg, "out");
			break;
		case 'R':
			once(&opts->root, optarg, "root");
			break;
		case 'f':
			opts->force = 1;
			break;
		case 'a':
			once(&opts->argv_json, optarg, "argv-json");
			break;
		case 'h':
			usage_help(capture_usage);
		case ':':
			usage_error(capture_usage, "option '%s' needs a value",
				    argv[optind - 1]);
		default:
			usage_error(capture_usage, "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	/* the words after "--" (not an option's value "--") are argv */
	if (optind > 1 && !strcmp(argv[optind - 1], "--") &&
	    argv[optind - 1] != last_arg) {
		if (opts->argv_json)
			usage_error(capture_usage, "give the run's argv with "
				    "--argv-json or after --, not both");
		opts->argv = new_array();
		for (i = optind; i < argc; i++)
			append(opts->argv, jsonout_text(argv[i]));
	} else if (optind < argc)
		usage_error(capture_usage, "unexpected argument '%s' (the "
			    "run's argv goes after --)", argv[optind]);
	if (opts->argv_json)
		opts->argv = parse_argv_json(opts->argv_json);

	if (!opts->kind)
		usage_error(capture_usage, "--kind is required");
	if (strcmp(opts->kind, "eval-live") && strcmp(opts->kind, "critique") &&
	    strcmp(opts->kind, "eval-image"))
		usage_error(capture_usage, "invalid --kind '%s': expected "
			    "eval-live, eval-image or critique", opts->kind);
	if (!opts->token)
		usage_error(capture_usage, "--token is required");
	if (opts->brief && !strcmp(opts->kind, "critique"))
		usage_error(capture_usage, "critique runs have no brief "
			    "(their sidecar records brief: null)");
	if (!opts->n)
		usage_error(capture_usage, "--n is required");
	if (!opts->report && !opts->out)
		usage_error(capture_usage,
			    "--out is required without --report");
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

/* Date.prototype.toISOString() of now, or AHD_REPLAY_NOW for tests. */
static int now_iso(struct strbuf *out, struct strbuf *err)
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
static void platform(struct strbuf *out)
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

/*
 * The "version" of the reference's package.json: the first package.json
 * named @adastracomputing/ahd walking up from dir (dir and at most seven
 * parents, the root rule's walk).  Appends it to out and returns 1, or
 * returns 0 when there is none (or it has no version).
 */
static int package_version(struct strbuf *out, const char *dir)
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
 * The {path, hash} object of the input at path (what names it for error
 * messages: "token" or "brief"), hashed in mode.  The recorded path is
 * the one verify will read it by: relative to root, its directories
 * resolved, its last component kept (a symlink inside the root stays a
 * symlink).  The file, followed through any symlink, must be inside the
 * root too, or verify would refuse it.  Returns 0 with the recorded path
 * in rel and the hash in hex, or -1 with a reason in err.
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

/* The brief's hash: what verify recomputes, structured for YAML/JSON. */
static enum hash_mode brief_mode(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strchr(dot, '/') && (!strcasecmp(dot, ".yml") ||
					 !strcasecmp(dot, ".yaml") ||
					 !strcasecmp(dot, ".json")))
		return HASH_STRUCTURED;
	return HASH_RAW;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

/* A line of spaces and tabs only (a trailing '\r' included). */
static int is_blank(const char *p, const char *e)
{
	for (; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

/* Skip blank lines; returns the start of the first other line. */
static const char *skip_blank_lines(const char *p, const char *end)
{
	while (p < end) {
		const char *le = line_end(p, end);

		if (!is_blank(p, le))
			break;
		p = le < end ? le + 1 : end;
	}
	return p;
}

/*
 * The first level-one ATX heading ("# Title", up to three spaces in
 * front) outside fenced code blocks and YAML front matter.  Returns the
 * offset just past its line (past the newline), or -1.
 */
static long find_heading(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char fence = 0;
	size_t fence_len = 0;
	int front = 0;

	while (p < end) {
		const char *le = line_end(p, end), *q = p;
		size_t n = 0;

		if (p == text && le - p >= 3 && !memcmp(p, "---", 3) &&
		    is_blank(p + 3, le))
			front = 1;
		else if (front) {
			if ((le - p >= 3 && (!memcmp(p, "---", 3) ||
					     !memcmp(p, "...", 3))) &&
			    is_blank(p + 3, le))
				front = 0;
		} else {
			while (q < le && *q == ' ' && q - p < 3)
				q++;
			if (q < le && (*q == '`' || *q == '~')) {
				char ch = *q;

				while (q + n < le && q[n] == ch)
					n++;
				if (n >= 3 && !fence) {
					fence = ch;
					fence_len = n;
				} else if (n >= fence_len && ch == fence &&
					   is_blank(q + n, le))
					fence = 0;
			} else if (!fence && q < le && *q == '#' &&
				   (q + 1 == le || q[1] == ' ' ||
				    q[1] == '\t' || q[1] == '\r'))
				return (long)((le < end ? le + 1 : end) - text);
		}
		p = le < end ? le + 1 : end;
	}
	return -1;
}

/*
 * The report with the block in place: over the existing block, else
 * after the first heading and a blank line, else at the top; a blank
 * line between the block and what follows.
 */
static void place_block(struct strbuf *out, const struct strbuf *report,
			const struct strbuf *block)
{
	const char *text = report->buf, *end = report->buf + report->len;
	const char *rest;
	size_t begin, stop;
	long at;

	if (!render_find_block(text, report->len, &begin, &stop)) {
		strbuf_add(out, text, begin);
		strbuf_addbuf(out, block);
		strbuf_add(out, text + stop, report->len - stop);
		return;
	}
	at = find_heading(text, report->len);
	if (at >= 0) {
		strbuf_add(out, text, (size_t)at);
		if (!at || text[at - 1] != '\n')
			strbuf_addch(out, '\n');
		strbuf_addch(out, '\n');
		rest = text + at;
	} else
		rest = text;
	strbuf_addbuf(out, block);
	strbuf_addch(out, '\n');
	rest = skip_blank_lines(rest, end);
	if (rest < end) {
		strbuf_addch(out, '\n');
		strbuf_add(out, rest, (size_t)(end - rest));
	}
}

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

int cmd_capture(int argc, char **argv)
{
	struct capture_opts opts;
	struct strbuf sidecar = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, report = STRBUF_INIT;
	struct strbuf block = STRBUF_INIT, placed = STRBUF_INIT;
	struct strbuf version = STRBUF_INIT, when = STRBUF_INIT;
	struct strbuf plat = STRBUF_INIT, token = STRBUF_INIT;
	struct strbuf brief = STRBUF_INIT;
	char token_hash[HASH_HEX_MAX], brief_hash[HASH_HEX_MAX];
	struct gitstate gs = GITSTATE_INIT;
	struct sidecar sc = SIDECAR_INIT;
	struct sidecar_record rec;
	json_t *version_json = NULL;
	const char *env;
	char *real_report = NULL, *real_sidecar = NULL;
	double n = 0, temperature = 0, seed = 0;
	struct stat st;
	int status = 2;

	memset(&opts, 0, sizeof(opts));
	parse_capture_options(&opts, argc, argv);
	if (parse_integer(opts.n, 0, &n) || n < 1)
		usage_error(capture_usage, "invalid --n '%s': expected an "
			    "integer > 0", opts.n);
	if (opts.temperature && parse_number(opts.temperature, &temperature))
		usage_error(capture_usage, "invalid --temperature '%s': "
			    "expected a number", opts.temperature);
	if (opts.seed && parse_integer(opts.seed, 1, &seed))
		usage_error(capture_usage, "invalid --seed '%s': expected an "
			    "integer", opts.seed);
	if (opts.report && ends_with(opts.report, ".replay.json"))
		usage_error(capture_usage, "--report takes the markdown "
			    "report, not its sidecar '%s'", opts.report);

	if (opts.out)
		strbuf_addstr(&sidecar, opts.out);
	else
		sidecar_path_for(&sidecar, opts.report);
	if (!opts.force && !lstat(sidecar.buf, &st)) {
		error("%s already exists; use --force to replace it",
		      sidecar.buf);
		goto out;
	}
	if (opts.report) {
		if (read_file_limited(&report, opts.report, 0, &err)) {
			error("%s: %s", opts.report, err.buf);
			goto out;
		}
		/* a report that is a symlink stays one */
		real_report = realpath(opts.report, NULL);
		if (!real_report) {
			error("cannot resolve '%s': %s", opts.report,
			      strerror(errno));
			goto out;
		}
		real_sidecar = realpath(sidecar.buf, NULL);
		if (!strcmp(opts.report, sidecar.buf) ||
		    (real_sidecar && !strcmp(real_sidecar, real_report))) {
			error("the sidecar and the report are the same file "
			      "'%s'", sidecar.buf);
			goto out;
		}
	}

	/* The root verify will find for this report (or sidecar). */
	dirname_of(&dir, opts.report ? opts.report : sidecar.buf);
	if (root_find(&root, dir.buf, opts.root, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (capture_input(&token, token_hash, "token", opts.token, root.buf,
			  HASH_STRUCTURED, &err) ||
	    (opts.brief && capture_input(&brief, brief_hash, "brief",
					 opts.brief, root.buf,
					 brief_mode(opts.brief), &err))) {
		error("%s", err.buf);
		goto out;
	}
	if (gitstate_read(&gs, root.buf, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (now_iso(&when, &err)) {
		error("%s", err.buf);
		goto out;
	}
	env = getenv("AHD_VERSION");
	if (env && *env)
		strbuf_addstr(&version, env);
	else if (!package_version(&version, root.buf))
		strbuf_addstr(&version, "unknown");
	platform(&plat);

	memset(&rec, 0, sizeof(rec));
	rec.kind = opts.kind;
	version_json = jsonout_text(version.buf);
	rec.ahd_version = version_json;
	rec.ahd_commit = gs.commit[0] ? gs.commit : NULL;
	rec.git_dirty = gs.dirty;
	env = getenv("AHD_NODE_VERSION");
	rec.node_version = env && *env ? env : "unknown";
	rec.platform = plat.buf;
	rec.invoked_at = when.buf;
	rec.argv = opts.argv;
	rec.token.path = token.buf;
	rec.token.hash = token_hash;
	if (opts.brief) {
		rec.brief.path = brief.buf;
		rec.brief.hash = brief_hash;
	}
	rec.n = n;
	rec.temperature = opts.temperature ? &temperature : NULL;
	rec.seed = opts.seed ? &seed : NULL;
	rec.models = opts.models;
	rec.requested = opts.requested;
	rec.effective = opts.effective ? opts.effective : opts.requested;
	sidecar_to_json(&text, &rec);
	if (write_file_atomic(sidecar.buf, text.buf, text.len, 0666,
			      &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (opts.report) {
		/* Render what was written, as verify will read it. */
		if (sidecar_load(&sc, sidecar.buf, &err)) {
			error("%s: %s", sidecar.buf, err.buf);
			goto out;
		}
		render_markdown(&block, &sc);
		place_block(&placed, &report, &block);
		if (write_file_atomic(real_report, placed.buf, placed.len,
				      0666, &err)) {
			error("%s", err.buf);
			goto out;
		}
	}
	status = 0;
out:
	free(real_report);
	free(real_sidecar);
	json_decref(version_json);
	sidecar_release(&sc);
	capture_opts_release(&opts);
	strbuf_release(&sidecar);
	strbuf_release(&dir);
	strbuf_release(&root);
	strbuf_release(&err);
	strbuf_release(&text);
	strbuf_release(&report);
	strbuf_release(&block);
	strbuf_release(&placed);
	strbuf_release(&version);
	strbuf_release(&when);
	strbuf_release(&plat);
	strbuf_release(&token);
	strbuf_release(&brief);
	return finish_stdout(status);
}
