#ifndef ALLOWEDSIGNERS_H
#define ALLOWEDSIGNERS_H

#include <stdint.h>
#include "sshkey.h"
#include "strbuf.h"

/*
 * ssh-keygen's allowed-signers file (ssh-keygen(1), ALLOWED SIGNERS) and
 * a revoked-keys list, as trust for SSH signatures.
 *
 * A line is "<principals> [<options>] <key type> <base64 key> [comment]":
 * principals a comma-separated list of patterns ('*', '?', '!' negates)
 * or a double-quoted string; options cert-authority, namespaces="<list>",
 * valid-after="<time>" and valid-before="<time>" (YYYYMMDD[HHMM[SS]], UTC
 * with a final Z, else the local time zone, as ssh-keygen reads them).
 * Keys of a type sshkey.c refuses (security keys, say) are kept out
 * silently: no signature we accept can be made by them.  A line with an
 * option we do not know is skipped with a warning naming file:line, as
 * ssh-keygen skips it.  Any other malformed line fails the whole load
 * (and the caller marks the trust broken): a broken trust file should
 * be fixed, not half used.  cert-authority lines are read but never
 * match, as certificates are refused.
 *
 * The revoked-keys list is one public key per line, as ssh-keygen -Y
 * verify -r reads it, or allowed-signers lines (their keys are revoked);
 * binary KRLs are refused by name.
 */

struct allowed_signer {
	char *principals;
	struct sshkey key;
	char *namespaces;		/* NULL: any */
	int64_t valid_after, valid_before;	/* 0: unbounded */
	int ca;
	unsigned long line;
};

struct allowed_signers {
	char *path;			/* as named in messages */
	struct allowed_signer *v;
	size_t nr, alloc;
	struct sshkey *revoked;
	size_t nr_revoked, alloc_revoked;
	char *revoked_path;
	/*
	 * Why a trust source (the allowed signers, the revoked keys) did not
	 * load completely, or NULL.  Then no key is allowed: a revocation
	 * list that cannot be read must not fail open.
	 */
	char *broken;
};
#define ALLOWED_SIGNERS_INIT { NULL, NULL, 0, 0, NULL, 0, 0, NULL, NULL }

/* The file's maximum size: a trust list, not a data set. */
#define ALLOWED_SIGNERS_MAX ((size_t)4 << 20)

/*
 * Parse text (len bytes; NUL bytes refused) as an allowed-signers file
 * named name.  Returns 0, or -1 with "<name>:<line>: <reason>" in err.
 */
int allowed_signers_parse(struct allowed_signers *as, const char *text,
			  size_t len, const char *name, struct strbuf *err);

/*
 * Mark the trust as incomplete (why: what failed to load); every check
 * then answers SIGNER_NO_TRUST.  The first reason is kept.
 */
void allowed_signers_set_broken(struct allowed_signers *as, const char *why);

/* Parse text as a revoked-keys list named name. */
int allowed_signers_parse_revoked(struct allowed_signers *as,
				  const char *text, size_t len,
				  const char *name, struct strbuf *err);

void allowed_signers_release(struct allowed_signers *as);

enum signer_status {
	SIGNER_OK,
	SIGNER_UNKNOWN,		/* no line lists the key */
	SIGNER_NAMESPACE,	/* listed, not for this namespace */
	SIGNER_NOT_YET,		/* listed, valid-after is later */
	SIGNER_EXPIRED,		/* listed, valid-before is earlier */
	SIGNER_REVOKED,		/* in the revoked-keys list */
	SIGNER_CA_ONLY,		/* listed only as a cert-authority */
	SIGNER_NO_TRUST,	/* as->broken: nothing is allowed */
};

/*
 * Is key allowed to sign in namespace ns at time when (seconds since
 * 1970, UTC)?  Returns the status; for SIGNER_OK *principals points at
 * the principals of the line that allows it (borrowed from as).  For
 * anything else why receives one line saying so.
 */
enum signer_status allowed_signers_check(const struct allowed_signers *as,
					 const struct sshkey *key,
					 const char *ns, int64_t when,
					 const char **principals,
					 struct strbuf *why);

/*
 * The allowed signers' own copy of key (built when the file was read),
 * when a line lists it, it is not revoked, and the trust loaded
 * completely; else NULL.  A signature's key is looked up here and the
 * signature checked with the copy, so that a key nobody allows is only
 * compared as bytes, never built.
 */
const struct sshkey *allowed_signers_find(const struct allowed_signers *as,
					  const struct sshkey *key);

/*
 * OpenSSH's pattern lists: does s match the comma-separated patterns?
 * '*' any run, '?' one character, a leading '!' negates (any negated
 * match rejects).  Returns 1 or 0.
 */
int ssh_match_pattern_list(const char *s, const char *patterns);

/* Parse an option time as ssh-keygen does.  Returns 0 or -1. */
int ssh_parse_time(const char *s, int64_t *out);

#endif
