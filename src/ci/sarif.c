/*
 * SARIF 2.1.0 output (see sarif.h).
 */
#include "config.h"
#include "sarif.h"
#include "root/root.h"
#include "json/jsonout.h"
#include "git/repo.h"
#include "usage.h"
#include "fs/path.h"

#include <stdlib.h>
#include <string.h>

struct rule {
	const char *id;
	const char *level;
	const char *summary;
	const char *text;
};

/* Every failure kind the commands report, in a fixed order. */
static const struct rule rules[] = {
	{ "token-drift", "error", "The style token drifted",
	  "The token the sidecar pins no longer hashes to the recorded "
	  "value (or no longer parses): the report's results no longer "
	  "describe the token in the repository." },
	{ "brief-drift", "error", "The brief drifted",
	  "Neither the raw-bytes hash nor the canonical-YAML hash of the "
	  "brief matches the one recorded in the sidecar." },
	{ "missing-input", "error", "A recorded input is missing",
	  "The token or brief path the sidecar records names no file." },
	{ "outside-root", "error", "A recorded path leaves the root",
	  "The recorded token or brief path leads outside the root (\"..\", "
	  "an absolute path elsewhere, a symbolic link out of it)." },
	{ "unusable-input", "error", "An input cannot be checked",
	  "The input cannot be read, or cannot be re-hashed exactly as the "
	  "reference implementation does; its state is unknown." },
	{ "signature", "error", "The sidecar's signature fails",
	  "The sidecar's .sig does not verify against a trusted key, or "
	  "there is none and a signature is required." },
	{ "missing-sidecar", "error", "A report has no replay sidecar",
	  "A markdown report that --require-sidecar names has no "
	  "<report>.replay.json next to it." },
	{ "invalid-sidecar", "error", "The sidecar cannot be used",
	  "The sidecar cannot be read or is not a valid replay sidecar, or "
	  "its root or revision cannot be resolved." },
	{ "markdown-block", "warning", "The report's replay block differs",
	  "The report's ahd-replay block is not what the sidecar renders "
	  "to; the sidecar is authoritative, so this is not drift." },
	{ "schema", "error", "The sidecar violates the replay schema",
	  "A value of the sidecar does not satisfy schema/replay.schema.json." },
	{ "no-reports", "error", "No report was found",
	  "verify found no report to check: a job pointed at the wrong "
	  "directory would otherwise pass (--allow-empty accepts it)." },
};

static const struct rule *find_rule(const char *id)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(*rules); i++)
		if (!strcmp(rules[i].id, id))
			return &rules[i];
	return NULL;
}

static void percent_encode(struct strbuf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			strbuf_addch(out, c);
		else {
			strbuf_addch(out, '%');
			strbuf_addch(out, hex[c >> 4]);
			strbuf_addch(out, hex[c & 15]);
		}
	}
}

/*
 * The top of the work tree around the current directory, found once:
 * NULL outside one.  Commands that do not start libgit2 (validate, log)
 * start it for the look-up.
 */
static const char *work_tree_top(void)
{
	static struct strbuf top = STRBUF_INIT;
	static int known, found;
	struct strbuf err = STRBUF_INIT;

	if (!known) {
		known = 1;
		if (!repo_library_init(&err)) {
			found = repo_worktree_of(&top, ".");
			repo_library_shutdown();
		}
		strbuf_release(&err);
	}
	return found ? top.buf : NULL;
}

void outcome_uri(struct strbuf *out, const char *path, int *relative)
{
	struct strbuf abs = STRBUF_INIT, err = STRBUF_INIT;
	const char *top = work_tree_top();
	size_t n = top ? strlen(top) : 0;

	/* no current directory: the path as given, which is all we know */
	if (path_absolute(&abs, path, &err))
		strbuf_addstr(&abs, path);
	strbuf_release(&err);
	*relative = 0;
	if (top && !strncmp(abs.buf, top, n) && abs.buf[n] == '/') {
		percent_encode(out, abs.buf + n + 1);
		*relative = 1;
	} else {
		strbuf_addstr(out, "file://");
		percent_encode(out, abs.buf);
	}
	strbuf_release(&abs);
}

static struct jval *text_object(const char *text)
{
	struct jval *o = jval_object();

	jsonout_set(o, "text", jsonout_text(text));
	return o;
}

static struct jval *rule_json(const char *id)
{
	const struct rule *r = find_rule(id);
	struct jval *o = jval_object(), *conf = jval_object();
	struct strbuf generic = STRBUF_INIT;

	jsonout_set(o, "id", jsonout_text(id));
	if (!r)
		strbuf_addf(&generic, "ahd-replay rule %s", id);
	jsonout_set(o, "shortDescription", text_object(r ? r->summary :
						       generic.buf));
	if (r)
		jsonout_set(o, "fullDescription", text_object(r->text));
	jsonout_set(conf, "level", jval_string(r ? r->level : "error"));
	jsonout_set(o, "defaultConfiguration", conf);
	strbuf_release(&generic);
	return o;
}

/* The rules array, and each case's index in it (-1: passed). */
static struct jval *rules_json(const struct outcome *o, int *index)
{
	struct jval *list = jval_array();
	const char **ids = xcalloc(o->nr + sizeof(rules) / sizeof(*rules) + 1,
				   sizeof(*ids));
	size_t nids = 0, i, k;

