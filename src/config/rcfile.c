/*
 * .ahd-replay.yml: read it, refuse what it must not say (rcfile.h).
 *
 * The YAML loader gives the value tree and where each node starts
 * (yl_load_marked()), so every refusal names the line and column of the
 * key or value at fault: the file is the team's, and its errors should
 * be as easy to fix as a compiler's.
 */
#include "config.h"
#include "rcfile.h"
#include "fs/readfile.h"
#include "git/repo.h"
#include "record/require-sidecar.h"
#include "usage.h"
#include "yaml/yamlload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The file is small; anything bigger is not one. */
#define RCFILE_MAX_SIZE (1024 * 1024)

static const char *const policy_names[POLICY_NR] = {
	"requireSidecar", "strict", "requireSignature", "cache",
};

/*
 * The trust roots: refused by name, so that whoever moved one here from
 * git config learns where it belongs.
 */
static const char *const trust_roots[] = {
	"trustedKeys", "allowedSignersFile", "revokedKeysFile", "trustedRefs",
	NULL
};

const char *policy_key_name(enum policy_key k)
{
	return policy_names[k];
}

struct reader {
	const char *file;	/* as shown */
	const char *text;
	size_t len;
	struct yl_marks marks;
	struct strbuf *err;
	int bad;
};

/* "file:line:column: " for node v, then the message, one per line. */
static void fail(struct reader *rd, const struct value *v, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));
static void fail(struct reader *rd, const struct value *v, const char *fmt,
		 ...)
{
	size_t at = 0, i, line = 1, col = 1;
	va_list ap;

	for (i = 0; v && i < rd->marks.nr; i++)
		if (rd->marks.items[i].node == v) {
			at = rd->marks.items[i].at;
			break;
		}
	for (i = 0; i < at && i < rd->len; i++) {
		if (rd->text[i] == '\n') {
			line++;
			col = 1;
		} else if ((rd->text[i] & 0xC0) != 0x80)
			col++;
	}
	strbuf_addf(rd->err, "%s:%zu:%zu: ", rd->file, line, col);
	va_start(ap, fmt);
	strbuf_vaddf(rd->err, fmt, ap);
	va_end(ap);
	strbuf_addch(rd->err, '\n');
	rd->bad = 1;
}

static long line_of(struct reader *rd, const struct value *v)
{
	size_t i, at = 0;
	long line = 1;

	for (i = 0; i < rd->marks.nr; i++)
		if (rd->marks.items[i].node == v) {
			at = rd->marks.items[i].at;
			break;
		}
	for (i = 0; i < at && i < rd->len; i++)
		line += rd->text[i] == '\n';
	return line;
}

/* A string scalar, copied; NULL (after saying why) for anything else. */
static char *string_of(struct reader *rd, const struct value *v,
		       const char *key)
{
	v = value_deref(v);
	if (v->kind == VALUE_STRING && v->u.str.len &&
	    !memchr(v->u.str.ptr, '\0', v->u.str.len))
		return xmemdupz(v->u.str.ptr, v->u.str.len);
	fail(rd, v, "'%s' wants a non-empty string", key);
	return NULL;
}

/* Does rel, a '/'-separated relative path or glob, stay inside the top? */
static int stays_inside(const char *rel)
{
	int depth = 0;
	const char *p = rel;

	if (*rel == '/')
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2)) {
			if (--depth < 0)
				return 0;
		} else if (n && !(n == 1 && *p == '.'))
			depth++;
		p += n + !!p[n];
	}
	return 1;
}

static void check_glob(struct reader *rd, const struct value *v,
		       const char *glob)
{
	const char *p;
	int open = 0;

	if (!stays_inside(glob)) {
		fail(rd, v, "glob '%s' leads outside the repository", glob);
		return;
	}
	for (p = glob; *p; p++) {
		if (*p == '\\' && !p[1])
			fail(rd, v, "glob '%s' ends in a lone backslash", glob);
		else if (*p == '\\')
			p++;
		else if (*p == '[')
			open = 1;
		else if (*p == ']')
			open = 0;
	}
	if (open)
		fail(rd, v, "glob '%s' has an unclosed '['", glob);
}

static void check_path(struct reader *rd, const struct value *v,
		       const char *key, const char *path)
{
	if (!stays_inside(path))
		fail(rd, v, "'%s' path '%s' leads outside the repository", key,
		     path);
}

