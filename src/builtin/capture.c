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
#include "fs/atomicfile.h"
#include "builtin.h"
#include "record/capture.h"
#include "git/gitstate.h"
#include "fs/readfile.h"
#include "json/jsonout.h"
#include "parse-options.h"
#include "record/render.h"
#include "root/root.h"
#include "record/sidecar.h"
#include "strutil.h"
#include "usage.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char capture_usage_text[] =
	"Exit status: 0 when the sidecar was written, 2 on usage errors and\n"
	"unusable input.\n";

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
	double n_value, temperature_value, seed_value;
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

/*
 * --model <id>=<provider>[:<request-id>,...].  The id ends at the first
 * '=' (ids such as "cf:@cf/google/gemma-4-26b-a4b-it" hold ':' but no
 * '='), the provider at the first ':' after it.
 */
static int parse_model(json_t *models, const char *arg)
{
	const char *eq = strchr(arg, '='), *colon, *p;
	struct strbuf sb = STRBUF_INIT;
	json_t *m, *ids;

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
			json_decref(m);
			json_decref(ids);
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
	append(models, m);
	strbuf_release(&sb);
	return 0;
}

static int model_opt(const struct parse_opt *opt, const char *arg)
{
	json_t **models = opt->value;

	return parse_model(*models, arg);
}

/* --condition and --effective: append to the array, made on first use */
static int condition_opt(const struct parse_opt *opt, const char *arg)
{
	json_t **conditions = opt->value;

	if (!*conditions)
		*conditions = new_array();
	append(*conditions, jsonout_text(arg));
	return 0;
}

/*
 * --argv-json: a JSON array of strings, as process.argv would be.
 * Returns NULL after error().
 */
