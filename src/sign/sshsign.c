#include "config.h"
#include "sshsign.h"
#include "fs/write.h"
#include "git/repo.h"
#include "signature.h"
#include "sshsig.h"
#include "strutil.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int sshsign_setup(struct strbuf *key_out, struct strbuf *program,
		  const char *key, struct strbuf *err)
{
	struct strbuf format = STRBUF_INIT;
	int rc;

	rc = repo_config_here(program, "gpg.ssh.program", 0, err);
	if (rc < 0)
		return -1;
	if (!rc)
		strbuf_addstr(program, "ssh-keygen");
	if (key) {
		strbuf_addstr(key_out, key);
		return 0;
	}
	rc = repo_config_here(&format, "gpg.format", 0, err);
	if (rc > 0 && !strcmp(format.buf, "ssh"))
		rc = repo_config_here(key_out, "user.signingKey", 0, err);
	else if (rc >= 0) {
		strbuf_addstr(err, "no SSH key: give --ssh-key, or set "
			      "user.signingKey with gpg.format=ssh");
		rc = -1;
	}
	strbuf_release(&format);
	if (!rc)
		strbuf_addstr(err, "no SSH key: user.signingKey is not set");
	if (rc <= 0)
		return -1;
	/* git expands a leading ~/ in user.signingKey; so do we. */
	if (starts_with(key_out->buf, "~/") && getenv("HOME")) {
		struct strbuf full = STRBUF_INIT;

		strbuf_addf(&full, "%s%s", getenv("HOME"), key_out->buf + 1);
		strbuf_reset(key_out);
		strbuf_addbuf(key_out, &full);
		strbuf_release(&full);
	}
	return 0;
}

/* Run program with argv; feed in, collect up to max bytes of stdout. */
static int run_filter(struct strbuf *out, char *const argv[],
		      const char *in, size_t in_len, size_t max,
		      struct strbuf *err)
{
	int to[2] = { -1, -1 }, from[2] = { -1, -1 }, status, ret = -1;
	void (*old_pipe)(int);
	pid_t pid;
	char buf[4096];
	ssize_t n;

	if (pipe(to) || pipe(from)) {
		strbuf_addf(err, "cannot make a pipe: %s", strerror(errno));
		goto close;
	}
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot fork: %s", strerror(errno));
		goto close;
	}
	if (!pid) {
		if (dup2(to[0], 0) < 0 || dup2(from[1], 1) < 0)
			_exit(127);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execvp(argv[0], argv);
		child_error("cannot run '%s': %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	to[0] = from[1] = -1;
	/* A program that exits without reading must not kill us. */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	while (in_len) {
		n = write(to[1], in, in_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		in += n;
		in_len -= (size_t)n;
	}
	close(to[1]);
	to[1] = -1;
	while ((n = read(from[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (out->len + (size_t)n <= max)
			strbuf_add(out, buf, (size_t)n);
	}
	signal(SIGPIPE, old_pipe);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		strbuf_addf(err, "'%s -Y sign' failed (%s %d)", argv[0],
			    WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) :
			    WTERMSIG(status));
		goto close;
	}
	ret = 0;
close:
	if (to[0] >= 0)
		close(to[0]);
	if (to[1] >= 0)
		close(to[1]);
	if (from[0] >= 0)
		close(from[0]);
	if (from[1] >= 0)
		close(from[1]);
	return ret;
}

/* A "key::<public key>" literal, as git allows, written to a temporary file. */
static int literal_key_file(struct strbuf *path, const char *literal,
			    struct strbuf *err)
{
	const char *tmp = getenv("TMPDIR");
	size_t len = strlen(literal);
	int fd;

	strbuf_addf(path, "%s/ahd-replay-key-XXXXXX",
		    tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path->buf);
	if (fd < 0) {
		strbuf_addf(err, "cannot make a temporary key file: %s",
			    strerror(errno));
		strbuf_reset(path);
		return -1;
	}
	if (write(fd, literal, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
		strbuf_addf(err, "cannot write '%s': %s", path->buf,
			    strerror(errno));
		close(fd);
		unlink(path->buf);
		strbuf_reset(path);
		return -1;
	}
	close(fd);
	return 0;
}

int sshsign_sidecar(const char *program, const char *key,
		    const struct statement *st, const char *root,
		    const char *sidecar, struct strbuf *err)
{
	struct strbuf armour = STRBUF_INIT, tmpkey = STRBUF_INIT;
	struct strbuf sig_path = STRBUF_INIT, why = STRBUF_INIT;
	struct sshsig sig = SSHSIG_INIT;
	char *argv[8];
	size_t end;
	int ret = -1;

	/*
	 * git takes "key::<public key>", and (deprecated) a bare public
	 * key line, for a key held by the agent.
	 */
	if (starts_with(key, "key::") || starts_with(key, "ssh-") ||
	    starts_with(key, "ecdsa-") || starts_with(key, "sk-")) {
		if (literal_key_file(&tmpkey, key + (starts_with(key, "key::") ?
						     5 : 0), err))
			goto out;
		key = tmpkey.buf;
	}
	argv[0] = (char *)program;
	argv[1] = (char *)"-Y";
	argv[2] = (char *)"sign";
	argv[3] = (char *)"-n";
	argv[4] = (char *)"ahd-replay";
	argv[5] = (char *)"-f";
	argv[6] = (char *)key;
	argv[7] = NULL;
	if (run_filter(&armour, argv, st->text.buf, st->text.len,
		       SSHSIG_MAX_ARMOUR, err))
		goto out;
	if (sshsig_parse_armoured(&sig, armour.buf, armour.len, &end, &why)) {
		strbuf_addf(err, "'%s' did not print an SSH signature: %s",
			    program, why.buf);
		goto out;
	}
	/* The signature is our own signer's: its key may be built. */
	if (strcmp(sig.ns.buf, "ahd-replay") || sshkey_build(&sig.key, &why) ||
	    sshsig_verify(&sig, &sig.key, st->text.buf, st->text.len,
			  &why) != 1) {
		strbuf_addf(err, "the signature '%s' made does not verify%s%s",
			    program, why.len ? ": " : "", why.buf);
		goto out;
	}
	strbuf_setlen(&armour, end);
	if (armour.len && armour.buf[armour.len - 1] != '\n')
		strbuf_addch(&armour, '\n');
	strbuf_addbuf(&armour, &st->text);
	strbuf_addch(&armour, '\n');
	strbuf_addf(&sig_path, "%s%s", sidecar, SIGNATURE_SUFFIX);
	if (write_file_beneath(root, sig_path.buf, armour.buf, armour.len,
			       0644, err))
		goto out;
	ret = 0;
out:
	if (tmpkey.len)
		unlink(tmpkey.buf);
	sshsig_release(&sig);
	strbuf_release(&armour);
	strbuf_release(&tmpkey);
	strbuf_release(&sig_path);
	strbuf_release(&why);
	return ret;
}
