#ifndef RCFILE_H
#define RCFILE_H

#include <stddef.h>
#include "record/layout.h"
#include "strbuf.h"

/*
 * The committed file at the top of a repository, .ahd-replay.yml: the
 * record layouts of that repository and the team's policy (what each
 * clone's `git config ahd-replay.*` says today).  Read with our own YAML
 * loader; every error names file:line:column.  doc/ahd-replay-config.5
 * describes the file.
 *
 * Without the file, AHD's layout is the only one and every command
 * behaves as it always did: the layouts here are the records beside
 * AHD's sidecars, which keep their own reader (record_from_sidecar()).
 */

#define RCFILE_NAME ".ahd-replay.yml"

/*
 * The policy keys, in the order config show lists them.  Each only adds
 * a requirement, which a reviewer sees in the diff of the file.  The
 * trust roots (trustedKeys, allowedSignersFile, revokedKeysFile,
 * trustedRefs) are never read from the file: a change can edit the file,
 * so the file cannot name whom to trust.
 */
enum policy_key {
	POLICY_REQUIRE_SIDECAR,
	POLICY_STRICT,
	POLICY_REQUIRE_SIGNATURE,
	/*
	 * false turns the content cache off (its only use here: a team that
	 * wants every hash computed); git config ahd-replay.cache and
	 * --no-cache as always
	 */
	POLICY_CACHE,
	POLICY_NR
};

enum setting_origin {
	ORIGIN_DEFAULT,
	ORIGIN_FILE,
	ORIGIN_GIT,
	ORIGIN_COMMAND_LINE,
};

struct setting {
	char *value;		/* NULL: unset */
	enum setting_origin origin;
	long line;		/* ORIGIN_FILE: where */
};

struct rcfile {
	struct strbuf top;	/* the repository's top */
	struct strbuf file;	/* the file read; empty when there is none */
	struct layout *layouts;
	size_t nr, alloc;
	struct setting policy[POLICY_NR];
};
#define RCFILE_INIT { STRBUF_INIT, STRBUF_INIT, NULL, 0, 0, { { 0 } } }

/* The key as the file and git config spell it ("requireSidecar"). */
const char *policy_key_name(enum policy_key k);

/*
 * Read top/.ahd-replay.yml into out.  Returns 0 (also when there is no
 * file: out then has no layouts), -1 when the file is malformed, with
 * each problem on its own line of err as "file:line:column: ...", or -2
 * when it cannot be read.
 */
int rcfile_load(struct rcfile *out, const char *top,
		     struct strbuf *err);

/*
 * rcfile_load() of the file's text (len bytes) as some state of the
 * repository at top holds it (the index, a commit): file is how errors
 * name it ("staged:.ahd-replay.yml").  Returns 0, or -1 as
 * rcfile_load() does.
 */
int rcfile_parse(struct rcfile *out, const char *top, const char *file,
		 const char *text, size_t len, struct strbuf *err);

/*
 * Read the configuration of the repository around the current
 * directory (or of root, when given).  Prints the error and returns -1
 * when the file is malformed.
 */
int rcfile_here(struct rcfile *out, const char *root);

/*
 * A policy setting of the file of the repository around the current
 * directory, for a command whose git config has none: git config
 * overrides the file per clone.  Returns 1
 * with the value appended to out (a list's values one a line), 0 when
 * the file does not set it (or there is no file), -1 after printing why
 * the file is malformed.
 */
int rcfile_policy_here(struct strbuf *out, enum policy_key k);

/* rcfile_policy_here() of the file at top. */
int rcfile_policy_at(struct strbuf *out, const char *top, enum policy_key k);

/* The layout whose records glob matches rel (relative to the top). */
const struct layout *rcfile_layout_for(const struct rcfile *c,
					    const char *rel);

void rcfile_release(struct rcfile *c);

#endif
