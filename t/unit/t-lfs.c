/*
 * A blob is a git-lfs pointer only when it parses strictly as one: a file
 * that merely resembles a pointer is content and must be hashed as such.
 */
#include "config.h"
#include "git/lfs.h"
#include "tap.h"

#include <string.h>

#define V "version https://git-lfs.github.com/spec/v1\n"
#define OID "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"

static int parse(const char *text, struct lfs_pointer *p)
{
	return lfs_pointer_parse(p, text, strlen(text));
}

int main(void)
{
	struct lfs_pointer p;

	plan_lazy();
	memset(&p, 0, sizeof(p));
	is_int(1, parse(V "oid sha256:" OID "\nsize 12345\n", &p),
	       "a pointer as git-lfs writes it");
	is_string(OID, p.oid, "its oid");
	ok(p.size == 12345, "its size");
	is_int(1, parse(V "oid sha256:" OID "\nsize 0\n", &p), "size 0");
	is_int(-1, parse(V "ext-0-foo sha256:" OID "\noid sha256:" OID
			 "\nsize 1\n", &p), "extensions: not readable here");

	is_int(0, parse(V "oid sha256:" OID "\nsize 12345", &p),
	       "no final newline");
	is_int(0, parse("version https://git-lfs.github.com/spec/v1\r\n"
			"oid sha256:" OID "\r\nsize 1\r\n", &p), "CRLF lines");
	is_int(0, parse(V "oid sha256:4D7A214614AB2935C943F9E0FF69D22EADBB8F32"
			"B1258DAAA5E2CA24D17E2393\nsize 1\n", &p),
	       "upper-case hex");
	is_int(0, parse(V "oid sha256:" OID "0\nsize 1\n", &p),
	       "65 hex digits");
	is_int(0, parse(V "oid sha1:" OID "\nsize 1\n", &p), "another hash");
	is_int(0, parse(V "size 1\noid sha256:" OID "\n", &p),
	       "keys out of order");
	is_int(0, parse(V "oid sha256:" OID "\n", &p), "no size");
	is_int(0, parse(V "size 1\n", &p), "no oid");
	is_int(0, parse(V "oid sha256:" OID "\nsize 01\n", &p),
	       "a leading zero");
	is_int(0, parse(V "oid sha256:" OID "\nsize -1\n", &p),
	       "a negative size");
	is_int(0, parse(V "oid sha256:" OID "\nsize 12345678901234567890\n", &p),
	       "a size past 19 digits");
	is_int(0, parse(V "oid sha256:" OID "\nsize 1\nx y\n", &p),
	       "an unknown key");
	is_int(0, parse(V "oid sha256:" OID "\nsize 1\n\n", &p),
	       "a blank line");
	is_int(0, parse("version https://git-lfs.github.com/spec/v2\n"
			"oid sha256:" OID "\nsize 1\n", &p), "another version");
	is_int(0, parse("oid sha256:" OID "\nsize 1\n" V, &p),
	       "the version line last");
	is_int(0, parse(V "oid sha256:" OID "\nsize 1\n# name: x\n", &p),
	       "YAML after a pointer");
	return 0;
}
