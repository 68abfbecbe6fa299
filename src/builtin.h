#ifndef BUILTIN_H
#define BUILTIN_H

/*
 * One entry point per subcommand, each in src/builtin/<name>.c.  argv[0]
 * is the subcommand's name.  The return value is the exit status
 * (SPEC section 6: 0 clean, 1 verification failed, 2 usage error or
 * unusable input).
 */

/*
 * What main() sets up before running a command (git's RUN_SETUP): with
 * NEED_GIT, libgit2 is initialised (repo_library_init()) and shut down
 * after.  Commands without it never start libgit2, whose start-up reads
 * the system's CA certificates.
 */
enum cmd_flags {
	NEED_GIT = (1 << 0),
};

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;	/* one line for --help */
	unsigned flags;		/* enum cmd_flags */
};

int cmd_backfill(int argc, char **argv);
int cmd_canon(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_hook(int argc, char **argv);
int cmd_hooks(int argc, char **argv);
int cmd_install_hooks(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_uninstall_hooks(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sign(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif
