/*
 * ahd-replay sign: write detached signatures for sidecars.
 */
#include "config.h"
#include "builtin.h"
#include "parse-options.h"
#include "sidecar.h"
#include "signature.h"
#include "usage.h"

#include <getopt.h>
#include <stdio.h>

const char sign_usage[] =
	"usage: ahd-replay sign --key=<key> <report>|<sidecar>...\n"
	"\n"
	"    --key=<key>   the Ed25519 private key (PKCS#8 PEM, mode 0600)\n"
	"\n"
	"Writes <sidecar>.sig beside each sidecar, replacing any older one.\n"
	"The sidecar itself is not changed.  Exit status: 0 when every\n"
	"sidecar was signed, 2 otherwise.\n";

static const struct option sign_options[] = {
	{ "key", required_argument, NULL, 'k' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_sign(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	const char *key_path = NULL;
	EVP_PKEY *key = NULL;
	int c, i, status = 2;

	reset_getopt();
	while ((c = getopt_long(argc, argv, "+h", sign_options, NULL)) != -1) {
		switch (c) {
		case 'k':
			key_path = optarg;
			break;
		case 'h':
			usage_help(sign_usage);
		default:
			usage_error(sign_usage, "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	if (!key_path)
		usage_error(sign_usage, "--key is required");
	if (optind >= argc)
		usage_error(sign_usage, "no sidecar given");
	if (sig_load_private(&key, key_path, &err)) {
		error("%s", err.buf);
		goto out;
	}
	status = 0;
	for (i = optind; i < argc; i++) {
		struct strbuf sidecar = STRBUF_INIT;

		sidecar_path_for(&sidecar, argv[i]);
		strbuf_reset(&err);
		if (sig_sign_sidecar(key, sidecar.buf, &err)) {
			error("%s: %s", sidecar.buf, err.buf);
			status = 2;
		} else
			printf("signed %s%s\n", sidecar.buf, SIGNATURE_SUFFIX);
		strbuf_release(&sidecar);
	}
out:
	EVP_PKEY_free(key);
	strbuf_release(&err);
	return finish_stdout(status);
}
