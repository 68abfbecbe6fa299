/*
 * ahd-replay install-hooks, uninstall-hooks, hooks status: put the
 * pre-commit and pre-push shims (hooks/hooks.h) where git runs hooks
 * from, take them away again, and say what git will actually run.  The
 * decisions and the files are the hooks core's (hooks/hookplan.h,
 * hooks/hookstatus.h); this file reads the command line, refuses a
 * core.hooksPath that is not ours to write to, and prints.
 */
#include "config.h"
#include "builtin.h"
#include "git/hooksdir.h"
#include "hooks/hooklfs.h"
#include "hooks/hookplan.h"
#include "hooks/hooks.h"
#include "hooks/hookstatus.h"
#include "parse-options.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static const char install_hooks_usage_text[] =
	"Installs pre-commit and pre-push hooks where git runs them from; a\n"
	"hook that is already there is kept as <hook>.ahd-replay-prev and runs\n"
	"first, under its own name.  Exit status: 0 when the hooks are in place, 2 when nothing\n"
	"was written (the reasons are printed).\n";

static const char uninstall_hooks_usage_text[] =
	"Removes the hooks install-hooks wrote (only exact copies of them) and\n"
	"puts back the hooks they had moved aside.  Exit status: 0, or 2 when\n"
	"something was left in place (the reasons are printed).\n";

static const char hooks_usage_text[] =
	"Shows the hooks directory git uses and, for each hook, whether git\n"
	"will run ours.  Exit status: 0, 1 when a hook of ours is installed\n"
	"but git will not run it (not executable, shadowed by core.hooksPath,\n"
	"left where no hook manager runs it, its binary gone), 2 on errors.\n";

/* --- shared ---------------------------------------------------------- */

static int resolve_dir(struct hooks_dir *hd)
{
	struct strbuf err = STRBUF_INIT;
	int rc = hooks_dir_resolve(hd, &err);

	if (rc > 0)
		error("not in a git repository");
	else if (rc < 0)
		error("%s", err.buf);
	strbuf_release(&err);
	return rc;
}

static void print_dir(const struct hooks_dir *hd, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;

	fprintf(fp, "hooks directory: %s\n", hd->path.buf);
	if (hd->where != HOOKS_DEFAULT) {
		hooks_dir_describe(&sb, hd);
		fprintf(fp, "  %s\n", sb.buf);
	}
	strbuf_release(&sb);
}

/* --- install-hooks --------------------------------------------------- */

struct install_opts {
	int quiet;
	int force;
	int pre_merge_commit;
	int use_hooks_path;
	const char *print;
};

static int parse_hooks_path(const struct parse_opt *opt, const char *arg)
{
	int *use = opt->value;

	if (!strcmp(arg, "use"))
		*use = 1;
	else if (!strcmp(arg, "refuse"))
		*use = 0;
	else
		return error("--hooks-path takes 'use' or 'refuse', not '%s'",
			     arg);
	return 0;
}

static void parse_install_options(struct install_opts *o, int argc,
				  char **argv)
{
	const struct parse_opt options[] = {
		OPT_BOOL('q', "quiet", &o->quiet, "say nothing but warnings "
			 "and errors"),
		OPT_BOOL(0, "force", &o->force, "replace an edited copy of our "
			 "hook, and discard a <hook>.ahd-replay-prev that is in "
			 "the way"),
		OPT_BOOL(0, "pre-merge-commit", &o->pre_merge_commit, "also "
			 "install pre-merge-commit, which clean merges run "
			 "instead of pre-commit"),
		OPT_CALLBACK(0, "hooks-path", &o->use_hooks_path, "use",
			     "write where core.hooksPath points even when that "
			     "is a tracked directory, outside the repository, "
			     "or husky's", parse_hooks_path),
		OPT_STRING_F(0, "print", &o->print, "<hook>", "print the hook "
			     "instead of installing it", OPT_SPACE_ARG),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"install-hooks", OPERANDS(""), options,
		install_hooks_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc)
		usage_msg_opt(&usage, "unexpected argument '%s'", argv[0]);
	if (o->print && !hook_type_known(o->print))
		usage_msg_opt(&usage, "no hook '%s' (pre-commit, pre-push or "
			      "pre-merge-commit)", o->print);
}

static void hooks_path_refusal(const struct hooks_dir *hd)
{
	struct strbuf desc = STRBUF_INIT;
	const char *why;

	hooks_dir_describe(&desc, hd);
	if (hd->husky)
		why = "is husky's directory, which husky rewrites";
	else if (hd->where == HOOKS_TRACKED)
		why = "is a directory git tracks: hooks written there would "
		      "be committed for everyone, with this machine's path in "
		      "them";
	else
		why = "is outside the repository: hooks written there would "
		      "run for every repository that uses it";
	error("%s\n  '%s' %s", desc.buf, hd->path.buf, why);
	notice("nothing was written.  Add `ahd-replay "
		"hook pre-commit` and `ahd-replay hook pre-push \"$@\"` to the "
		"hooks there\n  (`ahd-replay install-hooks --print <hook>` "
		"prints a complete hook), or\n  write there anyway with "
		"`ahd-replay install-hooks --hooks-path=use`");
	strbuf_release(&desc);
}