/* A layout's sidecar pattern (record/layout.h). */
static void check_sidecar(struct reader *rd, const struct value *v,
			  const char *pattern)
{
	struct strbuf why = STRBUF_INIT;

	if (layout_sidecar_check(pattern, &why))
		fail(rd, v, "'sidecar' pattern '%s' %s", pattern, why.buf);
	strbuf_release(&why);
}

/* RFC 6901, with '*' standing for every member. */
static void check_pointer(struct reader *rd, const struct value *v,
			  const char *key, const char *ptr)
{
	const char *p;

	if (*ptr != '/') {
		fail(rd, v, "'%s' wants a JSON Pointer (\"/a/b\"), not '%s'",
		     key, ptr);
		return;
	}
	for (p = ptr; *p; p++)
		if (*p == '~' && p[1] != '0' && p[1] != '1') {
			fail(rd, v, "'%s' pointer '%s': '~' must be followed "
			     "by 0 or 1", key, ptr);
			return;
		}
}

static const struct value *map_key(const struct value *m, size_t i,
				   const char **name)
{
	const struct value *k = value_deref(m->u.items[2 * i]);

	*name = k->kind == VALUE_STRING ? k->u.str.ptr : "";
	return k;
}

static int is_map(struct reader *rd, const struct value *v, const char *what)
{
	v = value_deref(v);
	if (v->kind == VALUE_MAP)
		return 1;
	fail(rd, v, "%s wants a mapping", what);
	return 0;
}

static void read_input(struct reader *rd, struct layout *lay,
		       const struct value *m)
{
	struct layout_input *in;
	size_t i;

	if (!is_map(rd, m, "an input"))
		return;
	m = value_deref(m);
	ALLOC_GROW(lay->inputs, lay->nr + 1, lay->alloc);
	in = &lay->inputs[lay->nr++];
	memset(in, 0, sizeof(*in));
	in->mode = PIN_STRUCTURED;
	for (i = 0; i < m->nr; i++) {
		const char *k;
		const struct value *kv = map_key(m, i, &k);
		const struct value *v = value_deref(m->u.items[2 * i + 1]);
		char **slot = !strcmp(k, "name") ? &in->name :
			      !strcmp(k, "path") ? &in->path :
			      !strcmp(k, "hash") ? &in->hash :
			      !strcmp(k, "label") ? &in->label : NULL;
		char *s;

		if (!slot && strcmp(k, "mode") && strcmp(k, "spelling")) {
			fail(rd, kv, "unknown key '%s' in an input", k);
			continue;
		}
		if (!(s = string_of(rd, v, k)))
			continue;
		if (slot) {
			free(*slot);
			*slot = s;
			if (slot != &in->name)
				check_pointer(rd, v, k, s);
			continue;
		}
		if (!strcmp(k, "mode") && !strcmp(s, "structured"))
			in->mode = PIN_STRUCTURED;
		else if (!strcmp(k, "mode") && !strcmp(s, "raw"))
			in->mode = PIN_RAW;
		else if (!strcmp(k, "mode") && !strcmp(s, "raw-then-structured"))
			in->mode = PIN_RAW_THEN_STRUCTURED;
		else if (!strcmp(k, "mode"))
			fail(rd, v, "mode '%s': structured, raw or "
			     "raw-then-structured", s);
		else if (!strcmp(s, "sha256"))
			in->spelling = SPELL_PREFIXED;
		else if (!strcmp(s, "hex"))
			in->spelling = SPELL_HEX;
		else
			fail(rd, v, "spelling '%s': sha256 (sha256:<hex>) or "
			     "hex (bare hex)", s);
		free(s);
	}
	if (!in->name || !in->path || !in->hash)
		fail(rd, m, "an input wants 'name', 'path' and 'hash'");
}

/*
 * backfill: the fields backfill may fill, a list of "commit" and "hash".
 * Returns the node to name when the fields cannot be filled (checked
 * once the whole layout is read), or NULL.
 */
static const struct value *read_fill(struct reader *rd, struct layout *lay,
				     const struct value *v)
{
	size_t i;

	if (v->kind != VALUE_SEQ || !v->nr) {
		fail(rd, v, "'backfill' wants a list of fields: commit, hash");
		return NULL;
	}
	for (i = 0; i < v->nr; i++) {
		char *s = string_of(rd, v->u.items[i], "backfill");

		if (s && !strcmp(s, "commit"))
			lay->fill |= LAYOUT_FILL_COMMIT;
		else if (s && !strcmp(s, "hash"))
			lay->fill |= LAYOUT_FILL_HASH;
		else if (s)
			fail(rd, v->u.items[i], "backfill field '%s': commit "
			     "or hash", s);
		free(s);
	}
	return v;
}

