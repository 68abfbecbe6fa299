#ifndef CAPTURE_H
#define CAPTURE_H

#include "strbuf.h"
#include "json/jval.h"

/*
 * ahd-replay capture's core: the replay sidecar of a run, from the
 * options that describe it and what is found on disk.
 *
 * Everything is checked before anything is written: the options, the
 * inputs (inside the root, hashed exactly as verify will re-hash them:
 * the token structured, a YAML or JSON brief structured, any other brief
 * raw), the report, the git state.  Then the sidecar is written
 * atomically, read back through sidecar_load() (so a sidecar this tool
 * writes is one its verify accepts) and, with a report, rendered into
 * the report under its first heading or over the block already there.
 *
 * Field for field the sidecar is what the reference's runner writes,
 * with two differences forced by not being Node: node_version comes from
 * AHD_NODE_VERSION ("unknown" without it), and the token's hash is the
 * one its verifier recomputes from the file (the runner hashes its
 * schema-normalised token object instead, SPEC section 6).
 */

/* A run as the command line describes it. */
struct capture_opts {
	const char *kind;
	const char *token;
	const char *brief;
	const char *n;
	const char *temperature;
	const char *seed;
	const char *report;	/* the sidecar goes beside it, rendered in */
	const char *out;	/* the sidecar, needed without report */
	const char *root;
	const char *argv_json;
	int force;		/* replace an existing sidecar */
	/* what capture_check_options() makes of n, temperature and seed */
	double n_value, temperature_value, seed_value;
	struct jval *models;		/* owned; array of model objects */
	struct jval *requested;	/* owned; array of strings */
	struct jval *effective;	/* owned; NULL: the requested ones */
	struct jval *argv;		/* owned; NULL: none recorded */
};

/* Zeroes opts and makes its (empty) models and requested arrays. */
void capture_opts_init(struct capture_opts *opts);
void capture_opts_release(struct capture_opts *opts);

/*
 * One --model <id>=<provider>[:<request-id>,...] into opts->models.
 * Returns 0, or -1 after error().
 */
int capture_add_model(struct capture_opts *opts, const char *arg);

/* One condition into opts->requested, or with effective opts->effective. */
void capture_add_condition(struct capture_opts *opts, int effective,
			   const char *condition);

/* The run's argv from the words after "--" (replacing none). */
void capture_set_argv(struct capture_opts *opts, int argc,
		      char *const *argv);

/*
 * The run's argv from opts->argv_json, a JSON array of strings as
 * process.argv would be.  Returns 0, or -1 after error().
 */
int capture_parse_argv_json(struct capture_opts *opts);

/*
 * What the options say beyond their presence: the kind, the numbers
 * (into the *_value fields), the report.  Returns 0, or -1 after
 * error().
 */
int capture_check_options(struct capture_opts *opts);

/*
 * The capture itself: check where the sidecar and the report go, gather
 * the inputs' hashes and the git state, write the sidecar and render it
 * into the report.  Returns 0, or -1 after printing an error (nothing
 * written unless the failure came while writing).
 */
int capture_write(const struct capture_opts *opts);

#endif
