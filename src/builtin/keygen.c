/*
 * ahd-replay keygen: make an Ed25519 key pair for signing sidecars.
 */
#include "config.h"
#include "fs/atomicfile.h"
#include "builtin.h"
#include "parse-options.h"
#include "sign/signature.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static const char keygen_usage_text[] =
	"Prints the key id.  Exit status: 0 on success, 2 on failure.\n";

int cmd_keygen(int argc, char **argv)
{
	struct strbuf priv = STRBUF_INIT, pub = STRBUF_INIT;
	struct strbuf pub_path = STRBUF_INIT, err = STRBUF_INIT;
	char key_id[DIGEST_HEX_MAX];
	const char *out = NULL;
	EVP_PKEY *key = NULL;
	struct atomic_content files[2];
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
	strbuf_addf(&pub_path, "%s.pub", out);
	if (sig_keygen(&key, &err) || sig_private_pem(&priv, key, &err) ||
	    sig_public_pem(&pub, key, &err) || sig_key_id(key_id, key, &err)) {
		error("%s", err.buf);
		goto out;
	}
	/* both or neither: a key without its .pub would block a rerun */
	files[0].path = out;
	files[0].buf = priv.buf;
	files[0].len = priv.len;
	files[0].mode = 0600;
	files[1].path = pub_path.buf;
	files[1].buf = pub.buf;
	files[1].len = pub.len;
	files[1].mode = 0644;
	if (write_files_together(files, 2, force, &err)) {
		error("%s", err.buf);
		goto out;
	}
	printf("%s\n", key_id);
	status = 0;
out:
	OPENSSL_cleanse(priv.buf, priv.len);
	EVP_PKEY_free(key);
	strbuf_release(&priv);
	strbuf_release(&pub);
	strbuf_release(&pub_path);
	strbuf_release(&err);
	return finish_stdout(status);
}
