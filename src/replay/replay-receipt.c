/*
 * The replay receipt (seed 004): what was re-issued, from which
 * materials, with every override as a delta carrying the hashes before
 * and after.  It holds no wall-clock time and no path of this machine,
 * and is written in RFC 8785 form, so two replays of one report with the
 * same overrides give the same bytes.
 */
#include "config.h"
#include "replay-int.h"
#include "replay-trust.h"
#include "fs/readfile.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "json/jsonout.h"
#include "usage.h"

#include <string.h>

#define RECEIPT_TYPE "ahd-replay/replay-receipt/v1"

static const char *const source_names[] = {
	[MATERIAL_AT_COMMIT] = "ahd_commit",
	[MATERIAL_HISTORY] = "history",
	[MATERIAL_OVERRIDE] = "override",
	[MATERIAL_MISSING] = "missing",
};

static struct jval *material_json(const struct replay_material *m)
{
	struct jval *o = jval_object();

	if (!o)
		die("out of memory");
	jsonout_set(o, "kind", jsonout_text(m->kind));
	jsonout_set(o, "path", jsonout_text(m->path.buf));
	jsonout_set(o, "sha256", jsonout_text(m->sha256.buf));
	jsonout_set(o, "source", jsonout_text(source_names[m->source]));
	if (m->source == MATERIAL_HISTORY)
		jsonout_set(o, "commit", jsonout_text(m->commit));
	return o;
}

static struct jval *delta_json(const struct replay_material *m, const char *reason)
{
	struct jval *o = jval_object();
	struct strbuf key = STRBUF_INIT;

	if (!o)
		die("out of memory");
	strbuf_addf(&key, "input:%s", m->kind);
	jsonout_set(o, "override_key", jsonout_text(key.buf));
	jsonout_set(o, "path", jsonout_text(m->path.buf));
	jsonout_set(o, "before_sha256", jsonout_text(m->recorded));
	jsonout_set(o, "after_sha256", jsonout_text(m->sha256.buf));
	jsonout_set(o, "reason", reason ? jsonout_text(reason) : jval_null());
	strbuf_release(&key);
	return o;
}

/*
 * The SHA-256 of the work tree's file rel (what names it): of its
 * RFC 8785 form with jcs, else of its bytes.
 */
static int hash_of(char hex[HASH_HEX_MAX], const struct replay *rp,
		   const char *rel, int jcs, const char *what,
		   struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf bytes = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", rp->repo.workdir.buf, rel);
	if (jcs)
		ret = hash_file(hex, path.buf, HASH_JCS, HASH_DEFAULT_MAX_SIZE,
				&why);
	else if (!(ret = read_file_limited(&bytes, path.buf,
					   HASH_DEFAULT_MAX_SIZE, &why)) &&
		 (ret = digest_buffer_hex(hex, bytes.buf, bytes.len)))
		strbuf_addstr(&why, "cannot compute a SHA-256");
	if (ret)
		strbuf_addf(err, "cannot hash the %s %s: %s", what, path.buf,
			    why.buf);
	strbuf_release(&path);
	strbuf_release(&why);
	strbuf_release(&bytes);
	return ret ? -1 : 0;
}

/*
 * AHD's: the report and the sidecar's RFC 8785 hash.  A layout's: its
 * name, the record and any sidecar by their bytes, as a signature binds
 * them.
 */
static int source_json(struct jval **out, const struct replay *rp,
		       struct strbuf *err)
{
	char hex[HASH_HEX_MAX], rec[HASH_HEX_MAX];
	int sidecar = !rp->layout || rp->layout->sidecar;
	struct jval *o;

	if ((sidecar && hash_of(hex, rp, rp->sidecar.buf, !rp->layout,
				"sidecar", err)) ||
	    (rp->layout && hash_of(rec, rp, rp->report.buf, 0, "record", err)))
		return -1;
	o = jval_object();
	if (!o)
		die("out of memory");
	if (rp->layout) {
		jsonout_set(o, "layout", jsonout_text(rp->layout->name));
		jsonout_set(o, "record", jsonout_text(rp->report.buf));
		jsonout_set(o, "record_sha256", jsonout_text(rec));
	} else
		jsonout_set(o, "report", jsonout_text(rp->report.buf));
	if (sidecar) {
		jsonout_set(o, "sidecar", jsonout_text(rp->sidecar.buf));
		jsonout_set(o, "sidecar_sha256", jsonout_text(hex));
	}
	*out = o;
	return 0;
}

/* rp->receipt in RFC 8785 form, into rp->receipt_text and the file. */
static int write_text(struct replay *rp, struct strbuf *err)
{
	struct strbuf compact = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	jsonout_write(&compact, rp->receipt, JSONOUT_COMPACT, 0);
	strbuf_reset(&rp->receipt_text);
	if (canon_text(&rp->receipt_text, compact.buf, compact.len, HASH_JCS,
		       &why)) {
		strbuf_addf(err, "cannot write the receipt: %s", why.buf);
		goto out;
	}
	strbuf_addf(&path, "%s/replay-receipt.json", rp->wt.path.buf);
	ret = replay_put_path(rp, path.buf, rp->receipt_text.buf,
			      rp->receipt_text.len, err);
out:
	strbuf_release(&compact);
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}

int replay_write_receipt(struct replay *rp, const struct replay_options *opts,
			 struct strbuf *err)
{
	struct jval *r = jval_object(), *materials = jval_array();
	struct jval *overrides = jval_array(), *source = NULL;
	int i, ret = -1;

	if (!r || !materials || !overrides)
		die("out of memory");
	rp->receipt = r;
	if (source_json(&source, rp, err)) {
		jval_decref(materials);
		jval_decref(overrides);
		goto out;
	}
	for (i = 0; i < rp->nr_materials; i++) {
		const struct replay_material *m = &rp->materials[i];

		if (jval_array_append_new(materials, material_json(m)))
			die("out of memory");
		if (m->source == MATERIAL_OVERRIDE &&
		    jval_array_append_new(overrides,
					  delta_json(m, opts->reason)))
			die("out of memory");
	}
	jsonout_set(r, "type", jsonout_text(RECEIPT_TYPE));
	jsonout_set(r, "source", source);
	jsonout_set(r, "ahd_commit", jsonout_text(rp->commit));
	jsonout_set(r, "mode", jsonout_text(opts->mode == REPLAY_EXACT ?
					    "exact" : "with_overrides"));
	jsonout_set(r, "materials", materials);
	jsonout_set(r, "overrides", overrides);
	jsonout_set(r, "argv", jval_incref(rp->argv));
	ret = write_text(rp, err);
out:
	return ret;
}

int replay_receipt_record_run(struct replay *rp,
			      const struct replay_command *cmd,
			      struct strbuf *err)
{
	struct jval *run = jval_object(), *argv = jval_array();
	size_t i;

	if (!run || !argv)
		die("out of memory");
	for (i = 0; i < cmd->argc; i++)
		if (jval_array_append_new(argv, jsonout_text(cmd->argv[i])))
			die("out of memory");
	jsonout_set(run, "program", jsonout_text(cmd->program.buf));
	jsonout_set(run, "argv", argv);
	jsonout_set(run, "given", jval_boolean(cmd->user_given));
	jsonout_set(rp->receipt, "run", run);
	return write_text(rp, err);
}
