#include "config.h"
#include "allowedsigners.h"
#include "datetime.h"
#include "sshwire.h"
#include "strutil.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Glob match without recursion: on a mismatch, go back to the last '*'
 * and let it take one more character, so a hostile pattern costs at most
 * len(s) * len(pattern) steps.
 */
static int match_glob(const char *s, size_t slen, const char *p, size_t plen)
{
	size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;

	while (si < slen) {
		if (pi < plen && (p[pi] == '?' || p[pi] == s[si])) {
			si++;
			pi++;
		} else if (pi < plen && p[pi] == '*') {
			star_p = pi++;
			star_s = si;
		} else if (star_p != (size_t)-1) {
			pi = star_p + 1;
			si = ++star_s;
		} else
			return 0;
	}
	while (pi < plen && p[pi] == '*')
		pi++;
	return pi == plen;
}

int ssh_match_pattern_list(const char *s, const char *patterns)
{
	size_t slen = strlen(s);
	int matched = 0;

	while (*patterns) {
		size_t n = strcspn(patterns, ",");
		int negated = *patterns == '!';
		const char *p = patterns + negated;
		size_t plen = n - (size_t)negated;

		if (match_glob(s, slen, p, plen)) {
			if (negated)
				return 0;
			matched = 1;
		}
		patterns += n;
		if (*patterns == ',')
			patterns++;
	}
	return matched;
}

/* The value of n decimal digits at s (already checked to be digits). */
static int digits(const char *s, int n)
{
	int v = 0;

	while (n--)
		v = v * 10 + (*s++ - '0');
	return v;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int ssh_parse_time(const char *s, int64_t *out)
{
	size_t n = strlen(s);
	int utc = 0, y, mo, d, h = 0, mi = 0, sec = 0;
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
				     30, 31 };

	if (n && (s[n - 1] == 'Z' || s[n - 1] == 'z')) {
		utc = 1;
		n--;
	}
	if ((n != 8 && n != 12 && n != 14) || !is_all_digits(s, n))
		return -1;
	y = digits(s, 4);
	mo = digits(s + 4, 2);
	d = digits(s + 6, 2);
	if (n >= 12) {
		h = digits(s + 8, 2);
		mi = digits(s + 10, 2);
	}
	if (n == 14)
		sec = digits(s + 12, 2);
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 ||
	    mi > 59 || sec > 59 || y < 1970)
		return -1;
	if (mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)))
		return -1;
	if (utc) {
		*out = datetime_days_from_civil(y, mo, d) * 86400 +
			h * 3600 + mi * 60 + sec;
	} else {
		struct tm tm;
		time_t t;

		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		tm.tm_hour = h;
		tm.tm_min = mi;
		tm.tm_sec = sec;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == (time_t)-1)
			return -1;
		*out = (int64_t)t;
	}
	return 0;
}

/*
 * A quoted option value at *p ('"' ... '"', '\"' for a quote), copied to
 * *out.  Returns 0 and moves *p past it, or -1.
 */