	/* The kinds of the command, whether found or not, then others. */
	for (i = 0; i < sizeof(rules) / sizeof(*rules); i++) {
		int schema = !strcmp(rules[i].id, "schema");
		int validate = !strcmp(o->command, "validate");

		if (!strcmp(o->command, "log verify"))
			continue;
		if (validate ? (schema || !strcmp(rules[i].id,
						   "invalid-sidecar")) : !schema)
			ids[nids++] = rules[i].id;
	}
	for (i = 0; i < o->nr; i++) {
		index[i] = -1;
		if (o->v[i].status == OUTCOME_PASS ||
		    o->v[i].status == OUTCOME_SKIPPED)
			continue;
		for (k = 0; k < nids; k++)
			if (!strcmp(ids[k], o->v[i].rule))
				break;
		if (k == nids)
			ids[nids++] = o->v[i].rule;
		index[i] = (int)k;
	}
	for (k = 0; k < nids; k++)
		jval_array_append_new(list, rule_json(ids[k]));
	free(ids);
	return list;
}

static struct jval *result_json(const struct outcome_case *c, int index)
{
	struct jval *r = jval_object(), *loc = jval_object(), *phys = jval_object();
	struct jval *art = jval_object(), *locs = jval_array();
	struct strbuf uri = STRBUF_INIT;
	int relative;

	jsonout_set(r, "ruleId", jsonout_text(c->rule));
	jsonout_set(r, "ruleIndex", jval_integer(index));
	jsonout_set(r, "level", jval_string(c->status == OUTCOME_WARNING ?
					    "warning" : "error"));
	jsonout_set(r, "message", text_object(c->message ? c->message :
					      c->rule));
	outcome_uri(&uri, c->file ? c->file : c->group, &relative);
	jsonout_set(art, "uri", jsonout_text(uri.buf));
	if (relative)
		jsonout_set(art, "uriBaseId", jval_string("%SRCROOT%"));
	jsonout_set(phys, "artifactLocation", art);
	if (c->line > 0) {
		struct jval *region = jval_object();

		jsonout_set(region, "startLine", jval_integer(c->line));
		jsonout_set(phys, "region", region);
	}
	jsonout_set(loc, "physicalLocation", phys);
	jval_array_append_new(locs, loc);
	jsonout_set(r, "locations", locs);
	if (c->fingerprint) {
		struct jval *fp = jval_object();

		jsonout_set(fp, "ahdReplayFinding/v1",
			    jval_string(c->fingerprint));
		jsonout_set(r, "partialFingerprints", fp);
	}
	strbuf_release(&uri);
	return r;
}

void sarif_write(struct strbuf *out, const struct outcome *o, int status)
{
	struct jval *doc = jval_object(), *run = jval_object(), *tool = jval_object();
	struct jval *driver = jval_object(), *results = jval_array();
	struct jval *runs = jval_array(), *inv = jval_object(), *invs = jval_array();
	struct jval *auto_ = jval_object();
	struct strbuf id = STRBUF_INIT;
	int *index = xcalloc(o->nr + 1, sizeof(*index));
	size_t i;

	jsonout_set(doc, "$schema", jval_string(
		"https://json.schemastore.org/sarif-2.1.0.json"));
	jsonout_set(doc, "version", jval_string("2.1.0"));
	jsonout_set(driver, "name", jval_string("ahd-replay"));
	jsonout_set(driver, "version", jval_string(PACKAGE_VERSION));
	jsonout_set(driver, "rules", rules_json(o, index));
	jsonout_set(tool, "driver", driver);
	jsonout_set(run, "tool", tool);
	/* One category per command, so their uploads do not replace each other. */
	strbuf_addf(&id, "ahd-replay/%s/", o->command);
	for (i = 0; i < id.len; i++)
		if (id.buf[i] == ' ')
			id.buf[i] = '-';
	jsonout_set(auto_, "id", jval_string(id.buf));
	jsonout_set(run, "automationDetails", auto_);
	if (work_tree_top()) {
		struct jval *bases = jval_object(), *root = jval_object();
		struct strbuf uri = STRBUF_INIT;

		strbuf_addstr(&uri, "file://");
		percent_encode(&uri, work_tree_top());
		strbuf_addch(&uri, '/');
		jsonout_set(root, "uri", jsonout_text(uri.buf));
		jsonout_set(bases, "%SRCROOT%", root);
		jsonout_set(run, "originalUriBaseIds", bases);
		strbuf_release(&uri);
	}
	jsonout_set(inv, "executionSuccessful", jval_boolean(status != 2));
	jsonout_set(inv, "exitCode", jval_integer(status));
	jval_array_append_new(invs, inv);
	jsonout_set(run, "invocations", invs);
	for (i = 0; i < o->nr; i++)
		if (index[i] >= 0)
			jval_array_append_new(results,
					      result_json(&o->v[i], index[i]));
	jsonout_set(run, "results", results);
	jval_array_append_new(runs, run);
	jsonout_set(doc, "runs", runs);
	jsonout_pretty(out, doc);
	strbuf_addch(out, '\n');
	jval_decref(doc);
	free(index);
	strbuf_release(&id);
}