static size_t count_stars(const char *ptr)
{
	size_t n = 0;

	for (; (ptr = strstr(ptr, "/*")); ptr += 2)
		n += ptr[2] == '/' || !ptr[2];
	return n;
}

/*
 * What backfill fills must be one place per record: the commit pointer
 * without '*', and each hash beside its path (as many '*'s, each taking
 * the member the path's took).
 */
static void check_fill(struct reader *rd, const struct layout *lay,
		       const struct value *v)
{
	size_t i;

	if ((lay->fill & LAYOUT_FILL_COMMIT) && !lay->commit)
		fail(rd, v, "backfill of the commit needs the layout's "
		     "'commit' pointer");
	else if ((lay->fill & LAYOUT_FILL_COMMIT) && count_stars(lay->commit))
		fail(rd, v, "backfill of the commit needs a 'commit' pointer "
		     "without '*', not '%s'", lay->commit);
	for (i = 0; (lay->fill & LAYOUT_FILL_HASH) && i < lay->nr; i++) {
		const struct layout_input *in = &lay->inputs[i];

		if (in->path && in->hash &&
		    count_stars(in->path) != count_stars(in->hash))
			fail(rd, v, "backfill of input '%s': its 'hash' "
			     "pointer '%s' must have as many '*' as its "
			     "'path' '%s'", in->name ? in->name : "",
			     in->hash, in->path);
	}
}

static void read_layout(struct reader *rd, struct rcfile *c,
			const struct value *m)
{
	struct layout *lay;
	const struct value *fill = NULL;
	size_t i, j;

	if (!is_map(rd, m, "a layout"))
		return;
	m = value_deref(m);
	ALLOC_GROW(c->layouts, c->nr + 1, c->alloc);
	lay = &c->layouts[c->nr++];
	memset(lay, 0, sizeof(*lay));
	lay->line = line_of(rd, m);
	for (i = 0; i < m->nr; i++) {
		const char *k;
		const struct value *kv = map_key(m, i, &k);
		const struct value *v = value_deref(m->u.items[2 * i + 1]);
		char **slot = !strcmp(k, "name") ? &lay->name :
			      !strcmp(k, "records") ? &lay->records :
			      !strcmp(k, "sidecar") ? &lay->sidecar :
			      !strcmp(k, "block") ? &lay->block :
			      !strcmp(k, "commit") ? &lay->commit :
			      !strcmp(k, "command") ? &lay->command :
			      !strcmp(k, "schema") ? &lay->schema : NULL;

		if (!strcmp(k, "inputs")) {
			if (v->kind != VALUE_SEQ || !v->nr) {
				fail(rd, v, "'inputs' wants a list of inputs");
				continue;
			}
			for (j = 0; j < v->nr; j++)
				read_input(rd, lay, v->u.items[j]);
			continue;
		}
		if (!strcmp(k, "backfill")) {
			fill = read_fill(rd, lay, v);
			continue;
		}
		if (!slot) {
			fail(rd, kv, "unknown key '%s' in a layout", k);
			continue;
		}
		free(*slot);
		if (!(*slot = string_of(rd, v, k)))
			continue;
		if (slot == &lay->records)
			check_glob(rd, v, *slot);
		else if (slot == &lay->sidecar)
			check_sidecar(rd, v, *slot);
		else if (slot == &lay->block) {
			if (strcmp(*slot, LAYOUT_BLOCK_INPUTS))
				fail(rd, v, "'block' '%s': the one derived "
				     "block is '" LAYOUT_BLOCK_INPUTS "' "
				     "(ahd-replay-config(5))", *slot);
		}
		else if (slot == &lay->schema)
			check_path(rd, v, k, *slot);
		else if (slot != &lay->name)
			check_pointer(rd, v, k, *slot);
	}
	if (!lay->name || !lay->records || !lay->nr)
		fail(rd, m, "a layout wants 'name', 'records' and 'inputs'");
	if (fill)
		check_fill(rd, lay, fill);
	if (lay->block && !lay->sidecar)
		fail(rd, m, "'block' needs 'sidecar': a record that is its own "
		     "JSON has no report to carry a block");
}

