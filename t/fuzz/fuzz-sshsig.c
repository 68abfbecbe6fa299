/*
 * libFuzzer target: arbitrary bytes through the SSH signature parsers,
 * which read attacker-supplied .sig files and trust files:
 *
 *  - as an armoured SSHSIG (src/sshsig.h), checked over a fixed message
 *    when it parses, and as a decoded blob;
 *  - as an allowed-signers file and a revoked-keys list
 *    (src/allowedsigners.h), then asked about the key of the signature
 *    when one parsed;
 *  - split at the first NUL as a string and an OpenSSH pattern list.
 *
 * Besides the sanitizers' findings it aborts when a contract breaks:
 * every refusal comes with a one-line reason without control bytes
 * (reasons are printed in verify's output), a parsed signature has a
 * non-empty namespace and a key, and the pattern matcher answers 0 or 1.
 *
 * Build and run with t/fuzz/build.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sign/allowedsigners.h"
#include "sign/sshsig.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT (64 * 1024)

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-sshsig: %s\n", what);
	if (detail)
		fprintf(stderr, "fuzz-sshsig: %s\n", detail);
	abort();
}

/* A reason for a refusal: one non-empty line, no control bytes. */
static void check_reason(const struct strbuf *why, const char *where)
{
	size_t i;

	if (!why->len)
		fail(where, "refused without a reason");
	for (i = 0; i < why->len; i++)
		if ((unsigned char)why->buf[i] < 0x20 || why->buf[i] == 0x7f)
			fail(where, "control byte in a reason");
}

static void fuzz_signature(const uint8_t *data, size_t size,
			   struct sshsig *out, int *parsed)
{
	struct strbuf why = STRBUF_INIT;
	struct sshsig blob = SSHSIG_INIT;
	size_t end = 0;

	if (sshsig_parse_armoured(out, (const char *)data, size, &end, &why))
		check_reason(&why, "armoured signature");
	else {
		if (!out->ns.len || !out->key.blob.len)
			fail("armoured signature", "parsed without namespace "
			     "or key");
		if (end > size)
			fail("armoured signature", "end past the input");
		strbuf_reset(&why);
		/* parsing builds no key: build it as a trusted one would be */
		if (sshkey_build(&out->key, &why))
			check_reason(&why, "key");
		else if (sshsig_verify(out, &out->key, "statement", 9,
				       &why) < 0)
			check_reason(&why, "verify");
		*parsed = 1;
	}
	strbuf_reset(&why);
	if (sshsig_parse_blob(&blob, data, size, &why))
		check_reason(&why, "signature blob");
	sshsig_release(&blob);
	strbuf_release(&why);
}

static void fuzz_trust(const uint8_t *data, size_t size,
		       const struct sshsig *sig, int have_sig)
{
	struct allowed_signers as = ALLOWED_SIGNERS_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *principals = NULL;

	if (allowed_signers_parse(&as, (const char *)data, size, "fuzz", &why))
		check_reason(&why, "allowed signers");
	strbuf_reset(&why);
	if (allowed_signers_parse_revoked(&as, (const char *)data, size, "fuzz",
					  &why))
		check_reason(&why, "revoked keys");
	strbuf_reset(&why);
	if (have_sig &&
	    allowed_signers_check(&as, &sig->key, "ahd-replay", 1790000000,
				  &principals, &why) != SIGNER_OK)
		check_reason(&why, "allowed signers check");
	allowed_signers_release(&as);
	strbuf_release(&why);
}

static void fuzz_patterns(const uint8_t *data, size_t size)
{
	const char *nul = memchr(data, 0, size);
	char *s, *p;
	int rc;

	if (!nul)
		return;
	s = strndup((const char *)data, (size_t)(nul - (const char *)data));
	p = strndup(nul + 1, size - (size_t)(nul - (const char *)data) - 1);
	if (!s || !p)
		abort();
	rc = ssh_match_pattern_list(s, p);
	if (rc != 0 && rc != 1)
		fail("pattern list", "answer neither 0 nor 1");
	free(s);
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sshsig sig = SSHSIG_INIT;
	int parsed = 0;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	fuzz_signature(data, size, &sig, &parsed);
	fuzz_trust(data, size, &sig, parsed);
	fuzz_patterns(data, size);
	sshsig_release(&sig);
	return 0;
}