static int dequote(const char **p, char **out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = *p;

	if (*s != '"')
		return -1;
	for (s++; *s && *s != '"'; s++) {
		if (s[0] == '\\' && s[1] == '"')
			s++;
		strbuf_addch(&sb, *s);
	}
	if (*s != '"') {
		strbuf_release(&sb);
		return -1;
	}
	*p = s + 1;
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

/* Does *p start with name= (case aside)?  Moves past the '='. */
static int opt_is(const char **p, const char *name)
{
	size_t n = strlen(name);

	if (strncasecmp(*p, name, n) || (*p)[n] != '=')
		return 0;
	*p += n + 1;
	return 1;
}

/* A quoted time at *p for option name, into *t (which must be unset). */
static int option_time(const char **p, int64_t *t, const char *name,
		       struct strbuf *err)
{
	char *v = NULL;
	int ret = 0;

	if (*t || dequote(p, &v) || ssh_parse_time(v, t) || !*t) {
		strbuf_addf(err, "bad or repeated %s= (want "
			    "\"YYYYMMDD[HHMM[SS]][Z]\")", name);
		ret = -1;
	}
	free(v);
	return ret;
}

static int parse_options(struct allowed_signer *e, const char **pp,
			 struct strbuf *err)
{
	const char *p = *pp;

	while (*p && !is_blank(*p)) {
		if (!strncasecmp(p, "cert-authority", 14) &&
		    (!p[14] || p[14] == ',' || is_blank(p[14]))) {
			e->ca = 1;
			p += 14;
		} else if (opt_is(&p, "namespaces")) {
			if (e->namespaces || dequote(&p, &e->namespaces)) {
				strbuf_addstr(err, "bad or repeated namespaces=");
				return -1;
			}
		} else if (opt_is(&p, "valid-after")) {
			if (option_time(&p, &e->valid_after, "valid-after", err))
				return -1;
		} else if (opt_is(&p, "valid-before")) {
			if (option_time(&p, &e->valid_before, "valid-before",
					err))
				return -1;
		} else {
			/* ssh-keygen skips such a line: the caller too. */
			strbuf_addstr(err, "unknown option '");
			sshwire_add_quoted(err, p, strcspn(p, ", \t"));
			strbuf_addch(err, '\'');
			return 1;
		}
		if (!*p || is_blank(*p))
			break;
		if (*p != ',' || !*++p) {
			strbuf_addstr(err, "malformed options");
			return -1;
		}
	}
	if (e->valid_after && e->valid_before &&
	    e->valid_before <= e->valid_after) {
		strbuf_addstr(err, "valid-before is not after valid-after");
		return -1;
	}
	*pp = p;
	return 0;
}

static void signer_release(struct allowed_signer *e)
{
	free(e->principals);
	free(e->namespaces);
	sshkey_release(&e->key);
}

/* A type we refuse to verify: a line naming one is left out, not an error. */
static int refused_type(const char *p)
{
	size_t n = strcspn(p, " \t");

	return starts_with(p, "sk-") || starts_with(p, "ssh-dss") ||
		(n > 21 && !strncmp(p + n - 21, "-cert-v01@openssh.com", 21));
}

/*
 * Returns 0 (added, or a line of no use: blank, a comment, a refused
 * type), 1 for a line ssh-keygen skips (an unknown option; why in err),
 * or -1 with a reason in err.
 */
static int parse_line(struct allowed_signers *as, const char *p,
		      unsigned long ln, struct strbuf *err)
{
	struct allowed_signer e;
	size_t n;
	int rc;

	memset(&e, 0, sizeof(e));
	strbuf_init(&e.key.blob, 0);
	e.line = ln;
	p += strspn(p, " \t");
	if (!*p || *p == '#')
		return 0;
	if (*p == '"') {
		n = strcspn(p + 1, "\"");
		if (p[1 + n] != '"' || (p[2 + n] && !is_blank(p[2 + n]))) {
			strbuf_addstr(err, "unterminated quoted principals");
			return -1;
		}
		e.principals = xstrndup(p + 1, n);
		p += n + 2;
	} else {
		n = strcspn(p, " \t");
		e.principals = xstrndup(p, n);
		p += n;
	}
	p += strspn(p, " \t");
	if (!*e.principals || !*p) {
		strbuf_addstr(err, "expected '<principals> [<options>] <key>'");
		goto fail;
	}
	if (!sshkey_is_type_word(p) && (rc = parse_options(&e, &p, err))) {
		signer_release(&e);
		return rc;
	}
	p += strspn(p, " \t");
	if (refused_type(p)) {
		signer_release(&e);
		return 0;
	}
	if (sshkey_from_line(&e.key, &p, err))
		goto fail;
	ALLOC_GROW(as->v, as->nr + 1, as->alloc);
	as->v[as->nr++] = e;
	return 0;
fail:
	signer_release(&e);
	return -1;
}

/* Call fn on each line of text; stop at the first failure. */
static int each_line(struct allowed_signers *as, const char *text,
		     size_t len, const char *name,
		     int (*fn)(struct allowed_signers *, const char *,
			       unsigned long, struct strbuf *),
		     struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	unsigned long ln = 0;
	size_t pos = 0;
	int rc, ret = 0;

	if (len > ALLOWED_SIGNERS_MAX || memchr(text, 0, len)) {
		strbuf_addf(err, "%s: not a text file of at most 4 MiB", name);
		return -1;
	}
	while (pos < len && !ret) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text - pos) : len - pos;

		ln++;
		strbuf_reset(&line);
		strbuf_add(&line, text + pos, n);
		if (line.len && line.buf[line.len - 1] == '\r')
			strbuf_setlen(&line, line.len - 1);
		pos += n + (nl != NULL);
		strbuf_reset(&why);
		rc = fn(as, line.buf, ln, &why);
		if (rc > 0)
			warning("%s:%lu: %s: the line is skipped, as "
				"ssh-keygen skips it", name, ln, why.buf);
		else if (rc) {
			strbuf_addf(err, "%s:%lu: %s", name, ln, why.buf);
			ret = -1;
		}
	}
	strbuf_release(&line);
	strbuf_release(&why);
	return ret;
}

