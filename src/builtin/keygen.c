/*
 * ahd-replay keygen: make an Ed25519 key pair for signing sidecars.
 */
#include "config.h"
#include "atomicfile.h"
#include "builtin.h"
#include "parse-options.h"
#include "signature.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char keygen_usage_text[] =
	"Prints the key id.  Exit status: 0 on success, 2 on failure.\n";

/*
 * Create path, which must not exist, with its final mode from the start:
 * a key written and then chmod-ed would be readable for a moment, and
 * O_EXCL refuses a file (or symlink) someone planted there.
 */
static int write_new_file(const char *path, const char *buf, size_t len,
			  mode_t mode, struct strbuf *err)
{
	size_t off = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);

	if (fd < 0) {
		if (errno == EEXIST)
			strbuf_addf(err, "'%s' already exists (--force to "
				    "replace it)", path);
		else
			strbuf_addf(err, "cannot create '%s': %s", path,
				    strerror(errno));
		return -1;
	}
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	if (off < len || fsync(fd) || close(fd)) {
		strbuf_addf(err, "cannot write '%s': %s", path,
			    strerror(errno));
		if (off < len)
			close(fd);
		unlink(path);
		return -1;
	}
	return 0;
}

static int write_key(const char *path, const struct strbuf *pem,
		     mode_t mode, int force, struct strbuf *err)
{
	if (force)
		return write_file_atomic(path, pem->buf, pem->len, mode, err);
	return write_new_file(path, pem->buf, pem->len, mode, err);
}

int cmd_keygen(int argc, char **argv)
{
	struct strbuf priv = STRBUF_INIT, pub = STRBUF_INIT;
	struct strbuf pub_path = STRBUF_INIT, err = STRBUF_INIT;
	char key_id[DIGEST_HEX_MAX];
	const char *out = NULL;
	EVP_PKEY *key = NULL;
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

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (!out || !*out)
		usage_msg_opt(&usage, "--out is required");
	if (argc)
		usage_msg_opt(&usage, "keygen takes no operands");
	strbuf_addf(&pub_path, "%s.pub", out);
	if (!force && !access(pub_path.buf, F_OK)) {
		error("'%s' already exists (--force to replace it)",
		      pub_path.buf);
		goto out;
	}
	if (sig_keygen(&key, &err) || sig_private_pem(&priv, key, &err) ||
	    sig_public_pem(&pub, key, &err) || sig_key_id(key_id, key, &err) ||
	    write_key(out, &priv, 0600, force, &err) ||
	    write_key(pub_path.buf, &pub, 0644, force, &err)) {
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
