/*
 * Which command `replay --run` executes, and whether the user trusts it
 * (replay-trust.h has the rule; ahd-replay-replay(1), TRUST, says why).
 */
#include "config.h"
#include "replay-trust.h"
#include "fs/path.h"
#include "fs/readfile.h"
#include "git/commitfiles.h"
#include "hash/hashfile.h"
#include "git/revrange.h"
#include "record/render.h"
#include "sign/signature.h"
#include "usage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The interpreters a recorded command may name, with a worktree script. */
static const char *const interpreters[] = { "node", NULL };

/* A program name for a message: shell-quoted, then made printable. */
static void quote_program(struct strbuf *out, const char *name)
{
	struct strbuf q = STRBUF_INIT;

	render_shell_quote(&q, name);
	strbuf_add_printable(out, q.buf);
	strbuf_release(&q);
}

static int is_executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/*
 * A bare name on PATH, as execvp() would find it from the invoking
 * directory (an empty or relative entry is relative to it).
 */
static int search_path(struct strbuf *out, const char *name,
		       struct strbuf *err)
{
	const char *path = getenv("PATH"), *p;
	struct strbuf dir = STRBUF_INIT, cand = STRBUF_INIT;
	int found = 0;

	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; !found;) {
		size_t n = strcspn(p, ":");

		strbuf_reset(&dir);
		strbuf_add(&dir, p, n);
		strbuf_reset(&cand);
		if (!path_absolute(&cand, dir.len ? dir.buf : ".", err)) {
			strbuf_addf(&cand, "/%s", name);
			found = is_executable_file(cand.buf);
		}
		strbuf_reset(err);
		if (!p[n])
			break;
		p += n + 1;
	}
	if (found)
		strbuf_addbuf(out, &cand);
	else {
		/* the name may come from the sidecar: never raw */
		strbuf_addstr(err, "cannot find ");
		quote_program(err, name);
		strbuf_addstr(err, " on PATH");
	}
	strbuf_release(&dir);
	strbuf_release(&cand);
	return found ? 0 : -1;
}

/*
 * Is the file at real (absolute, symlinks resolved, inside the worktree)
 * what ahd_commit stores at that path, byte for byte?  replay writes
 * files a pull request chooses into the worktree -- inputs restored
 * from any commit of history by their hash, the report, its sidecar --
 * and none of those is the trusted commit's code.
 */
static int as_committed(const struct replay *rp, const char *real)
{
	const char *rel = path_inside(real, rp->wt.path.buf);
	struct commit_files at = COMMIT_FILES_INIT;
	struct strbuf blob = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	int same = 0;

	if (rel && *rel &&
	    !commit_files_open(&at, &rp->repo, rp->commit, &err) &&
	    commit_files_read_stored(&blob, &at, rel, HASH_DEFAULT_MAX_SIZE) ==
	    COMMIT_FILES_OK &&
	    !read_file_limited(&now, real, HASH_DEFAULT_MAX_SIZE, &err))
		same = blob.len == now.len &&
		       !memcmp(blob.buf, now.buf, blob.len);
	commit_files_release(&at);
	strbuf_release(&blob);
	strbuf_release(&now);
	strbuf_release(&err);
	return same;
}

/* A recorded program with a slash: a file of the worktree. */
static int worktree_program(struct strbuf *out, const struct replay *rp,
			    const char *prog, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	char *real = NULL;
	int ret = -1;

	if (prog[0] == '/') {
		strbuf_addstr(err, "the recorded program is an absolute path "
			      "of the recording machine");
		goto out;
	}
	strbuf_addf(&path, "%s/%s", rp->root.buf, prog);
	real = realpath(path.buf, NULL);
	if (!real || !path_is_within(real, rp->wt.path.buf) ||
	    !is_executable_file(real)) {
		strbuf_addstr(err, "the recorded program is not an executable "
			      "file inside the worktree");
		goto out;
	}
	if (!as_committed(rp, real)) {
		strbuf_addstr(err, "the recorded program is not a file of "
			      "ahd_commit as committed (replay wrote it: a "
			      "restored input, the report or its sidecar)");
		goto out;
	}
	strbuf_addstr(out, real);
	ret = 0;
out:
	free(real);
	strbuf_release(&path);
	return ret;
}