int allowed_signers_parse(struct allowed_signers *as, const char *text,
			  size_t len, const char *name, struct strbuf *err)
{
	free(as->path);
	as->path = xstrdup(name);
	return each_line(as, text, len, name, parse_line, err);
}

static void add_revoked(struct allowed_signers *as, struct sshkey *key)
{
	ALLOC_GROW(as->revoked, as->nr_revoked + 1, as->alloc_revoked);
	as->revoked[as->nr_revoked++] = *key;
}

/*
 * An allowed-signers line in a revoked-keys list ("<principals>
 * [<options>] <key>", which ssh-keygen -Y verify -r honours too): its key
 * is revoked, whatever the principals and options say.
 */
static int parse_revoked_signer(struct allowed_signers *as, const char *p,
				unsigned long ln, struct strbuf *err)
{
	struct allowed_signers one = ALLOWED_SIGNERS_INIT;
	int rc = parse_line(&one, p, ln, err);

	if (!rc && one.nr) {
		add_revoked(as, &one.v[0].key);
		/* moved: what one still holds of it must not be freed */
		one.v[0].key.pkey = NULL;
		strbuf_init(&one.v[0].key.blob, 0);
	}
	allowed_signers_release(&one);
	/* A revocation that cannot be read is no line to skip. */
	return rc ? -1 : 0;
}

static int parse_revoked_line(struct allowed_signers *as, const char *p,
			      unsigned long ln, struct strbuf *err)
{
	struct sshkey key = SSHKEY_INIT;

	p += strspn(p, " \t");
	if (!*p || *p == '#' || refused_type(p))
		return 0;
	if (!sshkey_is_type_word(p))
		return parse_revoked_signer(as, p, ln, err);
	if (sshkey_from_line(&key, &p, err))
		return -1;
	add_revoked(as, &key);
	return 0;
}

int allowed_signers_parse_revoked(struct allowed_signers *as,
				  const char *text, size_t len,
				  const char *name, struct strbuf *err)
{
	free(as->revoked_path);
	as->revoked_path = xstrdup(name);
	if (len >= 7 && !memcmp(text, "SSHKRL\n", 7)) {
		strbuf_addf(err, "%s: binary key revocation lists (KRL) are "
			    "not supported; list the revoked public keys one "
			    "per line", name);
		return -1;
	}
	return each_line(as, text, len, name, parse_revoked_line, err);
}

void allowed_signers_set_broken(struct allowed_signers *as, const char *why)
{
	if (!as->broken)
		as->broken = xstrdup(why);
}

