#include "config.h"
#include "statement.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "json/jsonout.h"
#include "fs/readfile.h"
#include "root/root.h"
#include "signature.h"
#include "sshwire.h"
#include "usage.h"
#include "utf8.h"
#include "fs/path.h"
#include "json/jval.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void statement_init(struct statement *st)
{
	strbuf_init(&st->report_path, 0);
	strbuf_init(&st->report_sha, 0);
	strbuf_init(&st->sidecar_path, 0);
	strbuf_init(&st->sidecar_sha, 0);
	strbuf_init(&st->layout, 0);
	strbuf_init(&st->definition, 0);
	st->is_record = 0;
	strbuf_init(&st->type, 0);
	strbuf_init(&st->text, 0);
}

void statement_release(struct statement *st)
{
	strbuf_release(&st->report_path);
	strbuf_release(&st->report_sha);
	strbuf_release(&st->sidecar_path);
	strbuf_release(&st->sidecar_sha);
	strbuf_release(&st->layout);
	strbuf_release(&st->definition);
	strbuf_release(&st->type);
	strbuf_release(&st->text);
}

/*
 * path relative to root: its directory resolved (symlinks included, as
 * the root is), its last component kept, so that a file reached through
 * another spelling of the same directory gets the same name.
 */
static int root_relative(struct strbuf *out, const char *root,
			 const char *path, struct strbuf *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	struct strbuf dir = STRBUF_INIT, full = STRBUF_INIT;
	char *real = NULL;
	size_t n = strlen(root);
	int ret = -1;

	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		strbuf_addf(err, "'%s' does not name a file", path);
		goto out;
	}
	if (slash)
		strbuf_add(&dir, path, (size_t)(slash - path) + (slash == path));
	else
		strbuf_addstr(&dir, ".");
	real = realpath(dir.buf, NULL);
	if (!real) {
		strbuf_addf(err, "cannot resolve '%s': %s", dir.buf,
			    strerror(errno));
		goto out;
	}
	strbuf_addstr(&full, real);
	if (full.len && full.buf[full.len - 1] != '/')
		strbuf_addch(&full, '/');
	strbuf_addstr(&full, base);
	if (!path_is_within(full.buf, root) || !strcmp(full.buf, root)) {
		strbuf_addf(err, "'%s' is outside the root %s", path, root);
		goto out;
	}
	while (n && root[n - 1] == '/')
		n--;
	strbuf_addstr(out, full.buf + n + 1);
	if (utf8_valid_prefix(out->buf, out->len) != out->len) {
		strbuf_addf(err, "'%s' is not a UTF-8 path", path);
		goto out;
	}
	ret = 0;
out:
	free(real);
	strbuf_release(&dir);
	strbuf_release(&full);
	return ret;
}

static struct jval *part_json(const struct strbuf *path, const struct strbuf *sha)
{
	struct jval *o = jval_object();

	jsonout_set(o, "path", jval_stringn(path->buf, path->len));
	jsonout_set(o, "sha256", jval_stringn(sha->buf, sha->len));
	return o;
}

/* Fill st->text from the fields. */
static int statement_text(struct statement *st, struct strbuf *err)
{
	struct strbuf compact = STRBUF_INIT;
	struct jval *doc = jval_object();
	int ret;

	jsonout_set(doc, "type", jval_stringn(st->type.buf, st->type.len));
	if (st->is_record) {
		jsonout_set(doc, "layout", jval_stringn(st->layout.buf,
							st->layout.len));
		jsonout_set(doc, "definition",
			    jval_stringn(st->definition.buf,
					 st->definition.len));
		jsonout_set(doc, "record", part_json(&st->report_path,
						     &st->report_sha));
	} else
		jsonout_set(doc, "report", part_json(&st->report_path,
						     &st->report_sha));
	if (!st->is_record || st->sidecar_path.len)
		jsonout_set(doc, "sidecar", part_json(&st->sidecar_path,
						      &st->sidecar_sha));
	jsonout_write(&compact, doc, JSONOUT_COMPACT, 0);
	strbuf_reset(&st->text);
	ret = canon_text(&st->text, compact.buf, compact.len, HASH_JCS, err);
	jval_decref(doc);
	strbuf_release(&compact);
	return ret ? -1 : 0;
}

int statement_for(struct statement *out, const char *root,
		  const char *report, const char *sidecar,
		  struct strbuf *err)
{
	struct strbuf bytes = STRBUF_INIT, why = STRBUF_INIT;
	char hex[DIGEST_HEX_MAX];
	int ret = -1;