/* A policy value: a boolean, or (requireSidecar) a glob or a list. */
static void read_policy_value(struct reader *rd, struct setting *s,
			      enum policy_key k, const struct value *v)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name = policy_names[k];
	size_t i;

	if (k != POLICY_REQUIRE_SIDECAR) {
		if (v->kind != VALUE_BOOL) {
			fail(rd, v, "'%s' wants true or false", name);
			goto out;
		}
		strbuf_addstr(&sb, v->u.boolean ? "true" : "false");
	} else if (v->kind == VALUE_SEQ) {
		for (i = 0; i < v->nr; i++) {
			char *one = string_of(rd, v->u.items[i], name);

			if (!one)
				continue;
			check_glob(rd, v->u.items[i], one);
			strbuf_addf(&sb, "%s%s", sb.len ? "\n" : "", one);
			free(one);
		}
	} else {
		char *one = string_of(rd, v, name);

		if (!one)
			goto out;
		check_glob(rd, v, one);
		strbuf_addstr(&sb, one);
		free(one);
	}
	free(s->value);
	s->value = strbuf_detach(&sb, NULL);
	s->origin = ORIGIN_FILE;
	s->line = line_of(rd, v);
out:
	strbuf_release(&sb);
}

/* Is name a trust root, which the file may not set? */
static int is_trust_root(const char *name)
{
	const char *const *r;

	for (r = trust_roots; *r; r++)
		if (!strcmp(name, *r))
			return 1;
	return 0;
}

static void read_policy(struct reader *rd, struct rcfile *c,
			const struct value *m)
{
	size_t i;
	int k;

	if (!is_map(rd, m, "'policy'"))
		return;
	m = value_deref(m);
	for (i = 0; i < m->nr; i++) {
		const char *name;
		const struct value *kv = map_key(m, i, &name);

		for (k = 0; k < POLICY_NR; k++)
			if (!strcmp(name, policy_names[k]))
				break;
		if (k == POLICY_NR && is_trust_root(name))
			fail(rd, kv, "'%s' is refused: a file the change "
			     "itself can edit cannot name whom to trust; set "
			     "it in git config or on the command line", name);
		else if (k == POLICY_NR && !strcmp(name, "root"))
			fail(rd, kv, "'root' is refused: the root decides where "
			     "recorded paths lead, and a change that could move "
			     "it could point them at copies; set ahd-replay.root "
			     "in git config");
		else if (k == POLICY_NR)
			fail(rd, kv, "unknown policy key '%s'", name);
		else
			read_policy_value(rd, &c->policy[k], k,
					  value_deref(m->u.items[2 * i + 1]));
	}
}

static void read_top(struct reader *rd, struct rcfile *c,
		     const struct value *root)
{
	size_t i, j;

	if (!is_map(rd, root, "the file"))
		return;
	root = value_deref(root);
	for (i = 0; i < root->nr; i++) {
		const char *k;
		const struct value *kv = map_key(root, i, &k);
		const struct value *v = value_deref(root->u.items[2 * i + 1]);

		if (!strcmp(k, "version")) {
			if (v->kind != VALUE_NUMBER || v->u.number != 1)
				fail(rd, v, "'version' must be 1");
		} else if (!strcmp(k, "layouts")) {
			if (v->kind != VALUE_SEQ) {
				fail(rd, v, "'layouts' wants a list");
				continue;
			}
			for (j = 0; j < v->nr; j++)
				read_layout(rd, c, v->u.items[j]);
		} else if (!strcmp(k, "policy"))
			read_policy(rd, c, v);
		else
			fail(rd, kv, "unknown key '%s'", k);
	}
	for (i = 0; i < c->nr; i++)
		for (j = 0; j < i; j++)
			if (c->layouts[i].name && c->layouts[j].name &&
			    !strcmp(c->layouts[i].name, c->layouts[j].name))
				strbuf_addf(rd->err, "%s:%ld:1: a second layout "
					    "named '%s'\n", rd->file,
					    c->layouts[i].line,
					    c->layouts[i].name), rd->bad = 1;
}

/*
 * The loader's message ends "(line L, column C)": said as every other
 * problem of the file is, "file:L:C: message".
 */
static void loader_error(struct strbuf *err, const char *file,
			 const struct strbuf *why)
{
	const char *at = strstr(why->buf, " (line ");
	unsigned long line, col;
	int n = 0;

	if (at && sscanf(at, " (line %lu, column %lu)%n", &line, &col, &n) == 2 &&
	    !at[n]) {
		strbuf_addf(err, "%s:%lu:%lu: ", file, line, col);
		strbuf_add(err, why->buf, at - why->buf);
	} else
		strbuf_addf(err, "%s: %s", file, why->buf);
	strbuf_addch(err, '\n');
}

