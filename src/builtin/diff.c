/*
 * ahd-replay diff: two sidecars compared under the field stability table
 * (record/sidecardiff.c); volatile fields are shown only with --all.
 * The two sides (files, or one report at two commits) are loaded by
 * record/sidecardiff-load.c; this file parses the options and prints.
 */
#include "config.h"
#include "builtin.h"
#include "json/jsonout.h"
#include "parse-options.h"
#include "quote.h"
#include "record/sidecardiff.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char diff_usage_text[] =
	"<a> and <b> are reports or sidecars.  Exit status: 0 when every stable\n"
	"field matches, 1 when one differs, 2 on usage errors and unusable input.\n";

struct diff_opts {
	int all;
	int at;
	int allow_outside;
	enum output_format format;
	const char *root;
};

/* --- values as text -------------------------------------------------- */

/*
 * Strings print bare (they are paths, hashes, versions) unless quoting
 * is needed to keep them on one line or tell them from other values.
 */
static void add_value(struct strbuf *out, const struct jval *v)
{
	const char *s;

	if (!v) {
		strbuf_addstr(out, "(absent)");
		return;
	}
	if (jval_is_string(v)) {
		s = jval_string_value(v);
		if (*s && !strpbrk(s, " \t\r\n\"\\") &&
		    strcmp(s, "null") && strcmp(s, "true") &&
		    strcmp(s, "false") && strcmp(s, "(absent)") &&
		    strlen(s) == jval_string_length(v)) {
			size_t i;

			for (i = 0; s[i] && (unsigned char)s[i] >= 0x20 &&
			     s[i] != 0x7f; i++)
				;
			if (!s[i]) {
				strbuf_addstr(out, s);
				return;
			}
		}
	}
	jsonout_write(out, v, JSONOUT_SPACED, 0);
}

/* --- output ---------------------------------------------------------- */

static void print_table(const struct sidecar_diff *d, int stable)
{
	struct strbuf *va, *vb, *vf, na = STRBUF_INIT, nb = STRBUF_INIT;
	size_t i, n = 0, wf = strlen("field"), wa;

	/* Every cell escaped (quote.h): a key or value stays in its cell. */
	quote_escape(&na, d->a->name.buf, d->a->name.len);
	quote_escape(&nb, d->b->name.buf, d->b->name.len);
	wa = na.len;
	va = xcalloc(d->nr, sizeof(*va));
	vb = xcalloc(d->nr, sizeof(*vb));
	vf = xcalloc(d->nr, sizeof(*vf));
	for (i = 0; i < d->nr; i++) {
		struct strbuf raw = STRBUF_INIT;

		if (d->items[i].stable != stable)
			continue;
		strbuf_init(&va[i], 0);
		strbuf_init(&vb[i], 0);
		strbuf_init(&vf[i], 0);
		add_value(&raw, d->items[i].a);
		quote_escape(&va[i], raw.buf, raw.len);
		strbuf_reset(&raw);
		add_value(&raw, d->items[i].b);
		quote_escape(&vb[i], raw.buf, raw.len);
		strbuf_release(&raw);
		quote_escape(&vf[i], d->items[i].field,
			     strlen(d->items[i].field));
		if (vf[i].len > wf)
			wf = vf[i].len;
		if (va[i].len > wa)
			wa = va[i].len;
		n++;
	}
	if (n) {
		printf("  %-*s  %-*s  %s\n", (int)wf, "field", (int)wa,
		       na.buf, nb.buf);
		for (i = 0; i < d->nr; i++)
			if (d->items[i].stable == stable)
				printf("  %-*s  %-*s  %s\n", (int)wf,
				       vf[i].buf, (int)wa, va[i].buf,
				       vb[i].buf);
	}
	for (i = 0; i < d->nr; i++) {
		strbuf_release(&va[i]);
		strbuf_release(&vb[i]);
		strbuf_release(&vf[i]);
	}
	free(va);
	free(vb);
	free(vf);
	strbuf_release(&na);
	strbuf_release(&nb);
}

static void print_count(size_t n, const char *kind)
{
	if (!n)
		printf("%s fields match\n", kind);
	else
		printf("%zu %s %s\n", n, kind,
		       n == 1 ? "field differs" : "fields differ");
}