	strbuf_addstr(&out->type, STATEMENT_TYPE);
	if (root_relative(&out->report_path, root, report, err) ||
	    root_relative(&out->sidecar_path, root, sidecar, err))
		goto out;
	if (read_file_limited(&bytes, report, HASH_DEFAULT_MAX_SIZE, &why)) {
		strbuf_addf(err, "cannot read the report %s: %s", report,
			    why.buf);
		goto out;
	}
	if (digest_buffer_hex(hex, bytes.buf, bytes.len))
		goto hash_fail;
	strbuf_addstr(&out->report_sha, hex + strlen("sha256:"));
	strbuf_reset(&bytes);
	if (sig_canonical_sidecar(&bytes, sidecar, err))
		goto out;
	if (digest_buffer_hex(hex, bytes.buf, bytes.len))
		goto hash_fail;
	strbuf_addstr(&out->sidecar_sha, hex + strlen("sha256:"));
	if (statement_text(out, err))
		goto out;
	ret = 0;
	goto out;
hash_fail:
	strbuf_addstr(err, "cannot compute a SHA-256");
out:
	strbuf_release(&bytes);
	strbuf_release(&why);
	return ret;
}

/* The hex SHA-256 of the bytes of the file at path, what names it. */
static int bytes_sha(struct strbuf *out, const char *path, const char *what,
		     struct strbuf *err)
{
	struct strbuf bytes = STRBUF_INIT, why = STRBUF_INIT;
	char hex[DIGEST_HEX_MAX];
	int ret = -1;

	if (read_file_limited(&bytes, path, HASH_DEFAULT_MAX_SIZE, &why))
		strbuf_addf(err, "cannot read the %s %s: %s", what, path,
			    why.buf);
	else if (digest_buffer_hex(hex, bytes.buf, bytes.len))
		strbuf_addstr(err, "cannot compute a SHA-256");
	else {
		strbuf_addstr(out, hex + strlen("sha256:"));
		ret = 0;
	}
	strbuf_release(&bytes);
	strbuf_release(&why);
	return ret;
}

/* A pointer or pattern of a layout as JSON: null when it has none. */
static struct jval *maybe_text(const char *s)
{
	return s ? jsonout_text(s) : jval_null();
}

/* As .ahd-replay.yml spells enum pin_mode (record/record.h). */
static const char *const mode_names[] = {
	"structured", "raw-then-structured", "raw"
};

/*
 * The hex SHA-256 of the RFC 8785 form of how lay reads a record: its
 * commit and command pointers, its sidecar pattern, its block, and each
 * input's pointers, mode and spelling.  None of that is in the record,
 * and all of it decides what verify checks and what replay runs, so a
 * signature binds it: an .ahd-replay.yml edited to read fewer inputs
 * (or another field as the command) would otherwise leave a signed
 * record "intact" while its dropped inputs drift.  The records glob,
 * schema and backfill key read nothing of a record and are left out.
 */
static int definition_sha(struct strbuf *out, const struct layout *lay,
			  struct strbuf *err)
{
	struct jval *doc = jval_object(), *inputs = jval_array();
	struct strbuf compact = STRBUF_INIT, canon = STRBUF_INIT;
	char hex[DIGEST_HEX_MAX];
	size_t i;
	int ret = -1;

	for (i = 0; i < lay->nr; i++) {
		const struct layout_input *in = &lay->inputs[i];
		struct jval *o = jval_object();

		jsonout_set(o, "name", jsonout_text(in->name));
		jsonout_set(o, "label", maybe_text(in->label));
		jsonout_set(o, "path", jsonout_text(in->path));
		jsonout_set(o, "hash", jsonout_text(in->hash));
		jsonout_set(o, "mode", jsonout_text(mode_names[in->mode]));
		jsonout_set(o, "spelling", jsonout_text(
				    in->spelling == SPELL_HEX ? "hex" :
				    "prefixed"));
		if (jval_array_append_new(inputs, o))
			die("out of memory");
	}
	jsonout_set(doc, "inputs", inputs);
	jsonout_set(doc, "commit", maybe_text(lay->commit));
	jsonout_set(doc, "command", maybe_text(lay->command));
	jsonout_set(doc, "sidecar", maybe_text(lay->sidecar));
	jsonout_set(doc, "block", maybe_text(lay->block));
	jsonout_write(&compact, doc, JSONOUT_COMPACT, 0);
	if (canon_text(&canon, compact.buf, compact.len, HASH_JCS, err))
		goto out;
	if (digest_buffer_hex(hex, canon.buf, canon.len)) {
		strbuf_addstr(err, "cannot compute a SHA-256");
		goto out;
	}
	strbuf_addstr(out, hex + strlen("sha256:"));
	ret = 0;
out:
	jval_decref(doc);
	strbuf_release(&compact);
	strbuf_release(&canon);
	return ret;
}

int statement_for_record(struct statement *out, const char *root,
			 const struct layout *lay, const char *record,
			 const char *sidecar, struct strbuf *err)
{
	const char *layout = lay->name;

	strbuf_addstr(&out->type, STATEMENT_RECORD_TYPE);
	strbuf_addstr(&out->layout, layout);
	out->is_record = 1;
	if (utf8_valid_prefix(layout, strlen(layout)) != strlen(layout)) {
		strbuf_addstr(err, "the layout's name is not UTF-8");
		return -1;
	}
	if (definition_sha(&out->definition, lay, err))
		return -1;
	if (root_relative(&out->report_path, root, record, err) ||
	    bytes_sha(&out->report_sha, record, "record", err))
		return -1;
	if (sidecar &&
	    (root_relative(&out->sidecar_path, root, sidecar, err) ||
	     bytes_sha(&out->sidecar_sha, sidecar, "sidecar", err)))
		return -1;
	return statement_text(out, err);
}

