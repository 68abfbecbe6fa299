/*
 * ahd-replay sign: write detached signatures for sidecars and for the
 * records of the layouts of .ahd-replay.yml, or print what a signature
 * signs.
 */
#include "config.h"
#include "builtin.h"
#include "config/rcfile.h"
#include "fs/path.h"
#include "parse-options.h"
#include "root/rootfile.h"
#include "record/sidecar.h"
#include "sign/signature.h"
#include "sign/sshsign.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>

static const char sign_usage_text[] =
	"Writes <sidecar>.sig beside each sidecar (<record>.sig beside a\n"
	"record of a layout of .ahd-replay.yml), replacing any older one:\n"
	"an SSH signature with --ssh-key (or user.signingKey when gpg.format\n"
	"is ssh), an Ed25519 one with --key.  --statement prints the bytes a\n"
	"signature signs instead.  The sidecar itself is not changed.  Exit\n"
	"status: 0 when every sidecar was signed, 2 otherwise.\n";

/*
 * Where the .sig of the sidecar at path is held (fs/write.h): beneath
 * root, the directory the sidecar was found in; a sidecar named outside
 * it, or read with --allow-outside-root, holds its .sig to its own
 * directory as named, so a .sig planted as a symlink never leads the
 * write elsewhere.
 */
static int sig_limit(struct strbuf *limit, const char *root,
		     const char *path, int allow_outside, struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT;

	if (path_absolute(&abs, path, err))
		return -1;
	if (!allow_outside && path_is_within(abs.buf, root))
		strbuf_addstr(limit, root);
	else
		path_dirname(limit, abs.buf);
	strbuf_release(&abs);
	return 0;
}

/* The layout operand is a record of, or NULL: AHD's report or sidecar. */
static const struct layout *layout_of(const struct rcfile *rc,
				      const char *operand)
{
	const struct layout *lay = NULL;
	char *real;
	const char *rel;

	if (!rc->nr)
		return NULL;
	/* symlinks resolved, as the top is */
	real = realpath(operand, NULL);
	rel = real ? path_inside(real, rc->top.buf) : NULL;
	if (rel)
		lay = rcfile_layout_for(rc, rel);
	free(real);
	return lay;
}

/*
 * The statement for operand, vouching only for a sidecar (or a layout's
 * record) inside its root (rootfile.h), and in limit the directory its
 * .sig is written beneath (may be NULL).  On failure prints the error
 * naming the sidecar.
 */
static int statement_of(struct statement *st, struct strbuf *sidecar,
			struct strbuf *limit, const char *operand,
			const char *root, int allow_outside,
			const struct rcfile *rc)
{
	struct strbuf err = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf path = STRBUF_INIT;
	const struct layout *lay = layout_of(rc, operand);
	int ret = 0;

	if (layout_report_ambiguous(lay, operand, &err)) {
		error_path(operand, &err);
		ret = -1;
		goto out;
	}
	if (lay && lay->sidecar)
		layout_sidecar_for(&path, lay, operand);
	else if (lay)
		strbuf_addstr(&path, operand);
	else
		sidecar_path_for(&path, operand);
	if (rootfile_root_for(&dir, path.buf, root, &err) < 0 ||
	    rootfile_check(dir.buf, path.buf, allow_outside, NULL, &err) ||
	    (lay ? sig_record_statement(st, sidecar, lay, operand, root, &err) :
	     sig_statement(st, sidecar, operand, root, &err)) ||
	    (limit && sig_limit(limit, dir.buf, sidecar->buf, allow_outside,
				&err))) {
		error_path(path.buf, &err);
		ret = -1;
	}
out:
	strbuf_release(&err);
	strbuf_release(&dir);
	strbuf_release(&path);
	return ret;
}

int cmd_sign(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, ssh_key = STRBUF_INIT;
	struct strbuf program = STRBUF_INIT;
	struct rcfile rc = RCFILE_INIT;
	const char *key_path = NULL, *ssh_key_opt = NULL, *root = NULL;
	int statement_only = 0;
	struct sig_private_key *key = NULL;
	int i, status = 2, allow_outside = 0, quiet = 0;
	const struct parse_opt options[] = {
		OPT_BOOL('q', "quiet", &quiet, "do not name each signature "
			 "written"),
		OPT_STRING(0, "ssh-key", &ssh_key_opt, "<key>", "sign with "
			   "ssh-keygen -Y sign and this key (private, or .pub "
			   "for the agent's); default: user.signingKey when "
			   "gpg.format=ssh"),
		OPT_STRING(0, "key", &key_path, "<key>", "sign with this "
			   "Ed25519 private key (PKCS#8 PEM, mode 0600)"),
		OPT_BOOL(0, "statement", &statement_only, "print what a "
			 "signature of the one operand signs, and sign "
			 "nothing"),
		OPT_STRING(0, "root", &root, "<dir>", "paths in the statement "
			   "are relative to <dir>"),
		OPT_BOOL(0, "allow-outside-root", &allow_outside, "sign a "
			 "sidecar that a symlink leads out of the root"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"sign", OPERANDS("<report>|<sidecar>|<record>..."), options,
		sign_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	if (!argc)
		usage_msg_opt(&usage, "no sidecar given");
	/* a malformed file is named; its layouts' records cannot be signed */
	if (rcfile_here(&rc, root))
		goto out;
	if (statement_only) {
		struct statement st;
		struct strbuf sidecar = STRBUF_INIT;

		if (argc != 1 || key_path || ssh_key_opt)
			usage_msg_opt(&usage, "--statement takes one operand "
				      "and no key");
		statement_init(&st);
		if (!statement_of(&st, &sidecar, NULL, argv[0], root,
				  allow_outside, &rc)) {
			fwrite(st.text.buf, 1, st.text.len, stdout);
			status = 0;
		}
		statement_release(&st);
		strbuf_release(&sidecar);
		goto out;
	}
	if (key_path && ssh_key_opt)
		usage_msg_opt(&usage, "--key and --ssh-key are exclusive");
	if (key_path ? sig_load_private(&key, key_path, &err) :
	    sshsign_setup(&ssh_key, &program, ssh_key_opt, &err)) {
		error("%s", err.buf);
		goto out;
	}
	status = 0;
	for (i = 0; i < argc; i++) {
		struct strbuf sidecar = STRBUF_INIT, limit = STRBUF_INIT;
		struct statement st;

		statement_init(&st);
		strbuf_reset(&err);
		if (statement_of(&st, &sidecar, &limit, argv[i], root,
				 allow_outside, &rc)) {
			status = 2;
		} else if (key ? sig_sign_sidecar(key, &st, limit.buf,
						  sidecar.buf, &err) :
			   sshsign_sidecar(program.buf, ssh_key.buf, &st,
					   limit.buf, sidecar.buf, &err)) {
			error_path(sidecar.buf, &err);
			status = 2;
		} else
			if (!quiet)
				printf("signed %s%s\n", sidecar.buf,
				       SIGNATURE_SUFFIX);
		statement_release(&st);
		strbuf_release(&sidecar);
		strbuf_release(&limit);
	}
out:
	sig_private_key_free(key);
	rcfile_release(&rc);
	strbuf_release(&err);
	strbuf_release(&ssh_key);
	strbuf_release(&program);
	return finish_stdout(status);
}