static void print_text(const struct sidecar_diff *d, const struct diff_opts *opts)
{
	const char *p, *nl;

	print_count(d->nr_stable, "stable");
	print_table(d, 1);
	if (opts->all) {
		print_count(d->nr_volatile, "volatile");
		print_table(d, 0);
	}
	for (p = d->notes.buf; (nl = strchr(p, '\n')); p = nl + 1)
		printf("note: %.*s\n", (int)(nl - p), p);
}

static void print_json(const struct sidecar_diff *d, const struct diff_opts *opts,
		       int status)
{
	struct jval *doc = jval_object(), *list = jval_array(), *notes = jval_array();
	const char *p, *nl;
	size_t i;

	for (i = 0; i < d->nr; i++) {
		const struct diff_item *it = &d->items[i];
		struct jval *o;

		if (!it->stable && !opts->all)
			continue;
		o = jval_object();
		jval_object_set_new(o, "field", jval_string(it->field));
		jval_object_set_new(o, "stable", jval_boolean(it->stable));
		/* An absent value has no key: null is a value of its own. */
		if (it->a)
			jval_object_set(o, "a", it->a);
		if (it->b)
			jval_object_set(o, "b", it->b);
		jval_array_append_new(list, o);
	}
	for (p = d->notes.buf; (nl = strchr(p, '\n')); p = nl + 1)
		jval_array_append_new(notes, jval_stringn(p, (size_t)(nl - p)));
	jval_object_set_new(doc, "version", jval_integer(1));
	jval_object_set_new(doc, "a", jval_string(d->a->name.buf));
	jval_object_set_new(doc, "b", jval_string(d->b->name.buf));
	jval_object_set_new(doc, "stable_fields_match",
			    jval_boolean(!d->nr_stable));
	jval_object_set_new(doc, "stable_differences",
			    jval_integer((int64_t)d->nr_stable));
	jval_object_set_new(doc, "volatile_differences",
			    jval_integer((int64_t)d->nr_volatile));
	jval_object_set_new(doc, "differences", list);
	jval_object_set_new(doc, "notes", notes);
	jval_object_set_new(doc, "exit_status", jval_integer(status));
	jsonout_print(doc);
	jval_decref(doc);
}

/* --- driver ---------------------------------------------------------- */

int cmd_diff(int argc, char **argv)
{
	struct diff_opts opts = { 0, 0, 0, FORMAT_TEXT, NULL };
	struct diff_side a, b;
	struct sidecar_diff d;
	int status = 2;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "all", &opts.all, "also show volatile fields that "
			 "differ (invoked_at, argv, node_version, platform, "
			 "git_dirty, request ids, unknown fields)"),
		OPT_FORMAT(&opts.format, 0, "text (default) or json"),
		OPT_STRING(0, "root", &opts.root, "<dir>", "recorded paths "
			   "are relative to <dir>"),
		OPT_BOOL_F(0, "at", &opts.at, "compare <report>'s sidecar at "
			   "two commits", OPT_NO_SYNOPSIS),
		OPT_BOOL(0, "allow-outside-root", &opts.allow_outside, "read a "
			 "sidecar that a symlink leads out of the root"),
		OPT_END()
	};
	const struct cmd_usage usage = {
		"diff", OPERANDS("<a> <b>", "--at <rev1> <rev2> <report>"),
		options, diff_usage_text
	};

	argc = parse_options(argc, argv, &usage, 0);
	if (argc != (opts.at ? 3 : 2))
		usage_msg_opt(&usage, opts.at ?
			      "--at wants <rev1> <rev2> <report>" :
			      "diff wants two reports or sidecars");
	diff_side_init(&a);
	diff_side_init(&b);
	sidecar_diff_init(&d);
	if (!(opts.at ? diff_sides_load_at(&a, &b, argv[0], argv[1], argv[2],
					   opts.root) :
	      diff_sides_load_files(&a, &b, argv[0], argv[1], opts.root,
				    opts.allow_outside))) {
		sidecar_diff_compute(&d, &a, &b);
		status = d.nr_stable ? 1 : 0;
		if (opts.format == FORMAT_JSON)
			print_json(&d, &opts, status);
		else
			print_text(&d, &opts);
	}
	sidecar_diff_release(&d);
	diff_side_release(&a);
	diff_side_release(&b);
	return finish_stdout(status);
}
