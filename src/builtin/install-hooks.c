/*
 * ahd-replay install-hooks, uninstall-hooks, hooks status: put the
 * pre-commit and pre-push shims (src/hooks.c) where git runs hooks from,
 * take them away again, and say what git will actually run.
 *
 * A hook that is not ours is never overwritten: install moves it aside
 * to <hook>.ahd-replay-prev, which the shim runs first under its own
 * name, and uninstall
 * renames it back, so it returns byte for byte with its mode.  A file is
 * ours only when it is exactly one of our templates.  install decides
 * everything before it writes anything, so a refusal leaves the hooks
 * directory as it was.
 */
#include "config.h"
#include "builtin.h"
#include "hooks/hookplan.h"
#include "hooks/hooks.h"
#include "git/hooksdir.h"
#include "hooks/hookreport.h"
#include "parse-options.h"
#include "usage.h"

#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	fprintf(stderr, "ahd-replay: nothing was written.  Add `ahd-replay "
		"hook pre-commit` and `ahd-replay hook pre-push \"$@\"` to the "
		"hooks there\n  (`ahd-replay install-hooks --print <hook>` "
		"prints a complete hook), or\n  write there anyway with "
		"`ahd-replay install-hooks --hooks-path=use`\n");
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
	struct install_opts o = { 0, 0, 0, NULL };
	struct hooks_dir hd = HOOKS_DIR_INIT;
	struct strbuf bin = STRBUF_INIT, err = STRBUF_INIT;
	struct hook_plan plans[HOOK_TYPES_NR];
	size_t i, nr = 0;
	int refused, status = 2;

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
	refused = hook_plans_decide(plans, &nr, hd.path.buf, bin.buf,
				    o.pre_merge_commit, o.force);
	if (refused < 0)
		goto out;
	if (refused) {
		fprintf(stderr, "ahd-replay: nothing was written\n");
		goto out;
	}

	/* Then write. */
	print_dir(&hd, stdout);
	if (hd.where == HOOKS_TRACKED || hd.where == HOOKS_OUTSIDE || hd.husky) {
		struct strbuf desc = STRBUF_INIT;

		hooks_dir_describe(&desc, &hd);
		warning("writing there as --hooks-path=use asks: %s", desc.buf);
		strbuf_release(&desc);
	}
	status = hook_plans_apply(plans, nr, hd.path.buf) ? 2 : 0;
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
	int status = 2, found = 0;
	const struct parse_opt options[] = { OPT_END() };
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
	if (hook_uninstall_dir(hd.path.buf, &found))
		status = 2;
	/* copies that core.hooksPath hides are ours too */
	if (strcmp(hd.path.buf, hd.default_path.buf) &&
	    hook_uninstall_dir(hd.default_path.buf, &found))
		status = 2;
	if (!found)
		printf("no ahd-replay hooks in %s\n", hd.path.buf);
out:
	hooks_dir_release(&hd);
	return finish_stdout(status);
}

/* --- hooks status ---------------------------------------------------- */

/*
 * Would the shim in hf find a binary?  Returns the one it would run in
 * out, or 0 when it would fail closed.
 */
static int shim_binary(struct strbuf *out, const struct hook_file *hf)
{
	struct stat st;

	if (hf->kind == HOOK_OURS && !stat(hf->bin.buf, &st) &&
	    S_ISREG(st.st_mode) && !access(hf->bin.buf, X_OK)) {
		strbuf_reset(out);
		strbuf_addbuf(out, &hf->bin);
		return 1;
	}
	return hook_find_on_path(out, "ahd-replay");
}

static const char *kind_text(const struct hook_file *hf, struct strbuf *sb)
{
	const char *m = hook_manager_name(hf->manager);

	strbuf_reset(sb);
	switch (hf->kind) {
	case HOOK_OURS:
		strbuf_addf(sb, "ahd-replay hook, template %d%s", hf->version,
			    hf->version < HOOK_TEMPLATE_VERSION ?
			    " (install-hooks upgrades it)" : "");
		break;
	case HOOK_OURS_NEWER:
		strbuf_addf(sb, "ahd-replay hook from a newer version, "
			    "template %d", hf->version);
		break;
	case HOOK_OURS_EDITED:
		strbuf_addstr(sb, "an edited copy of an ahd-replay hook");
		break;
	case HOOK_FOREIGN:
		strbuf_addf(sb, "%s%s%s", hf->symlink ? "a symbolic link" :
			    "a hook", m ? " of " : " not from ahd-replay",
			    m ? m : "");
		break;
	case HOOK_NOT_FILE:
		strbuf_addstr(sb, "not a file");
		break;
	case HOOK_MISSING:
		strbuf_addstr(sb, "missing");
		break;
	}
	if (hf->kind != HOOK_MISSING && hf->kind != HOOK_NOT_FILE &&
	    !hf->executable)
		strbuf_addstr(sb, ", not executable");
	return sb->buf;
}

static int is_ours(const struct hook_file *hf)
{
	return hf->kind == HOOK_OURS || hf->kind == HOOK_OURS_NEWER ||
	       hf->kind == HOOK_OURS_EDITED;
}