int replay_command_prepare(struct replay_command *cmd, const struct replay *rp,
			   char *const *given, struct strbuf *err)
{
	size_t i, n = 0;
	const char *prog;

	if (given) {
		while (given[n])
			n++;
	} else
		n = replay_argv_count(rp);
	if (!n) {
		if (rp->layout)
			strbuf_addf(err, "the record names no command%s%s: "
				    "nothing to run", rp->layout->command ?
				    " at " : " (its layout has no command "
				    "pointer)", rp->layout->command ?
				    rp->layout->command : "");
		else
			strbuf_addstr(err, "the sidecar records no command "
				      "(argv is empty): nothing to run");
		return -1;
	}
	cmd->argv = xcalloc(n + 1, sizeof(*cmd->argv));
	cmd->argc = n;
	for (i = 0; i < n; i++)
		cmd->argv[i] = xstrdup(given ? given[i] :
				       replay_argv_at(rp, i));
	cmd->user_given = given != NULL;
	prog = cmd->argv[0];
	if (!*prog) {
		strbuf_addstr(err, "the program to run is an empty string");
		return -1;
	}
	if (!strchr(prog, '/'))
		return search_path(&cmd->program, prog, err);
	if (!given)
		return worktree_program(&cmd->program, rp, prog, err);
	/* the invoking directory's file, not the worktree's: item of trust */
	if (path_absolute(&cmd->program, prog, err))
		return -1;
	if (!is_executable_file(cmd->program.buf)) {
		quote_program(err, prog);
		strbuf_addstr(err, " is not an executable file");
		return -1;
	}
	return 0;
}

void replay_command_quote(struct strbuf *out, const struct replay_command *cmd)
{
	size_t i;

	quote_program(out, cmd->program.buf);
	for (i = 1; i < cmd->argc; i++) {
		strbuf_addch(out, ' ');
		quote_program(out, cmd->argv[i]);
	}
}

void replay_command_release(struct replay_command *cmd)
{
	size_t i;

	for (i = 0; i < cmd->argc; i++)
		free(cmd->argv[i]);
	free(cmd->argv);
	cmd->argv = NULL;
	cmd->argc = 0;
	strbuf_release(&cmd->program);
}

/* --- the code: ahd_commit in trusted history, or a signed sidecar ----- */

/*
 * The default branch: origin's HEAD (what `git clone` set), else the
 * local init.defaultBranch, main or master.  Returns 1 with its name in
 * ref and commit in hex, 0 when there is none.  (Only origin: listing
 * the remotes costs a leak inside libgit2 1.5's git_remote_list().)
 */
static int default_ref(struct strbuf *ref, char *hex, struct repo *r)
{
	struct strbuf err = STRBUF_INIT, branch = STRBUF_INIT;
	const char *locals[] = { NULL, "main", "master", NULL };
	size_t i;
	int found;

	strbuf_addstr(ref, "refs/remotes/origin/HEAD");
	found = !revrange_commit(hex, r, ref->buf, &err);
	strbuf_reset(&err);
	if (!found && repo_config_string(&branch, r, "init.defaultBranch",
					 &err) == 1)
		locals[0] = branch.buf;
	for (i = locals[0] ? 0 : 1; !found && locals[i]; i++) {
		strbuf_reset(ref);
		strbuf_addf(ref, "refs/heads/%s", locals[i]);
		strbuf_reset(&err);
		found = !revrange_commit(hex, r, ref->buf, &err);
	}
	if (!found)
		strbuf_reset(ref);
	strbuf_release(&err);
	strbuf_release(&branch);
	return found;
}

/* 1 when ahd_commit is reachable from the trusted ref; why otherwise. */
static int commit_trusted(struct replay *rp, const char *given,
			  struct strbuf *basis, struct strbuf *why)
{
	struct strbuf ref = STRBUF_INIT, err = STRBUF_INIT;
	char hex[SNAPSHOT_HEX_MAX], base[SNAPSHOT_HEX_MAX];
	int ok = 0;

