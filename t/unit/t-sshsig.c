/*
 * The SSH parsers' edges: strict base64, bounded wire reads, OpenSSH
 * pattern lists, ssh-keygen's option times, allowed-signers lines and
 * key lines that must be refused.
 */
#include "config.h"
#include "sign/allowedsigners.h"
#include "sign/sshkey.h"
#include "sign/sshsig.h"
#include "sign/sshwire.h"
#include "strbuf.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/* An ssh-ed25519 public key line: any 32 bytes make a key. */
#define ED_KEY "ssh-ed25519 " \
	"AAAAC3NzaC1lZDI1NTE5AAAAIJr0sFrrgXnC4J5m5q9mBbG2xq2nB5gGmO2X0M7c4y1t"

static void check_b64(const char *in, int skip_space, int want_ok,
		      const char *want, size_t want_len, const char *name)
{
	struct strbuf out = STRBUF_INIT;
	int rc = base64_decode(&out, in, strlen(in), skip_space);

	is_int(want_ok ? 0 : -1, rc, "base64: %s", name);
	if (want_ok)
		is_bytes(want, want_len, out.buf, out.len, "base64 bytes: %s",
			 name);
	else
		is_int(0, (long long)out.len, "base64 leaves nothing: %s", name);
	strbuf_release(&out);
}

static void test_base64(void)
{
	struct strbuf enc = STRBUF_INIT;

	check_b64("", 0, 1, "", 0, "empty");
	check_b64("Zm9v", 0, 1, "foo", 3, "no padding needed");
	check_b64("Zm8=", 0, 1, "fo", 2, "one pad");
	check_b64("Zg==", 0, 1, "f", 1, "two pads");
	check_b64("Zg", 0, 1, "f", 1, "padding left out");
	check_b64("Zh==", 0, 0, NULL, 0, "unused bits set");
	check_b64("Zg=", 0, 0, NULL, 0, "half the padding");
	check_b64("Zg===", 0, 0, NULL, 0, "too much padding");
	check_b64("Zg==Zg==", 0, 0, NULL, 0, "data after padding");
	check_b64("Z", 0, 0, NULL, 0, "one character");
	check_b64("Zm9v\n", 0, 0, NULL, 0, "newline without skip_space");
	check_b64("Zm\r\n9v", 1, 1, "foo", 3, "line breaks skipped");
	check_b64("Zm9*", 0, 0, NULL, 0, "outside the alphabet");
	base64_encode(&enc, "\xff\xfe", 2, 1);
	is_string("//4", enc.buf, "base64 encode without padding");
	strbuf_release(&enc);
}

static void test_wire(void)
{
	static const unsigned char huge[] = { 0xff, 0xff, 0xff, 0xff, 'a' };
	static const unsigned char neg[] = { 0, 0, 0, 1, 0x80 };
	static const unsigned char two[] = { 0, 0, 0, 2, 'h', 'i', 0, 0 };
	struct sshwire r;
	const unsigned char *p;
	size_t len;
	uint32_t v;

	sshwire_init(&r, huge, sizeof(huge));
	is_int(-1, sshwire_string(&r, &p, &len), "wire: a length past the end");
	is_int(5, (long long)r.len, "wire: a failed read consumes nothing");
	sshwire_init(&r, neg, sizeof(neg));
	is_int(-1, sshwire_mpint(&r, &p, &len), "wire: a negative mpint");
	sshwire_init(&r, two, sizeof(two));
	is_int(1, sshwire_string_is(&r, "hi"), "wire: string compare");
	is_int(-1, sshwire_u32(&r, &v), "wire: a short uint32");
}