void allowed_signers_release(struct allowed_signers *as)
{
	size_t i;

	for (i = 0; i < as->nr; i++)
		signer_release(&as->v[i]);
	for (i = 0; i < as->nr_revoked; i++)
		sshkey_release(&as->revoked[i]);
	free(as->v);
	free(as->revoked);
	free(as->path);
	free(as->revoked_path);
	free(as->broken);
	memset(as, 0, sizeof(*as));
}

static void add_time(struct strbuf *out, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (gmtime_r(&tt, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		strbuf_addstr(out, buf);
	else
		strbuf_addf(out, "%lld", (long long)t);
}

const struct sshkey *allowed_signers_find(const struct allowed_signers *as,
					  const struct sshkey *key)
{
	size_t i;

	if (as->broken)
		return NULL;
	for (i = 0; i < as->nr_revoked; i++)
		if (sshkey_equal(&as->revoked[i], key))
			return NULL;
	for (i = 0; i < as->nr; i++)
		if (sshkey_equal(&as->v[i].key, key))
			return &as->v[i].key;
	return NULL;
}

enum signer_status allowed_signers_check(const struct allowed_signers *as,
					 const struct sshkey *key,
					 const char *ns, int64_t when,
					 const char **principals,
					 struct strbuf *why)
{
	enum signer_status status = SIGNER_UNKNOWN;
	struct strbuf fp = STRBUF_INIT, first = STRBUF_INIT;
	size_t i;

	sshkey_fingerprint(&fp, key);
	if (as->broken) {
		strbuf_addf(why, "key %s is not trusted: the SSH trust did not "
			    "load completely (%s)", fp.buf, as->broken);
		status = SIGNER_NO_TRUST;
		goto out;
	}
	for (i = 0; i < as->nr_revoked; i++)
		if (sshkey_equal(&as->revoked[i], key)) {
			strbuf_addf(why, "key %s is revoked (%s)", fp.buf,
				    as->revoked_path);
			status = SIGNER_REVOKED;
			goto out;
		}
	for (i = 0; i < as->nr; i++) {
		const struct allowed_signer *e = &as->v[i];
		enum signer_status s;

		if (!sshkey_equal(&e->key, key))
			continue;
		strbuf_reset(&first);
		strbuf_addf(&first, "key %s (%s:%lu) ", fp.buf, as->path,
			    e->line);
		if (e->ca) {
			s = SIGNER_CA_ONLY;
			strbuf_addstr(&first, "is listed as a cert-authority; "
				      "certificates are not supported");
		} else if (e->namespaces &&
			   !ssh_match_pattern_list(ns, e->namespaces)) {
			s = SIGNER_NAMESPACE;
			strbuf_addf(&first, "is not allowed to sign in "
				    "namespace '%s'", ns);
		} else if (e->valid_after && when < e->valid_after) {
			s = SIGNER_NOT_YET;
			strbuf_addstr(&first, "is not yet valid at ");
			add_time(&first, when);
			strbuf_addstr(&first, " (valid-after ");
			add_time(&first, e->valid_after);
			strbuf_addch(&first, ')');
		} else if (e->valid_before && when > e->valid_before) {
			s = SIGNER_EXPIRED;
			strbuf_addstr(&first, "had expired at ");
			add_time(&first, when);
			strbuf_addstr(&first, " (valid-before ");
			add_time(&first, e->valid_before);
			strbuf_addch(&first, ')');
		} else {
			*principals = e->principals;
			status = SIGNER_OK;
			goto out;
		}
		/* The first listing's reason is the one reported. */
		if (status == SIGNER_UNKNOWN) {
			status = s;
			strbuf_addbuf(why, &first);
		}
	}
	if (status == SIGNER_UNKNOWN)
		strbuf_addf(why, "key %s is not in the allowed signers file %s",
			    fp.buf, as->path);
out:
	strbuf_release(&fp);
	strbuf_release(&first);
	return status;
}
