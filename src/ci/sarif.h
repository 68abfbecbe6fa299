#ifndef SARIF_H
#define SARIF_H

#include "outcome.h"
#include "strbuf.h"

/*
 * SARIF 2.1.0 (OASIS), for code scanning: one run whose tool lists a rule
 * per failure kind the command can report, and one result per failed or
 * warned case, located at its file and line (paths relative to the top
 * of the work tree, under %SRCROOT%) with a partial fingerprint that
 * follows the finding across commits.  status is the command's exit
 * status (2: the run did not complete its checks).
 */
void sarif_write(struct strbuf *out, const struct outcome *o, int status);

/*
 * The URI of path for a report: relative to the top of the work tree
 * around the current directory when it is inside it (*relative set),
 * else an absolute file: URI; percent-encoded (RFC 3986).
 */
void outcome_uri(struct strbuf *out, const char *path, int *relative);

#endif