static void test_patterns(void)
{
	ok(ssh_match_pattern_list("alice@example.com", "*@example.com"),
	   "pattern: star");
	ok(ssh_match_pattern_list("al", "a?"), "pattern: question mark");
	ok(!ssh_match_pattern_list("alice", "a?"), "pattern: ? is one char");
	ok(!ssh_match_pattern_list("mallory@example.com",
				   "*@example.com,!mallory@*"),
	   "pattern: a negation rejects");
	ok(ssh_match_pattern_list("bob", "alice,bob"), "pattern: a list");
	ok(!ssh_match_pattern_list("bob", ""), "pattern: empty list");
	ok(!ssh_match_pattern_list("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				   "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"),
	   "pattern: backtracking stays linear per star");
}

static void test_times(void)
{
	int64_t t = 0;

	is_int(0, ssh_parse_time("20200101Z", &t), "time: date, UTC");
	is_int(1577836800, t, "time: 2020-01-01T00:00:00Z");
	is_int(0, ssh_parse_time("20200229235959Z", &t), "time: leap day");
	is_int(1583020799, t, "time: with seconds");
	is_int(-1, ssh_parse_time("20210229Z", &t), "time: no leap day");
	is_int(-1, ssh_parse_time("2020010Z", &t), "time: seven digits");
	is_int(-1, ssh_parse_time("202001011", &t), "time: nine digits");
	is_int(-1, ssh_parse_time("20201301", &t), "time: month 13");
	is_int(-1, ssh_parse_time("202001012460", &t), "time: hour 24");
	is_int(-1, ssh_parse_time("", &t), "time: empty");
}

static int parses(const char *text, struct strbuf *err)
{
	struct allowed_signers as = ALLOWED_SIGNERS_INIT;
	int rc;

	strbuf_reset(err);
	rc = allowed_signers_parse(&as, text, strlen(text), "f", err);
	allowed_signers_release(&as);
	return rc;
}

static void test_allowed_signers(void)
{
	struct strbuf err = STRBUF_INIT;

	is_int(0, parses("# comment\n\n  \na@b " ED_KEY " c\n", &err),
	       "signers: comment, blanks, a key");
	is_int(0, parses("\"a b@c\" namespaces=\"git\" " ED_KEY "\n", &err),
	       "signers: quoted principals");
	is_int(0, parses("a sk-ssh-ed25519@openssh.com AAAA\n", &err),
	       "signers: a security key is left out");
	/* ssh-keygen skips the line; so do we, with a warning. */
	is_int(0, parses("a bogus " ED_KEY "\n", &err),
	       "signers: a line with an unknown option is skipped");
	is_int(-1, parses("a ssh-ed25519 !!!!\n", &err),
	       "signers: a bad key");
	is_string("f:1: the key is not valid base64", err.buf,
		  "signers: the line named");
	is_int(-1, parses("a namespaces=git " ED_KEY "\n", &err),
	       "signers: unquoted value");
	is_int(-1, parses("a valid-after=\"20300101\",valid-before=\"20200101\" "
			  ED_KEY "\n", &err), "signers: before < after");
	is_int(-1, parses("a namespaces=\"x\",namespaces=\"y\" " ED_KEY "\n",
			  &err), "signers: repeated option");
	is_int(-1, parses("\"a " ED_KEY "\n", &err),
	       "signers: unterminated quote");
	is_int(-1, parses("a\n", &err), "signers: principals alone");
	is_int(-1, parses("a ssh-ed25519 AAAA\n", &err),
	       "signers: a truncated key");
	is_int(-1, parses("a ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIJr0sFrrgXnC4J5m5"
			  "q9mBbG2xq2nB5gGmO2X0M7c4y1t\n", &err),
	       "signers: the type word must match the key");
	is_int(-1, parses("a\0b", &err), "signers: NUL refused");
	strbuf_release(&err);
}

static void test_armour(void)
{
	struct sshsig sig = SSHSIG_INIT;
	struct strbuf err = STRBUF_INIT;
	static const char text[] = SSHSIG_BEGIN "\nU1NIU0lHAAAAAg==\n"
		SSHSIG_END "\n";

	is_int(-1, sshsig_parse_armoured(&sig, text, strlen(text), NULL, &err),
	       "armour: version 2 refused");
	is_string("unsupported SSHSIG version 2", err.buf,
		  "armour: the version named");
	strbuf_reset(&err);
	is_int(-1, sshsig_parse_armoured(&sig, SSHSIG_BEGIN "x", 30, NULL,
					 &err), "armour: header with more");
	sshsig_release(&sig);
	strbuf_release(&err);
}

/* A well-framed ecdsa-sha2-nistp256 key whose point is off the curve. */
static void off_curve_key(struct strbuf *blob)
{
	static const char name[] = "ecdsa-sha2-nistp256", curve[] = "nistp256";
	unsigned char point[65];

	memset(point, 1, sizeof(point));
	point[0] = 4;
	sshwire_put_string(blob, name, strlen(name));
	sshwire_put_string(blob, curve, strlen(curve));
	sshwire_put_string(blob, point, sizeof(point));
}

static void test_unbuilt_keys(void)
{
	struct sshkey a = SSHKEY_INIT, b = SSHKEY_INIT;
	struct strbuf blob = STRBUF_INIT, err = STRBUF_INIT;

	off_curve_key(&blob);
	is_int(0, sshkey_parse_blob(&a, blob.buf, blob.len, &err),
	       "key: an off-curve point parses, unbuilt");
	ok(!a.pkey, "key: parsing builds nothing");
	is_int(0, sshkey_parse_blob(&b, blob.buf, blob.len, &err),
	       "key: parsed twice");
	ok(sshkey_equal(&a, &b), "key: unbuilt keys compare as bytes");
	is_int(-1, sshkey_verify(&a, "", 0, "", 0, &err),
	       "key: an unbuilt key checks nothing");
	strbuf_reset(&err);
	is_int(-1, sshkey_build(&a, &err), "key: the off-curve point fails "
	       "to build");
	is_string("not a valid public key", err.buf, "key: build's reason");
	sshkey_release(&b);
	is_int(-1, sshkey_from_blob(&b, blob.buf, blob.len, &err),
	       "key: from_blob builds, and fails");
	sshkey_release(&a);
	sshkey_release(&b);
	strbuf_release(&blob);
	strbuf_release(&err);
}

int main(void)
{
	plan_lazy();
	test_base64();
	test_wire();
	test_patterns();
	test_times();
	test_allowed_signers();
	test_armour();
	test_unbuilt_keys();
	return 0;
}
