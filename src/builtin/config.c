/*
 * ahd-replay config: check the repository's .ahd-replay.yml, or show
 * the settings in effect and where each comes from.
 *
 * The file is rcfile.c's; this prints.  A setting comes from, in rising
 * precedence, the built-in default, the file, git config and the
 * command line: the same order every command reads them in.
 */
#include "config.h"
#include "builtin.h"
#include "config/rcfile.h"
#include "git/repo.h"
#include "parse-options.h"
#include "quote.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char config_usage_text[] =
	"check: exit 0 when the file is valid (or absent), 1 when it is not\n"
	"(each problem as file:line:column), 2 when it cannot be read.\n"
	"show: the layouts and policy in effect, each with its origin.\n";

struct config_opts {
	const char *root;
	char **sets;		/* --set key=value, as given */
	size_t nr_sets, alloc_sets;
};

static int add_set(const struct parse_opt *opt, const char *arg)
{
	struct config_opts *o = opt->value;

	if (!strchr(arg, '='))
		return error("--set wants <key>=<value>, not '%s'", arg);
	ALLOC_GROW(o->sets, o->nr_sets + 1, o->alloc_sets);
	o->sets[o->nr_sets++] = (char *)arg;
	return 0;
}

/* "file:<path>:<line>", "default", "git config" or "command line". */
static void origin(struct strbuf *out, enum setting_origin o, long line)
{
	switch (o) {
	case ORIGIN_FILE:
		strbuf_addf(out, "file:%s:%ld", RCFILE_NAME, line);
		break;
	case ORIGIN_GIT:
		strbuf_addstr(out, "git config");
		break;
	case ORIGIN_COMMAND_LINE:
		strbuf_addstr(out, "command line");
		break;
	default:
		strbuf_addstr(out, "default");
	}
}

static void show_line(const char *from, const char *key, const char *value)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s\t%s=", from, key);
	quote_escape(&line, value, strlen(value));
	puts(line.buf);
	strbuf_release(&line);
}

static const char *const mode_names[] = {
	"structured", "raw-then-structured", "raw"
};

/* the backfill key, as the file spells it; NULL: none */
static const char *const fill_names[] = {
	NULL, "commit", "hash", "commit, hash"
};

static void show_layouts(const struct rcfile *c)
{
	struct strbuf from = STRBUF_INIT, key = STRBUF_INIT;
	size_t i, j;

	/* AHD's layout is built in, whatever the file says */
	show_line("default", "layout.ahd.records", "**/*.replay.json");
	for (i = 0; i < c->nr; i++) {
		const struct layout *l = &c->layouts[i];

		strbuf_reset(&from);
		origin(&from, ORIGIN_FILE, l->line);
#define SHOW(field, value) do { \
		strbuf_reset(&key); \
		strbuf_addf(&key, "layout.%s.%s", l->name, field); \
		if (value) \
			show_line(from.buf, key.buf, value); \
	} while (0)
		SHOW("records", l->records);
		SHOW("sidecar", l->sidecar);
		SHOW("block", l->block);
		SHOW("commit", l->commit);
		SHOW("command", l->command);
		SHOW("schema", l->schema);
		SHOW("backfill", fill_names[l->fill &
					     (LAYOUT_FILL_COMMIT | LAYOUT_FILL_HASH)]);
		for (j = 0; j < l->nr; j++) {
			const struct layout_input *in = &l->inputs[j];
			struct strbuf f = STRBUF_INIT;

			strbuf_addf(&f, "input.%s.path", in->name);
			SHOW(f.buf, in->path);
			strbuf_reset(&f);
			strbuf_addf(&f, "input.%s.hash", in->name);
			SHOW(f.buf, in->hash);
			strbuf_reset(&f);
			strbuf_addf(&f, "input.%s.mode", in->name);
			SHOW(f.buf, mode_names[in->mode]);
			strbuf_reset(&f);
			strbuf_addf(&f, "input.%s.spelling", in->name);
			SHOW(f.buf, in->spelling == SPELL_HEX ? "hex" :
			     "sha256");
			strbuf_release(&f);
		}
#undef SHOW
	}
	strbuf_release(&from);
	strbuf_release(&key);
}

