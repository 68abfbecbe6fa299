/*
 * ahd-replay keygen: make an Ed25519 key pair for signing sidecars.
 */
#include "config.h"
#include "builtin.h"
#include "parse-options.h"
#include "sign/signature.h"
#include "usage.h"

#include <stdio.h>

static const char keygen_usage_text[] =
	"Prints the key id.  Exit status: 0 on success, 2 on failure.\n";

int cmd_keygen(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	char key_id[DIGEST_HEX_MAX];
	const char *out = NULL;
	int force = 0, status = 2;
	const struct parse_opt options[] = {
		OPT_STRING_F(0, "out", &out, "<key>", "write the private key "
			     "to <key> (PKCS#8 PEM, mode 0600) and the public "
			     "key to <key>.pub (SPKI PEM)", OPT_REQUIRED),
		OPT_BOOL(0, "force", &force, "replace existing key files"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"keygen", OPERANDS(""), options, keygen_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	if (!out || !*out)
		usage_msg_opt(&usage, "--out is required");
	if (argc)
		usage_msg_opt(&usage, "keygen takes no operands");
	if (sig_keygen_files(key_id, out, force, &err))
		error("%s", err.buf);
	else {
		printf("%s\n", key_id);
		status = 0;
	}
	strbuf_release(&err);
	return finish_stdout(status);
}