static int print_hook(const char *type)
{
	struct strbuf bin = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 2;

	if (hook_self_path(&bin, &err) ||
	    hook_render(&out, type, HOOK_TEMPLATE_VERSION, bin.buf, &err)) {
		error("%s", err.buf);
		goto out;
	}
	fwrite(out.buf, 1, out.len, stdout);
	ret = 0;
out:
	strbuf_release(&bin);
	strbuf_release(&out);
	strbuf_release(&err);
	return finish_stdout(ret);
}

int cmd_install_hooks(int argc, char **argv)
{
	struct install_opts o = { 0, 0, 0, 0, NULL };
	struct hooks_dir hd = HOOKS_DIR_INIT;
	struct strbuf bin = STRBUF_INIT, err = STRBUF_INIT;
	struct hook_plan plans[HOOK_TYPES_NR];
	size_t i, nr = 0;
	int refused, lfs, status = 2;

	parse_install_options(&o, argc, argv);
	if (o.print)
		return print_hook(o.print);
	for (i = 0; i < HOOK_TYPES_NR; i++)
		hook_plan_init(&plans[i], NULL);
	if (resolve_dir(&hd))
		goto out;
	if (hook_self_path(&bin, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (!o.use_hooks_path && (hd.where == HOOKS_TRACKED ||
				  hd.where == HOOKS_OUTSIDE || hd.husky)) {
		hooks_path_refusal(&hd);
		goto out;
	}

	/* Decide everything first. */
	lfs = hook_lfs_wanted(hd.workdir.buf);
	refused = hook_plans_decide(plans, &nr, hd.path.buf, bin.buf,
				    o.pre_merge_commit, o.force, lfs);
	if (refused < 0)
		goto out;
	if (refused) {
		notice("nothing was written");
		goto out;
	}

	/* Then write. */
	if (!o.quiet)
		print_dir(&hd, stdout);
	if (hd.where == HOOKS_TRACKED || hd.where == HOOKS_OUTSIDE || hd.husky) {
		struct strbuf desc = STRBUF_INIT;

		hooks_dir_describe(&desc, &hd);
		warning("writing there as --hooks-path=use asks: %s", desc.buf);
		strbuf_release(&desc);
	}
	status = hook_plans_apply(plans, nr, hd.path.buf, o.quiet) ||
		 (lfs && hook_lfs_install(hd.path.buf, o.quiet)) ? 2 : 0;
	if (hd.where == HOOKS_WORKTREE)
		warning("'%s' is inside the work tree; do not commit these "
			"hooks: they hold this machine's path to ahd-replay",
			hd.path.buf);
out:
	for (i = 0; i < HOOK_TYPES_NR; i++)
		hook_plan_release(&plans[i]);
	strbuf_release(&bin);
	strbuf_release(&err);
	hooks_dir_release(&hd);
	return finish_stdout(status);
}

/* --- uninstall-hooks ------------------------------------------------- */

int cmd_uninstall_hooks(int argc, char **argv)
{
	struct hooks_dir hd = HOOKS_DIR_INIT;
	int status = 2, found = 0, quiet = 0;
	const struct parse_opt options[] = {
		OPT_BOOL('q', "quiet", &quiet, "say nothing but warnings and "
			 "errors"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"uninstall-hooks", OPERANDS(""), options,
		uninstall_hooks_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc)
		usage_msg_opt(&usage, "unexpected argument '%s'", argv[0]);
	if (resolve_dir(&hd))
		goto out;
	status = 0;
	if (hook_uninstall_dir(hd.path.buf, &found, quiet))
		status = 2;
	/* copies that core.hooksPath hides are ours too */
	if (strcmp(hd.path.buf, hd.default_path.buf) &&
	    hook_uninstall_dir(hd.default_path.buf, &found, quiet))
		status = 2;
	if (!found && !quiet)
		printf("no ahd-replay hooks in %s\n", hd.path.buf);
out:
	hooks_dir_release(&hd);
	return finish_stdout(status);
}

/* --- hooks status ---------------------------------------------------- */

static int hooks_status(void)
{
	struct hooks_dir hd = HOOKS_DIR_INIT;
	int status = 2;

	if (resolve_dir(&hd))
		goto out;
	print_dir(&hd, stdout);
	status = hook_status(&hd, stdout);
out:
	hooks_dir_release(&hd);
	return finish_stdout(status);
}

int cmd_hooks(int argc, char **argv)
{
	const struct parse_opt options[] = { OPT_END() };
	const struct cmd_usage usage = {
		"hooks status", OPERANDS(""), options, hooks_usage_text
	};

	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_msg_opt(&usage, "which subcommand?");
	if (strcmp(argv[0], "status"))
		usage_msg_opt(&usage, "unknown subcommand '%s'", argv[0]);
	argc = parse_options(argc, argv, &usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc)
		usage_msg_opt(&usage, "unexpected argument '%s'", argv[0]);
	return hooks_status();
}
