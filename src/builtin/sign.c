/*
 * ahd-replay sign: write detached signatures for sidecars.
 */
#include "config.h"
#include "builtin.h"
#include "parse-options.h"
#include "quote.h"
#include "rootfile.h"
#include "sidecar.h"
#include "signature.h"
#include "usage.h"

#include <stdio.h>

static const char sign_usage_text[] =
	"Writes <sidecar>.sig beside each sidecar, replacing any older one.\n"
	"The sidecar itself is not changed.  Exit status: 0 when every\n"
	"sidecar was signed, 2 otherwise.\n";

int cmd_sign(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, root = STRBUF_INIT, msg = STRBUF_INIT;
	const char *key_path = NULL;
	EVP_PKEY *key = NULL;
	int i, status = 2, allow_outside = 0;
	const struct parse_opt options[] = {
		OPT_STRING_F(0, "key", &key_path, "<key>", "the Ed25519 "
			     "private key (PKCS#8 PEM, mode 0600)",
			     OPT_REQUIRED),
		OPT_BOOL(0, "allow-outside-root", &allow_outside, "sign a "
			 "sidecar that a symlink leads out of the root"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"sign", OPERANDS("<report>|<sidecar>..."), options,
		sign_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (!key_path)
		usage_msg_opt(&usage, "--key is required");
	if (!argc)
		usage_msg_opt(&usage, "no sidecar given");
	if (sig_load_private(&key, key_path, &err)) {
		error("%s", err.buf);
		goto out;
	}
	status = 0;
	for (i = 0; i < argc; i++) {
		struct strbuf sidecar = STRBUF_INIT;

		sidecar_path_for(&sidecar, argv[i]);
		strbuf_reset(&err);
		strbuf_reset(&root);
		/* Vouch only for a sidecar inside its root (rootfile.h). */
		if (rootfile_root_for(&root, sidecar.buf, NULL, &err) < 0 ||
		    rootfile_check(root.buf, sidecar.buf, allow_outside, NULL,
				   &err) ||
		    sig_sign_sidecar(key, sidecar.buf, &err)) {
			strbuf_reset(&msg);
			quote_c_style(&msg, sidecar.buf);
			strbuf_addstr(&msg, ": ");
			quote_escape(&msg, err.buf, err.len);
			error("%s", msg.buf);
			status = 2;
		} else
			printf("signed %s%s\n", sidecar.buf, SIGNATURE_SUFFIX);
		strbuf_release(&sidecar);
	}
out:
	EVP_PKEY_free(key);
	strbuf_release(&err);
	strbuf_release(&root);
	strbuf_release(&msg);
	return finish_stdout(status);
}