/* Git config over the file, the command line over both. */
static int resolve_policy(struct rcfile *c, const struct config_opts *o)
{
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT, err = STRBUF_INIT;
	size_t i;
	int k, ret = 0;

	for (k = 0; k < POLICY_NR; k++) {
		struct setting *s = &c->policy[k];

		strbuf_reset(&key);
		strbuf_reset(&val);
		strbuf_addf(&key, "ahd-replay.%s", policy_key_name(k));
		switch (repo_config_here(&val, key.buf, 0, &err)) {
		case 1:
			free(s->value);
			s->value = strbuf_detach(&val, NULL);
			s->origin = ORIGIN_GIT;
			break;
		case -1:
			ret = error("%s", err.buf);
			strbuf_reset(&err);
			break;
		}
		for (i = 0; i < o->nr_sets; i++) {
			const char *eq = strchr(o->sets[i], '=');

			if ((size_t)(eq - o->sets[i]) == key.len - 11 &&
			    !strncmp(o->sets[i], key.buf + 11, key.len - 11)) {
				free(s->value);
				s->value = xstrdup(eq + 1);
				s->origin = ORIGIN_COMMAND_LINE;
			}
		}
	}
	strbuf_release(&key);
	strbuf_release(&val);
	strbuf_release(&err);
	return ret;
}

/*
 * The trust roots the commands read from git config (the file may not
 * name them): shown so that whoever looks for the keys sees where they
 * come from.  Returns 0, or -1 after printing an error.
 */
static int show_trust_roots(void)
{
	static const char *const keys[] = {
		"ahd-replay.trustedKeys", "ahd-replay.allowedSignersFile",
		"ahd-replay.revokedKeysFile", NULL
	};
	struct strbuf val = STRBUF_INIT, err = STRBUF_INIT;
	const char *const *k;
	int ret = 0;

	for (k = keys; *k; k++) {
		strbuf_reset(&val);
		switch (repo_config_here(&val, *k, 0, &err)) {
		case 1:
			show_line("git config", *k, val.buf);
			break;
		case -1:
			ret = error("%s", err.buf);
			strbuf_reset(&err);
			break;
		}
	}
	strbuf_release(&val);
	strbuf_release(&err);
	return ret;
}

static int config_show(struct rcfile *c, const struct config_opts *o)
{
	struct strbuf from = STRBUF_INIT, key = STRBUF_INIT;
	size_t i;
	int k;

	for (i = 0; i < o->nr_sets; i++) {
		const char *eq = strchr(o->sets[i], '=');

		for (k = 0; k < POLICY_NR; k++)
			if (!strncmp(o->sets[i], policy_key_name(k),
				     eq - o->sets[i]) &&
			    !policy_key_name(k)[eq - o->sets[i]])
				break;
		if (k == POLICY_NR) {
			error("--set %s: no such policy key", o->sets[i]);
			return 2;
		}
	}
	if (resolve_policy(c, o))
		return 2;
	show_layouts(c);
	for (k = 0; k < POLICY_NR; k++) {
		const struct setting *s = &c->policy[k];

		if (!s->value)
			continue;
		strbuf_reset(&from);
		strbuf_reset(&key);
		origin(&from, s->origin, s->line);
		strbuf_addf(&key, "ahd-replay.%s", policy_key_name(k));
		show_line(from.buf, key.buf, s->value);
	}
	strbuf_release(&from);
	strbuf_release(&key);
	return show_trust_roots() ? 2 : 0;
}

int cmd_config(int argc, char **argv)
{
	struct config_opts opts = { NULL, NULL, 0, 0 };
	struct rcfile c = RCFILE_INIT;
	struct strbuf top = STRBUF_INIT, err = STRBUF_INIT;
	const struct parse_opt options[] = {
		OPT_STRING(0, "root", &opts.root, "<dir>", "the repository's "
			   "top (default: the work tree around the current "
			   "directory)"),
		OPT_CALLBACK_F(0, "set", &opts, "<key>=<value>", "show: a "
			       "policy setting as the command line gives "
			       "it", OPT_REPEAT, add_set),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"config", OPERANDS("check", "show"), options, config_usage_text
	};
	int ret = 0, rc;

	argc = parse_options(argc, argv, &usage, 0);
	if (argc != 1 || (strcmp(argv[0], "check") && strcmp(argv[0], "show")))
		usage_msg_opt(&usage, "expected check or show");
	if (opts.root)
		strbuf_addstr(&top, opts.root);
	else if (!repo_worktree_of(&top, "."))
		strbuf_addstr(&top, ".");
	rc = rcfile_load(&c, top.buf, &err);
	if (rc) {
		fputs(err.buf, stderr);
		ret = rc == -1 ? 1 : 2;
	} else if (!strcmp(argv[0], "show"))
		ret = config_show(&c, &opts);
	rcfile_release(&c);
	strbuf_release(&top);
	strbuf_release(&err);
	free(opts.sets);
	return finish_stdout(ret);
}