/*
 * One hook type: print its state and details.  Returns 1 when a copy of
 * ours is installed but will not run, else 0.
 */
static int status_one(const struct hooks_dir *hd, const char *type,
		      struct strbuf *err)
{
	struct hook_slots s, d;
	struct strbuf state = STRBUF_INIT, details = STRBUF_INIT;
	struct strbuf sb = STRBUF_INIT, bin = STRBUF_INIT;
	const struct hook_file *runner = NULL;	/* the copy of ours git runs */
	const char *runner_path = NULL;
	int installed = 0, ret = -1;

	hook_slots_init(&s);
	hook_slots_init(&d);
	if (hook_slots_read(&s, hd->path.buf, type, err))
		goto out;
	if (strcmp(hd->path.buf, hd->default_path.buf) &&
	    hook_slots_read(&d, hd->default_path.buf, type, err))
		goto out;

	if (s.h.kind != HOOK_MISSING)
		strbuf_addf(&details, "  %s: %s\n", s.hook.buf,
			    kind_text(&s.h, &sb));
	if (is_ours(&s.h)) {
		installed = 1;
		if (s.h.executable) {
			runner = &s.h;
			runner_path = s.hook.buf;
		} else
			strbuf_addstr(&state, "inert: not executable");
	} else if (is_ours(&s.l)) {
		installed = 1;
		strbuf_addf(&details, "  %s: %s\n", s.legacy.buf,
			    kind_text(&s.l, &sb));
		if (s.h.kind != HOOK_FOREIGN ||
		    s.h.manager != MANAGER_PRE_COMMIT)
			strbuf_addf(&state, "inert: nothing runs %s",
				    hook_base_name(s.legacy.buf));
		else if (!s.h.executable || !s.l.executable)
			strbuf_addstr(&state, "inert: not executable");
		else {
			runner = &s.l;
			runner_path = s.legacy.buf;
		}
	}
	if (!runner && is_ours(&s.o)) {
		installed = 1;
		strbuf_addf(&details, "  %s: %s\n", s.old.buf,
			    kind_text(&s.o, &sb));
		if (!state.len)
			strbuf_addf(&state, "inert: %s does not run %s "
				    "(install-hooks puts ours in front)",
				    s.h.manager == MANAGER_LEFTHOOK ?
				    "lefthook" : "git", hook_base_name(s.old.buf));
	}
	if (is_ours(&d.h)) {
		installed = 1;
		strbuf_addf(&details, "  %s: %s, shadowed: git runs hooks "
			    "from %s\n", d.hook.buf, kind_text(&d.h, &sb),
			    hd->path.buf);
		if (!state.len && !runner) {
			strbuf_reset(&sb);
			hooks_dir_describe(&sb, hd);
			strbuf_addf(&state, "inert: shadowed by %s", sb.buf);
		}
	}
	if (s.p.kind != HOOK_MISSING)
		strbuf_addf(&details, "  %s: %s%s\n", s.prev.buf,
			    kind_text(&s.p, &sb), runner ?
			    (s.p.executable ? "; runs first" :
			     "; skipped, as git would skip it") :
			    "; left by an install (uninstall-hooks puts it back)");

	if (runner) {
		if (runner->kind == HOOK_OURS && !shim_binary(&bin, runner)) {
			strbuf_addf(&state, "broken: %s is missing and "
				    "ahd-replay is not on PATH, so the hook "
				    "refuses every %s", runner->bin.buf,
				    strcmp(type, "pre-push") ? "commit" :
				    "push");
		} else {
			strbuf_addstr(&state, "active");
			if (runner->kind == HOOK_OURS)
				strbuf_addf(&details, "  runs: %s hook %s\n",
					    bin.buf, type);
			if (runner_path == s.legacy.buf)
				strbuf_addstr(&details, "  run by the pre-commit "
					      "framework's hook\n");
		}
	} else if (!installed) {
		const char *m = hook_manager_name(s.h.manager);

		if (s.h.kind == HOOK_MISSING)
			strbuf_addstr(&state, "not installed");
		else
			strbuf_addf(&state, "not installed (git runs %s)",
				    m ? m : "another hook");
	}
	printf("%s: %s\n%s", type, state.buf, details.buf);
	ret = installed && strcmp(state.buf, "active");
out:
	hook_slots_release(&s);
	hook_slots_release(&d);
	strbuf_release(&state);
	strbuf_release(&details);
	strbuf_release(&sb);
	strbuf_release(&bin);
	return ret;
}

static int hooks_status(void)
{
	struct hooks_dir hd = HOOKS_DIR_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int status = 2;

	if (resolve_dir(&hd))
		goto out;
	print_dir(&hd, stdout);
	hooks_report(&hd, hook_types, stdout);
	status = 0;
	for (i = 0; hook_types[i]; i++) {
		int rc = status_one(&hd, hook_types[i], &err);

		if (rc < 0) {
			error("%s", err.buf);
			strbuf_reset(&err);
			status = 2;
		} else if (rc && status == 0)
			status = 1;
	}
out:
	strbuf_release(&err);
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