static int get_part(struct jval *doc, const char *name, struct strbuf *path,
		    struct strbuf *sha)
{
	struct jval *o = jval_object_get(doc, name);
	struct jval *p = jval_object_get(o, "path"), *h = jval_object_get(o, "sha256");

	if (!jval_is_object(o) || jval_object_size(o) != 2 ||
	    !jval_is_string(p) || !jval_is_string(h))
		return -1;
	strbuf_add(path, jval_string_value(p), jval_string_length(p));
	strbuf_add(sha, jval_string_value(h), jval_string_length(h));
	return 0;
}

int statement_parse(struct statement *out, const char *text, size_t len,
		    struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct jval *doc = NULL, *type, *layout, *definition;
	struct jval_error jerr;
	int ret = -1, shape;

	if (canon_text(&out->text, text, len, HASH_JCS, &why)) {
		strbuf_addf(err, "the recorded statement is not JSON: %s",
			    why.buf);
		goto out;
	}
	doc = jval_loadb(out->text.buf, out->text.len, JVAL_REJECT_DUPLICATES,
			 &jerr);
	type = jval_object_get(doc, "type");
	layout = jval_object_get(doc, "layout");
	definition = jval_object_get(doc, "definition");
	out->is_record = jval_object_get(doc, "record") != NULL;
	if (!out->is_record)
		shape = jval_object_size(doc) == 3 &&
			!get_part(doc, "report", &out->report_path,
				  &out->report_sha) &&
			!get_part(doc, "sidecar", &out->sidecar_path,
				  &out->sidecar_sha);
	else
		shape = jval_is_string(layout) &&
			jval_is_string(definition) &&
			!get_part(doc, "record", &out->report_path,
				  &out->report_sha) &&
			(jval_object_size(doc) == 4 ||
			 (jval_object_size(doc) == 5 &&
			  !get_part(doc, "sidecar", &out->sidecar_path,
				    &out->sidecar_sha)));
	if (!jval_is_object(doc) || !jval_is_string(type) || !shape) {
		strbuf_addstr(err, "the recorded statement is not a "
			      STATEMENT_TYPE " statement");
		goto out;
	}
	strbuf_add(&out->type, jval_string_value(type),
		   jval_string_length(type));
	if (out->is_record) {
		strbuf_add(&out->layout, jval_string_value(layout),
			   jval_string_length(layout));
		strbuf_add(&out->definition, jval_string_value(definition),
			   jval_string_length(definition));
	}
	ret = 0;
out:
	jval_decref(doc);
	strbuf_release(&why);
	return ret;
}

static int sb_differ(const struct strbuf *a, const struct strbuf *b)
{
	return a->len != b->len || memcmp(a->buf, b->buf, a->len);
}

static void add_path(struct strbuf *why, const struct strbuf *path)
{
	sshwire_add_quoted(why, path->buf, path->len);
}

void statement_explain(struct strbuf *why, const struct statement *signed_,
		       const struct statement *now)
{
	const char *file = now->is_record ? "record" : "report";
	int sidecar, report;

	if (!sb_differ(&signed_->text, &now->text))
		return;
	if (sb_differ(&signed_->type, &now->type)) {
		strbuf_addstr(why, "the signature is over a statement of "
			      "another type");
	} else if (sb_differ(&signed_->layout, &now->layout)) {
		strbuf_addstr(why, "the signature is for the layout ");
		add_path(why, &signed_->layout);
		strbuf_addstr(why, ", not ");
		add_path(why, &now->layout);
	} else if (sb_differ(&signed_->definition, &now->definition)) {
		strbuf_addstr(why, "the layout ");
		add_path(why, &now->layout);
		strbuf_addstr(why, " reads the record another way than when "
			      "it was signed (.ahd-replay.yml changed its "
			      "pointers, modes or spellings)");
	} else if (sb_differ(&signed_->sidecar_path, &now->sidecar_path)) {
		strbuf_addstr(why, "the signature is for the sidecar ");
		add_path(why, &signed_->sidecar_path);
		strbuf_addstr(why, ", not ");
		add_path(why, &now->sidecar_path);
	} else if (sb_differ(&signed_->report_path, &now->report_path)) {
		strbuf_addf(why, "the signature is for the %s ", file);
		add_path(why, &signed_->report_path);
		strbuf_addstr(why, ", not ");
		add_path(why, &now->report_path);
	} else {
		sidecar = sb_differ(&signed_->sidecar_sha, &now->sidecar_sha);
		report = sb_differ(&signed_->report_sha, &now->report_sha);
		if (sidecar && report)
			strbuf_addf(why, "sidecar and %s changed after "
				    "signing", file);
		else if (sidecar || report)
			strbuf_addf(why, "%s changed after signing",
				    sidecar ? "sidecar" : file);
		else
			strbuf_addstr(why, "the recorded statement is not "
				      "canonical");
	}
}