static json_t *parse_argv_json(const char *text)
{
	json_error_t jerr;
	json_t *v = json_loads(text, 0, &jerr), *item;
	size_t i;

	if (!v) {
		error("invalid --argv-json: %s", jerr.text);
		return NULL;
	}
	if (!json_is_array(v)) {
		error("invalid --argv-json: not an array");
		goto fail;
	}
	json_array_foreach(v, i, item)
		if (!json_is_string(item)) {
			error("invalid --argv-json: item %zu is not a string",
			      i);
			goto fail;
		}
	return v;
fail:
	json_decref(v);
	return NULL;
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
static int check_capture_options(struct capture_opts *opts)
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

static void parse_capture_options(struct capture_opts *opts, int argc,
				  char **argv)
{
	const unsigned once = OPT_ONCE, needed = OPT_ONCE | OPT_REQUIRED;
	const struct parse_opt options[] = {
		OPT_STRING_F(0, "kind", &opts->kind, "<kind>", "eval-live, "
			     "eval-image or critique", needed),
		OPT_STRING_F(0, "token", &opts->token, "<path>", "the style "
			     "token the run used (hashed structured)", needed),
		OPT_STRING_F(0, "brief", &opts->brief, "<path>", "the brief: "
			     ".yml, .yaml, .json hashed structured, anything "
			     "else raw (none for critique runs)", once),
		OPT_STRING_F(0, "n", &opts->n, "<n>", "samples per cell, an "
			     "integer > 0", needed),
		OPT_STRING_F(0, "temperature", &opts->temperature, "<x>", "the "
			     "sampling temperature (default null)", once),
		OPT_STRING_F(0, "seed", &opts->seed, "<s>", "the global seed, "
			     "an integer (default null)", once),
		OPT_CALLBACK_F(0, "model", &opts->models,
			       "<id>=<provider>[:<request-id>,...]", "a model "
			       "of the run, repeatable", OPT_REPEAT, model_opt),
		OPT_CALLBACK_F(0, "condition", &opts->requested, "<c>", "a "
			       "requested condition, repeatable", OPT_REPEAT,
			       condition_opt),
		OPT_CALLBACK_F(0, "effective", &opts->effective, "<c>", "an "
			       "effective condition, repeatable (default: the "
			       "requested ones)", OPT_REPEAT, condition_opt),
		OPT_STRING_F(0, "report", &opts->report, "<report.md>", "write "
			     "the sidecar beside this report and put the "
			     "rendered block in it", once),
		OPT_STRING_F(0, "out", &opts->out, "<sidecar>", "where to "
			     "write the sidecar (needed without --report)",
			     once),
		OPT_STRING_F(0, "root", &opts->root, "<dir>", "record paths "
			     "relative to <dir>", once),
		OPT_BOOL(0, "force", &opts->force, "replace an existing "
			 "sidecar"),
		OPT_STRING_F(0, "argv-json", &opts->argv_json, "<json>", "the "
			     "run's command line, a JSON array of strings; or "
			     "give it after --", once | OPT_OR_NEXT),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"capture", OPERANDS("-- <argv>..."), options,
		capture_usage_text
	};
	int i;

	opts->models = new_array();
	opts->requested = new_array();
	argc = parse_options(argc, argv, &usage, PARSE_OPT_KEEP_DASHDASH);
	/* the words after "--" (not an option's value "--") are argv */
	if (argc && !strcmp(argv[0], "--")) {
		if (opts->argv_json)
			usage_msg_opt(&usage, "give the run's argv with "
				      "--argv-json or after --, not both");
		opts->argv = new_array();
		for (i = 1; i < argc; i++)
			append(opts->argv, jsonout_text(argv[i]));
	} else if (argc)
		usage_msg_opt(&usage, "unexpected argument '%s' (the run's "
			      "argv goes after --)", argv[0]);
	if (opts->argv_json && !(opts->argv = parse_argv_json(opts->argv_json)))
		usage_with_options(&usage);
	if (!opts->kind)
		usage_msg_opt(&usage, "--kind is required");
	if (!opts->token)
		usage_msg_opt(&usage, "--token is required");
	if (!opts->n)
		usage_msg_opt(&usage, "--n is required");
	if (!opts->report && !opts->out)
		usage_msg_opt(&usage, "--out is required without --report");
	if (check_capture_options(opts))
		usage_with_options(&usage);
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
		if (read_file_limited(&cs->report, opts->report, 0, &err)) {
			error("%s: %s", opts->report, err.buf);
			goto out;
		}
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
	json_t *version = jsonout_text(cs->version.buf);
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
	json_decref(version);
}

/*
 * Write the sidecar, then render what was written (as verify will read
 * it) into the report.  Returns 0, or -1 after printing an error.
 */
static int write_outputs(const struct capture_state *cs,
			 const struct strbuf *text)
{
	struct strbuf err = STRBUF_INIT, block = STRBUF_INIT;
	struct strbuf placed = STRBUF_INIT;
	struct sidecar sc = SIDECAR_INIT;
	struct stat st;
	int ret = -1;

	/* --force over a sidecar that is a symlink rewrites what it names */
	if (lstat(cs->sidecar.buf, &st) ?
	    write_file_atomic(cs->sidecar.buf, text->buf, text->len, 0666,
			      &err) :
	    write_file_in_place(cs->sidecar.buf, text->buf, text->len, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (cs->real_report) {
		if (sidecar_load(&sc, cs->sidecar.buf, &err)) {
			error("%s: %s", cs->sidecar.buf, err.buf);
			goto out;
		}
		render_markdown(&block, &sc);
		if (render_place_block(&placed, &cs->report, &block, &err) ||
		    write_file_in_place(cs->real_report, placed.buf,
					placed.len, &err)) {
			error("%s", err.buf);
			goto out;
		}
	}
	ret = 0;
out:
	sidecar_release(&sc);
	strbuf_release(&err);
	strbuf_release(&block);
	strbuf_release(&placed);
	return ret;
}

int cmd_capture(int argc, char **argv)
{
	struct capture_opts opts;
	struct capture_state cs = {
		STRBUF_INIT, STRBUF_INIT, NULL, STRBUF_INIT, STRBUF_INIT,
		STRBUF_INIT, "", "", GITSTATE_INIT, STRBUF_INIT, STRBUF_INIT,
		STRBUF_INIT
	};
	struct strbuf text = STRBUF_INIT;
	int status = 2;

	memset(&opts, 0, sizeof(opts));
	parse_capture_options(&opts, argc, argv);
	if (!check_outputs(&cs, &opts) && !gather(&cs, &opts)) {
		build(&text, &cs, &opts);
		if (!write_outputs(&cs, &text))
			status = 0;
	}
	strbuf_release(&text);
	capture_state_release(&cs);
	capture_opts_release(&opts);
	return finish_stdout(status);
}
