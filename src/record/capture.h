#ifndef CAPTURE_H
#define CAPTURE_H

#include "hash/hashfile.h"
#include "strbuf.h"

/*
 * What ahd-replay capture records about a run besides its options, each
 * as the reference's recorder writes it.
 */

/*
 * An input of the run (what names it in messages: "token" or "brief"),
 * hashed in mode.  The recorded path is the one verify will read it by:
 * relative to root, its directories resolved, its last component kept
 * (a symlink inside the root stays a symlink).  The file, followed
 * through any symlink, must be inside the root too, or verify would
 * refuse it.  Returns 0 with the recorded path appended to rel and the
 * hash in hex, or -1 with a reason in err.
 */
int capture_input(struct strbuf *rel, char hex[HASH_HEX_MAX],
		  const char *what, const char *path, const char *root,
		  enum hash_mode mode, struct strbuf *err);

/* The brief's hash mode: what verify recomputes, structured for YAML/JSON. */
enum hash_mode capture_brief_mode(const char *path);

/*
 * Date.prototype.toISOString() of now, or $AHD_REPLAY_NOW for tests.
 * Returns 0, or -1 with a reason in err.
 */
int capture_now(struct strbuf *out, struct strbuf *err);

/*
 * Node's `${process.platform}-${process.arch}` from uname(): the names
 * Node uses for the systems and machines it runs on, the lower-cased
 * uname names otherwise.
 */
void capture_platform(struct strbuf *out);

/*
 * The "version" of the reference's package.json: the first package.json
 * named @adastracomputing/ahd walking up from dir (dir and at most seven
 * parents, the root rule's walk).  Appends it to out and returns 1, or
 * returns 0 when there is none (or it has no version).
 */
int capture_package_version(struct strbuf *out, const char *dir);

#endif