int rcfile_load(struct rcfile *out, const char *top, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf file = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&file, "%s/%s", top, RCFILE_NAME);
	if (access(file.buf, F_OK) && errno == ENOENT) {
		strbuf_addstr(&out->top, top);
		goto out;
	}
	if (read_file_limited(&text, file.buf, RCFILE_MAX_SIZE, &why)) {
		strbuf_addstr(&out->top, top);
		strbuf_addbuf(&out->file, &file);
		strbuf_addf(err, "%s: %s\n", file.buf, why.buf);
		ret = -2;
		goto out;
	}
	ret = rcfile_parse(out, top, file.buf, text.buf, text.len, err);
out:
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&file);
	return ret;
}

int rcfile_parse(struct rcfile *out, const char *top, const char *file,
		 const char *text, size_t len, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct arena arena = ARENA_INIT;
	struct reader rd;
	struct value *root;
	int ret = 0;

	memset(&rd, 0, sizeof(rd));
	strbuf_addstr(&out->top, top);
	strbuf_addstr(&out->file, file);
	rd.file = out->file.buf;
	rd.text = text;
	rd.len = len;
	rd.err = err;
	if (len > RCFILE_MAX_SIZE) {
		strbuf_addf(err, "%s: larger than %d bytes\n", file,
			    RCFILE_MAX_SIZE);
		ret = -1;
		goto out;
	}
	if (yl_load_marked(&root, &arena, text, len, &rd.marks, &why)) {
		loader_error(err, out->file.buf, &why);
		ret = -1;
		goto out;
	}
	read_top(&rd, out, root);
	if (rd.bad)
		ret = -1;
out:
	free(rd.marks.items);
	arena_release(&arena);
	strbuf_release(&why);
	return ret;
}

int rcfile_here(struct rcfile *out, const char *root)
{
	struct strbuf top = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	if (root) {
		/* the layouts' globs are matched below its real path */
		char *real = realpath(root, NULL);

		if (!real)
			goto out;	/* the command says what is wrong */
		strbuf_addstr(&top, real);
		free(real);
	} else if (!repo_worktree_of(&top, "."))
		goto out;	/* no repository: no file, AHD's layout only */
	if (rcfile_load(out, top.buf, &err)) {
		fputs(err.buf, stderr);
		ret = -1;
	}
out:
	strbuf_release(&top);
	strbuf_release(&err);
	return ret;
}

int rcfile_policy_at(struct strbuf *out, const char *top, enum policy_key k)
{
	struct rcfile c = RCFILE_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *v;
	int ret = 0;

	if (rcfile_load(&c, top, &err)) {
		fputs(err.buf, stderr);
		ret = -1;
		goto out;
	}
	v = c.policy[k].value;
	if (!v)
		goto out;
	strbuf_addstr(out, v);
	ret = 1;
out:
	rcfile_release(&c);
	strbuf_release(&err);
	return ret;
}

int rcfile_policy_here(struct strbuf *out, enum policy_key k)
{
	struct strbuf top = STRBUF_INIT;
	int ret = 0;

	if (repo_worktree_of(&top, "."))
		ret = rcfile_policy_at(out, top.buf, k);
	strbuf_release(&top);
	return ret;
}

const struct layout *rcfile_layout_for(const struct rcfile *c,
				       const char *rel)
{
	size_t i;

	if (layout_is_ahd_sidecar(rel))
		return NULL;
	for (i = 0; i < c->nr; i++)
		if (c->layouts[i].records &&
		    glob_match_path(c->layouts[i].records, rel))
			return &c->layouts[i];
	return NULL;
}

static void layout_release(struct layout *lay)
{
	size_t i;

	for (i = 0; i < lay->nr; i++) {
		free(lay->inputs[i].name);
		free(lay->inputs[i].path);
		free(lay->inputs[i].hash);
		free(lay->inputs[i].label);
	}
	free(lay->inputs);
	free(lay->name);
	free(lay->records);
	free(lay->sidecar);
	free(lay->block);
	free(lay->commit);
	free(lay->command);
	free(lay->schema);
}

void rcfile_release(struct rcfile *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		layout_release(&c->layouts[i]);
	free(c->layouts);
	for (i = 0; i < POLICY_NR; i++)
		free(c->policy[i].value);
	strbuf_release(&c->top);
	strbuf_release(&c->file);
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->top, 0);
	strbuf_init(&c->file, 0);
}
