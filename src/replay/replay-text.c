/*
 * What `replay` prints for a person: the worktree made, where each input
 * came from, the command, and after a run the stable fields compared.
 */
#include "config.h"
#include "replay.h"
#include "json/jsonout.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static void add_line(struct strbuf *out, const char *label, const char *s)
{
	strbuf_addf(out, "  %-9s ", label);
	strbuf_add_printable(out, s);
	strbuf_addch(out, '\n');
}

/* commit: what the run's commit is called ("ahd_commit") */
static void material_text(struct strbuf *out, const struct replay_material *m,
			  const char *commit)
{
	/* a layout's input name comes from the record: escaped */
	strbuf_addstr(out, "  ");
	strbuf_add_printable(out, m->kind);
	strbuf_addf(out, "%*s", strlen(m->kind) < 9 ?
		    (int)(10 - strlen(m->kind)) : 1, "");
	strbuf_add_printable(out, m->path.buf);
	switch (m->source) {
	case MATERIAL_AT_COMMIT:
		if (m->user_changed)
			strbuf_addf(out, "  restored from history: the version "
				    "at %s (the work tree's copy changed "
				    "since)\n", commit);
		else
			strbuf_addf(out, "  as %s has it\n", commit);
		break;
	case MATERIAL_HISTORY:
		strbuf_addstr(out, "  restored from history: ");
		strbuf_add_printable(out, m->commit_text.buf);
		strbuf_addch(out, '\n');
		break;
	case MATERIAL_OVERRIDE:
		strbuf_addf(out, "  overridden: %s -> %s\n", m->recorded,
			    m->sha256.buf);
		break;
	case MATERIAL_MISSING:
		strbuf_addstr(out, "  not restored\n");
		break;
	}
}

void replay_print_ready(const struct replay *rp, enum replay_mode mode,
			const char *receipt)
{
	struct strbuf out = STRBUF_INIT, cmd = STRBUF_INIT;
	int i;

	strbuf_addstr(&out, "replay ");
	strbuf_add_printable(&out, rp->report.buf);
	strbuf_addf(&out, " at %.12s (%s)\n", rp->commit,
		    mode == REPLAY_EXACT ? "exact" : "with overrides");
	add_line(&out, "worktree", rp->wt.path.buf);
	for (i = 0; i < rp->nr_materials; i++)
		material_text(&out, &rp->materials[i], rp->layout ?
			      "the record's commit" : "ahd_commit");
	if (receipt)
		add_line(&out, "receipt", receipt);
	replay_command_text(&cmd, rp);
	add_line(&out, "command", cmd.len ? cmd.buf :
		 "(none recorded: a backfilled report can be verified, not "
		 "re-issued)");
	if (rp->notes.len)
		strbuf_addf(&out, "\n%s", rp->notes.buf);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	strbuf_release(&cmd);
}

struct jval *replay_stable_json(const struct sidecar_diff *d)
{
	struct jval *changed = jval_array();
	size_t i;

	if (!changed)
		die("out of memory");
	for (i = 0; i < d->nr; i++)
		if (d->items[i].stable &&
		    jval_array_append_new(changed,
					  jsonout_text(d->items[i].field)))
			die("out of memory");
	return changed;
}

void replay_print_compare(const struct sidecar_diff *d)
{
	size_t i;

	if (!d->nr_stable) {
		printf("\nstable fields: all held\n");
		return;
	}
	printf("\nstable fields: %zu changed\n", d->nr_stable);
	for (i = 0; i < d->nr; i++)
		if (d->items[i].stable) {
			struct strbuf f = STRBUF_INIT;

			strbuf_add_printable(&f, d->items[i].field);
			printf("  changed  %s\n", f.buf);
			strbuf_release(&f);
		}
}

void replay_print_uncompared(const struct replay *rp)
{
	printf("\n%s: no stable fields to compare\n", rp->layout ?
	       "only AHD's sidecar has a field stability table" :
	       "the command wrote no new sidecar for this report");
}
