/*
 * ahd-replay: global options, the command table, dispatch.
 */
#include "config.h"
#include "advice.h"
#include "builtin.h"
#include "color.h"
#include "git/repo.h"
#include "strbuf.h"
#include "suggest.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>
#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif

static const struct cmd_struct commands[] = {
	{ "backfill", cmd_backfill, "write sidecars for old reports from git "
	  "history", NEED_GIT },
	{ "canon", cmd_canon, "print the canonical text of a YAML or JSON "
	  "input", 0 },
	{ "capture", cmd_capture, "write the replay sidecar of a run",
	  NEED_GIT },
	{ "config", cmd_config, "check .ahd-replay.yml or show the settings "
	  "in effect", NEED_GIT },
	{ "diff", cmd_diff, "compare two sidecars' stable fields", NEED_GIT },
	{ "hash", cmd_hash, "hash inputs exactly as the reference does", 0 },
	{ "hook", cmd_hook, "the check the installed git hooks run",
	  NEED_GIT },
	{ "hooks", cmd_hooks, "show whether git will run the installed "
	  "hooks", NEED_GIT },
	{ "install-hooks", cmd_install_hooks, "install the pre-commit and "
	  "pre-push hooks", NEED_GIT },
	{ "keygen", cmd_keygen, "make an Ed25519 key pair for signing "
	  "sidecars", 0 },
	{ "log", cmd_log, "check a REPLAY.jsonl event log", 0 },
	{ "render", cmd_render, "print a sidecar's markdown block as the "
	  "reference does", NEED_GIT },
	{ "replay", cmd_replay, "re-issue a run at its version with its inputs "
	  "restored", NEED_GIT },
	{ "sign", cmd_sign, "write a detached signature for each sidecar",
	  NEED_GIT },
	{ "uninstall-hooks", cmd_uninstall_hooks, "remove the hooks and restore "
	  "the ones they replaced", NEED_GIT },
	{ "validate", cmd_validate, "check sidecars against the replay JSON "
	  "Schema", NEED_GIT },
	{ "verify", cmd_verify, "check that reports' inputs still hash as "
	  "recorded", NEED_GIT },
	{ "verify-replay", cmd_verify, "alias of verify", NEED_GIT },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char main_usage[] =
	"usage: ahd-replay [--version] [--help] <command> [<args>]\n";

static void print_help(FILE *fp)
{
	size_t i;

	fputs(main_usage, fp);
	fputs("\nVerify the inputs that AHD eval reports pin in their "
	      ".replay.json sidecars.\n\ncommands:\n", fp);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(fp, "    %-16s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n'ahd-replay help <command>' shows a command's options;\n"
	      "'man ahd-replay' has the details.\n", fp);
}

static const struct cmd_struct *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * "'verfy' is not an ahd-replay command", and the commands it may have
 * meant: exit status 2.
 */
static int unknown_command(const char *name)
{
	struct suggest sg;
	struct strbuf hint = STRBUF_INIT;
	size_t i;

	error("'%s' is not an ahd-replay command; see 'ahd-replay --help'",
	      name);
	suggest_init(&sg, name);
	for (i = 0; i < NR_COMMANDS; i++)
		suggest_consider(&sg, commands[i].name);
	suggest_consider(&sg, "help");
	if (suggest_format(&sg, &hint, ""))
		advise("did you mean %s?", hint.buf);
	strbuf_release(&hint);
	return 2;
}

/* The options main() reads itself, for the "did you mean" of a typo. */
static const char *const global_options[] = {
	"help", "version", NULL
};

static int unknown_option(const char *arg)
{
	struct suggest sg;
	struct strbuf hint = STRBUF_INIT;
	const char *const *o;

	error("unknown option '%s'", arg);
	suggest_init(&sg, arg + strspn(arg, "-"));
	for (o = global_options; *o; o++)
		suggest_consider(&sg, *o);
	if (suggest_format(&sg, &hint, "--"))
		advise("did you mean %s?", hint.buf);
	else if (find_command(arg + strspn(arg, "-")))
		advise("commands take no dashes: 'ahd-replay %s'",
		       arg + strspn(arg, "-"));
	strbuf_release(&hint);
	fputs(main_usage, stderr);
	return 2;
}

/* A git setting for the hints and colour modules, once libgit2 is up. */
static int read_git_config(struct strbuf *out, const char *key,
			   struct strbuf *err)
{
	return repo_config_here(out, key, 0, err);
}

static int run_command(const struct cmd_struct *cmd, int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	int status;

	if ((cmd->flags & NEED_GIT) && repo_library_init(&err))
		die("%s", err.buf);
	/* the git configuration can be read once libgit2 is up */
	advice_init(cmd->flags & NEED_GIT ? read_git_config : NULL);
	color_init(cmd->flags & NEED_GIT ? read_git_config : NULL);
	status = cmd->fn(argc, argv);
	if (cmd->flags & NEED_GIT)
		repo_library_shutdown();
	return status;
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd_struct *cmd;

	if (argc < 2) {
		print_help(stdout);
		return finish_stdout(0);
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	/* as "<command> -h" does; the command prints its usage and exits */
	return run_command(cmd, 2, (char *[]){ argv[1], "-h", NULL });
}

/* For the completion scripts: every command name, "help" too. */
static int list_cmds(void)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		printf("%s\n", commands[i].name);
	printf("help\n");
	return finish_stdout(0);
}

static int run(int argc, char **argv)
{
	const struct cmd_struct *cmd;
	const char *name;

	if (argc < 2) {
		print_help(stderr);
		return 2;
	}
	name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("ahd-replay %s\n", PACKAGE_VERSION);
		return finish_stdout(0);
	}
	if (!strcmp(name, "--list-cmds"))
		return list_cmds();
	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    !strcmp(name, "help"))
		return cmd_help(argc - 1, argv + 1);
	if (name[0] == '-')
		return unknown_option(name);
	cmd = find_command(name);
	if (!cmd)
		return unknown_command(name);
	return run_command(cmd, argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
#if defined(HAVE_MALLOPT) && defined(M_MXFAST)
	/*
	 * No fastbins in glibc's malloc.  verify's threads each build a
	 * report of some fifty small blocks, and free them in batches once
	 * printed; with fastbins, every file buffer of a kilobyte or more
	 * that follows made malloc merge those chunks back, taking atomic
	 * operations per chunk on two threads.  Without them a freed small
	 * block goes to the thread's cache or straight back to its arena:
	 * about a tenth off a 10,000-report run on two CPUs.
	 */
	mallopt(M_MXFAST, 0);
#endif
	return run(argc, argv);
}