	if (given)
		strbuf_addstr(&ref, given);
	else if (repo_config_string(&ref, &rp->repo, "ahd-replay.trustedRef",
				    &err) < 0) {
		strbuf_addf(why, "ahd-replay.trustedRef: %s", err.buf);
		goto out;
	}
	if (ref.len) {
		if (revrange_commit(hex, &rp->repo, ref.buf, &err)) {
			strbuf_addf(why, "the trusted ref '%s' names no commit: "
				    "%s", ref.buf, err.buf);
			goto out;
		}
	} else if (!default_ref(&ref, hex, &rp->repo)) {
		strbuf_addstr(why, "there is no trusted ref to check ahd_commit "
			      "against (no remote HEAD, no local default "
			      "branch; name one with --trusted-ref)");
		goto out;
	}
	if (!strcmp(hex, rp->commit) ||
	    (!revrange_merge_base(base, &rp->repo, rp->commit, hex, &err) &&
	     !strcmp(base, rp->commit))) {
		strbuf_addf(basis, "%s %.12s is in %s", rp->layout ?
			    "the record's commit" : "ahd_commit", rp->commit,
			    ref.buf);
		ok = 1;
	} else
		strbuf_addf(why, "%s %.12s is not in the history of the "
			    "trusted ref %s", rp->layout ? "the record's "
			    "commit" : "ahd_commit", rp->commit, ref.buf);
out:
	strbuf_release(&ref);
	strbuf_release(&err);
	return ok;
}

/* The user's keys: --trusted-keys or ahd-replay.trustedKeys, and SSH's. */
static int load_keys(struct sig_keyring *kr,
		     const struct replay_trust_options *o)
{
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	int rc = 0;

	/* --trusted-keys-at: every trust file as a trusted commit has it */
	if (o->sig.at)
		return sig_trust_load_keys_at(kr, o->trusted_keys, o->sig.at) ||
		       sig_trust_load_ssh(kr, &o->sig) ? -1 : 0;
	/* a tracked trust file is the pull request's to change: say so */
	sig_trust_warn_changed(&o->sig, o->trusted_keys, NULL);
	if (o->trusted_keys)
		strbuf_addstr(&dir, o->trusted_keys);
	else
		rc = repo_config_here(&dir, "ahd-replay.trustedKeys",
				      REPO_CONFIG_PATH, &err);
	if (rc >= 0 && dir.len && sig_keyring_load_dir(kr, dir.buf, &err))
		rc = -1;
	if (rc < 0)
		error("%s", err.buf);
	strbuf_release(&dir);
	strbuf_release(&err);
	return rc < 0 || sig_trust_load_ssh(kr, &o->sig) ? -1 : 0;
}

/* 1 when the sidecar carries a signature by a key the user trusts. */
static int sidecar_signed(struct replay *rp,
			  const struct replay_trust_options *o,
			  struct strbuf *basis)
{
	struct sig_keyring kr = SIG_KEYRING_INIT;
	struct sig_result res;
	struct sig_subject subj;
	struct strbuf side = STRBUF_INIT, report = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT, sig = STRBUF_INIT;
	int ok = 0;

	sig_result_init(&res);
	strbuf_addf(&side, "%s/%s", rp->repo.workdir.buf, rp->sidecar.buf);
	strbuf_addf(&sig, "%s%s", side.buf, SIGNATURE_SUFFIX);
	if (access(sig.buf, F_OK) || load_keys(&kr, o))
		goto out;
	strbuf_addf(&report, "%s/%s", rp->repo.workdir.buf, rp->report.buf);
	strbuf_addf(&root, "%s/%s", rp->repo.workdir.buf, rp->prefix.buf);
	while (root.len > 1 && root.buf[root.len - 1] == '/')
		strbuf_setlen(&root, root.len - 1);
	subj.sidecar = side.buf;
	subj.report = rp->layout && !rp->layout->sidecar ? NULL : report.buf;
	subj.root = root.buf;
	subj.invoked_at = rp->layout ? NULL : rp->sc.invoked_at;
	subj.layout = rp->layout;
	subj.sig_absent = 0;
	if (sig_check_sidecar(&res, &kr, &subj) == SIG_OK &&
	    !res.sidecar_only) {
		strbuf_addf(basis, "the %s is signed by ",
			    rp->layout ? "record" : "sidecar");
		strbuf_add_printable(basis, res.principal.len ?
				     res.principal.buf : res.key_id.buf);
		ok = 1;
	}
out:
	sig_result_release(&res);
	sig_keyring_release(&kr);
	strbuf_release(&side);
	strbuf_release(&report);
	strbuf_release(&root);
	strbuf_release(&sig);
	return ok;
}

/* --- the program ------------------------------------------------------ */

struct allow_match {
	const char *prog;
	int found;
};

static int allow_one(const char *value, void *data)
{
	struct allow_match *m = data;

	if (value && !strcmp(value, m->prog))
		m->found = 1;
	return m->found;
}

/* A script argument: a relative path naming a file of the worktree. */
static int worktree_script(const struct replay *rp, const char *arg)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	char *real;
	int ok;

	if (!*arg || arg[0] == '-' || arg[0] == '/')
		return 0;
	strbuf_addf(&path, "%s/%s", rp->root.buf, arg);
	real = realpath(path.buf, NULL);
	ok = real && path_is_within(real, rp->wt.path.buf) &&
	     !stat(real, &st) && S_ISREG(st.st_mode) && as_committed(rp, real);
	free(real);
	strbuf_release(&path);
	return ok;
}

static int program_allowed(struct replay *rp, const struct replay_command *cmd,
			   struct strbuf *why)
{
	struct allow_match m = { cmd->argv[0], 0 };
	struct strbuf err = STRBUF_INIT;
	size_t i;

	if (cmd->user_given)
		return 1;
	/* a recorded program with a slash was found inside the worktree */
	if (strchr(cmd->argv[0], '/'))
		return 1;
	if (repo_config_multivar(&rp->repo, "ahd-replay.runAllow", allow_one,
				 &m, &err) < 0)
		strbuf_setlen(&err, 0);
	strbuf_release(&err);
	if (m.found)
		return 1;
	for (i = 0; interpreters[i]; i++)
		if (!strcmp(cmd->argv[0], interpreters[i]))
			break;
	if (interpreters[i] && cmd->argc > 1 &&
	    worktree_script(rp, cmd->argv[1]))
		return 1;
	strbuf_addstr(why, "the recorded program ");
	quote_program(why, cmd->argv[0]);
	strbuf_addstr(why, interpreters[i] ?
		      " is not running a script of the worktree as "
		      "ahd_commit has it" :
		      " is neither the recorded interpreter (node) running a "
		      "script of the worktree nor in ahd-replay.runAllow");
	return 0;
}

int replay_trust_check(struct replay *rp, const struct replay_command *cmd,
		       const struct replay_trust_options *o,
		       struct strbuf *basis, struct strbuf *why)
{
	struct strbuf code = STRBUF_INIT;
	int ok;

	/*
	 * A signature covers the whole sidecar: argv and ahd_commit.  A
	 * layout's record is a harness's file, whose command field was
	 * not written to be vetted as a command, and which field that is
	 * the layout's command pointer in .ahd-replay.yml says (signatures
	 * made before its definition was bound, statement.h, covered none
	 * of it).  So there a signature stands only for the commit, and
	 * the program must still be one the user allows.
	 */
	if (sidecar_signed(rp, o, basis)) {
		if (!rp->layout)
			return 1;
		ok = program_allowed(rp, cmd, &code);
	} else
		ok = commit_trusted(rp, o->trusted_ref, basis, &code) &&
		     program_allowed(rp, cmd, &code);
	if (!ok) {
		strbuf_addbuf(why, &code);
		strbuf_addstr(why, "; --allow-untrusted-run runs it anyway");
	}
	strbuf_release(&code);
	return ok;
}
