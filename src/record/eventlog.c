/*
 * REPLAY.jsonl event logs, shared/seeds/001: one canonical JSON object
 * per line, a ReplayHeader first.
 */
#include "config.h"
#include "eventlog.h"
#include "datetime.h"
#include "fs/atomicfile.h"
#include "fs/path.h"
#include "fs/readfile.h"
#include "fs/write.h"
#include "hash/digest.h"
#include "git/repo.h"
#include "json/jsonload.h"
#include "root/root.h"
#include "usage.h"
#include "utf8.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fields seed 001 gives each event; anything else is counted. */
#define MAX_FIELDS 10	/* the event's name, then its fields */
static const char *const known_events[][MAX_FIELDS] = {
	{ "ReplayHeader", "replay_version", "producer", "created_at" },
	{ "SessionStart", "t", "session_id", "issue_number",
	  "policy_version" },
	{ "PlanStart", "t", "plan_hash", "step_count" },
	{ "ToolCall", "t", "id", "tool", "params", "params_hash", "step_id" },
	/* the truncation table's preview fields belong to the result */
	{ "ToolResult", "t", "id", "output_hash", "exit_code", "step_utility",
	  "latency_ms", "output_preview", "stdout", "stderr" },
	{ "StepComplete", "t", "step_id", "status", "iterations" },
	{ "Verification", "t", "commands", "exit_codes",
	  "verification_delta" },
	{ "SessionEnd", "t", "status", "confidence", "total_tool_calls",
	  "total_latency_ms" },
};
#define NR_EVENTS (sizeof(known_events) / sizeof(known_events[0]))

/* Receipts are single JSON documents, unlike the logs they describe. */
#define RECEIPT_MAX (64u << 20)

static void problem(struct eventlog *el, const char *rule,
		    const char *fmt, ...) PRINTF_LIKE(3, 4);
static void problem(struct eventlog *el, const char *rule,
		    const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	/*
	 * Messages quote the log's own strings; a control character in one
	 * must not start a line of its own in the text output, where it
	 * could pass for another report line.
	 */
	for (i = 0; i < msg.len; i++)
		if ((unsigned char)msg.buf[i] < 0x20 || msg.buf[i] == 0x7f)
			msg.buf[i] = '?';
	el->problems++;
	el->report(el->data, el->lines, rule, msg.buf);
	strbuf_release(&msg);
}

void eventlog_init(struct eventlog *el, eventlog_report_fn report,
		   void *data)
{
	struct arena empty = ARENA_INIT;
	struct digest none = DIGEST_INIT;

	memset(el, 0, sizeof(*el));
	el->report = report;
	el->data = data;
	el->max_line = EVENTLOG_MAX_LINE;
	el->arena = empty;
	el->receipt_arena = empty;
	strbuf_init(&el->canon.buf, 0);
	strbuf_init(&el->scratch.buf, 0);
	el->digest = none;
}

void eventlog_release(struct eventlog *el)
{
	size_t i;

	for (i = 0; i < el->open_made; i++)
		strbuf_release(&el->open_ids[i]);
	free(el->open_ids);
	arena_release(&el->arena);
	arena_release(&el->receipt_arena);
	strbuf_release(&el->canon.buf);
	strbuf_release(&el->scratch.buf);
	digest_release(&el->digest);
}

/* The index of the first member named key, or -1. */
static int64_t find(const struct value *map, const char *key)
{
	size_t i, len = strlen(key);

	for (i = 0; i < map->nr; i++) {
		const struct value *k = map->u.items[2 * i];

		if (k->u.str.len == len && !memcmp(k->u.str.ptr, key, len))
			return (int64_t)i;
	}
	return -1;
}

static const struct value *get(const struct value *map, const char *key)
{
	int64_t i = find(map, key);

	return i < 0 ? NULL : map->u.items[2 * i + 1];
}

static const char *get_string(const struct value *map, const char *key)
{
	const struct value *v = get(map, key);

	/*
	 * Ids and hashes are compared as C strings, so one holding a NUL
	 * would compare equal to its prefix: such a string counts as
	 * missing, never as a match.
	 */
	if (!v || v->kind != VALUE_STRING ||
	    strlen(v->u.str.ptr) != v->u.str.len)
		return NULL;
	return v->u.str.ptr;
}

int eventlog_set_receipt(struct eventlog *el, const char *text, size_t len,
			 struct strbuf *err)
{
	struct value *root;
	const struct value *calls;
	uint32_t i;

	if (jsonload_ijson(&root, &el->receipt_arena, text, len, err) < 0)
		return -1;
	if (root->kind != VALUE_MAP ||
	    !(calls = get(root, "tool_calls")) || calls->kind != VALUE_SEQ) {
		strbuf_addstr(err, "no tool_calls array");
		return -1;
	}
	for (i = 0; i < calls->nr; i++) {
		const struct value *c = calls->u.items[i];

		if (c->kind != VALUE_MAP || !get_string(c, "output_hash")) {
			strbuf_addf(err, "tool_calls[%u] has no output_hash "
				    "string", (unsigned)i);
			return -1;
		}
	}
	el->receipt_calls = calls;
	return 0;
}

/* --- timestamps ------------------------------------------------------ */

static void check_time(struct eventlog *el, const struct value *ev)
{
	const struct value *t = get(ev, "t");
	int64_t sec;
	long nsec;

	if (!t || t->kind != VALUE_STRING) {
		problem(el, "timestamp", "no \"t\" timestamp string");
		return;
	}
	if (datetime_parse(t->u.str.ptr, t->u.str.len, DATETIME_EVENTLOG,
			   &sec, &nsec) < 0) {
		problem(el, "timestamp", "\"t\" is not an ISO-8601 date-time: "
			"%s", t->u.str.ptr);
		return;
	}
	if (el->have_t && (sec < el->last_sec ||
			   (sec == el->last_sec && nsec < el->last_nsec))) {
		problem(el, "timestamp", "\"t\" goes backwards: %s",
			t->u.str.ptr);
		return;
	}
	el->have_t = 1;
	el->last_sec = sec;
	el->last_nsec = nsec;
}

/* --- previews -------------------------------------------------------- */

static int is_preview(const char *key, size_t len, size_t *half)
{
	static const char suffix[] = "_preview";
	size_t n = sizeof(suffix) - 1;

	if ((len == 6 && !memcmp(key, "stdout", 6)) ||
	    (len == 6 && !memcmp(key, "stderr", 6))) {
		*half = 5000;
		return 1;
	}
	if (len >= n && !memcmp(key + len - n, suffix, n)) {
		*half = 1000;
		return 1;
	}
	return 0;
}

/* A hash field of ev that is the hash of preview p. */
static void check_preview_hash(struct eventlog *el, const struct value *ev,
			       const char *name, const struct value *p)
{
	char raw[DIGEST_HEX_MAX], quoted[DIGEST_HEX_MAX];
	uint32_t i;

	strbuf_reset(&el->scratch.buf);
	canon_add_string(&el->scratch.buf, p->u.str.ptr, p->u.str.len);
	if (digest_buffer_hex_reuse(&el->digest, raw, p->u.str.ptr,
				    p->u.str.len) ||
	    digest_buffer_hex_reuse(&el->digest, quoted, el->scratch.buf.buf,
				    el->scratch.buf.len)) {
		el->hash_failed = 1;
		return;
	}
	for (i = 0; i < ev->nr; i++) {
		const struct value *k = ev->u.items[2 * i];
		const struct value *v = ev->u.items[2 * i + 1];

		if (k->u.str.len < 5 ||
		    memcmp(k->u.str.ptr + k->u.str.len - 5, "_hash", 5) ||
		    v->kind != VALUE_STRING)
			continue;
		if (!strcmp(v->u.str.ptr, raw) || !strcmp(v->u.str.ptr, quoted))
			problem(el, "preview_hash", "%s is the hash of the "
				"truncated %s, not of the full output",
				k->u.str.ptr, name);
	}
}

static void check_previews(struct eventlog *el, const struct value *ev)
{
	uint32_t i;

	for (i = 0; i < ev->nr; i++) {
		const struct value *k = ev->u.items[2 * i];
		const struct value *v = ev->u.items[2 * i + 1];
		const char *s;
		size_t half, n, at;

		if (!is_preview(k->u.str.ptr, k->u.str.len, &half) ||
		    v->kind != VALUE_STRING)
			continue;
		s = v->u.str.ptr;
		n = utf8_code_points(s, v->u.str.len);
		if (n <= 2 * half)
			continue;
		at = utf8_offset_of(s, v->u.str.len, half);
		if (n != 2 * half + 3 || memcmp(s + at, "...", 3)) {
			problem(el, "preview", "%s has %zu characters: at "
				"most %zu, or the first %zu + \"...\" + the "
				"last %zu when cut", k->u.str.ptr, n, 2 * half,
				half, half);
			continue;
		}
		check_preview_hash(el, ev, k->u.str.ptr, v);
	}
}

/* --- events ---------------------------------------------------------- */

static int open_index(struct eventlog *el, const char *id)
{
	size_t i;

	for (i = 0; i < el->open_nr; i++)
		if (!strcmp(el->open_ids[i].buf, id))
			return (int)i;
	return -1;
}

/* Open id, in a buffer kept from a closed one when there is one. */
static void open_id(struct eventlog *el, const char *id)
{
	if (el->open_nr == el->open_made) {
		ALLOC_GROW(el->open_ids, el->open_made + 1, el->open_alloc);
		strbuf_init(&el->open_ids[el->open_made++], 0);
	}
	strbuf_reset(&el->open_ids[el->open_nr]);
	strbuf_addstr(&el->open_ids[el->open_nr++], id);
}

/* Close the id at i: its buffer moves past the open ones, for reuse. */
static void close_id(struct eventlog *el, int i)
{
	struct strbuf done = el->open_ids[i];

	el->open_ids[i] = el->open_ids[--el->open_nr];
	el->open_ids[el->open_nr] = done;
}

/*
 * The canonical text of params into *text and *len: on the fast path
 * the line holds it already; else it is printed (scratch).
 */
static int params_text(struct eventlog *el, const struct value *ev,
		       const struct value *params, const char **text,
		       size_t *len)
{
	struct strbuf err = STRBUF_INIT;

	if (el->spans) {
		const struct jcs_span *at = &el->spans[find(ev, "params")];

		*text = el->line + at->off;
		*len = at->len;
		return 0;
	}
	strbuf_reset(&el->scratch.buf);
	if (canon_write(&el->scratch, params, CANON_JCS, &err) < 0) {
		problem(el, "params_hash", "params: %s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	*text = el->scratch.buf.buf;
	*len = el->scratch.buf.len;
	return 0;
}

static void tool_call(struct eventlog *el, const struct value *ev)
{
	const struct value *params = get(ev, "params");
	const char *id = get_string(ev, "id");
	const char *hash = get_string(ev, "params_hash");
	char want[DIGEST_HEX_MAX];
	const char *text;
	size_t len;

	el->tool_calls++;
	if (!id)
		problem(el, "pairing", "ToolCall has no \"id\" string");
	else if (open_index(el, id) >= 0)
		problem(el, "pairing", "ToolCall id %s is already open", id);
	else
		open_id(el, id);
	if (!params || !hash) {
		problem(el, "params_hash", "ToolCall needs \"params\" and a "
			"\"params_hash\" string");
		return;
	}
	if (params_text(el, ev, params, &text, &len) < 0)
		return;
	if (digest_buffer_hex_reuse(&el->digest, want, text, len)) {
		el->hash_failed = 1;
		return;
	}
	if (strcmp(hash, want))
		problem(el, "params_hash", "params_hash %s is not the hash of "
			"the canonical params, %s", hash, want);
}

static void tool_result(struct eventlog *el, const struct value *ev)
{
	const char *id = get_string(ev, "id");
	const char *hash = get_string(ev, "output_hash");
	const struct value *u = get(ev, "step_utility");
	int i;

	el->tool_results++;
	if (!id) {
		problem(el, "pairing", "ToolResult has no \"id\" string");
	} else if ((i = open_index(el, id)) < 0) {
		problem(el, "pairing", "ToolResult id %s follows no open "
			"ToolCall with that id", id);
	} else {
		close_id(el, i);
	}
	if (!u || u->kind != VALUE_NUMBER)
		problem(el, "step_utility", "ToolResult has no numeric "
			"step_utility");
	else if (!(u->u.number >= -1 && u->u.number <= 1))
		problem(el, "step_utility", "step_utility %g is outside "
			"[-1, 1]", u->u.number);
	if (el->receipt_calls && el->tool_results <= el->receipt_calls->nr) {
		const struct value *rc =
			el->receipt_calls->u.items[el->tool_results - 1];
		const char *want = get_string(rc, "output_hash");
		const char *tool = get_string(rc, "tool");

		/* the seed's wording */
		if (!hash || strcmp(hash, want))
			problem(el, "receipt", "Tool %s output mismatch: "
				"expected %s, got %s", tool ? tool : "?", want,
				hash ? hash : "none");
	}
}

static void session_end(struct eventlog *el, const struct value *ev)
{
	const struct value *n = get(ev, "total_tool_calls");

	if (!n || n->kind != VALUE_NUMBER)
		problem(el, "total_tool_calls", "SessionEnd has no numeric "
			"total_tool_calls");
	else if (n->u.number != (double)el->tool_calls)
		problem(el, "total_tool_calls", "total_tool_calls is %g, the "
			"log has %zu ToolCall events", n->u.number,
			el->tool_calls);
}

static void count_unknown_fields(struct eventlog *el, const struct value *ev,
				 const char *const *fields)
{
	uint32_t i;
	size_t j;

	for (i = 0; i < ev->nr; i++) {
		const struct value *k = ev->u.items[2 * i];
		const char *key = k->u.str.ptr;

		if (strlen(key) != k->u.str.len) {
			el->unknown_fields++;
			continue;
		}
		if (!strcmp(key, "event"))
			continue;
		for (j = 1; j < MAX_FIELDS && fields[j]; j++)
			if (!strcmp(key, fields[j]))
				break;
		if (j == MAX_FIELDS || !fields[j])
			el->unknown_fields++;
	}
}

static int header(struct eventlog *el, const struct value *ev,
		  const char *event, struct strbuf *err)
{
	const struct value *v;
	const char *created;

	if (!event || strcmp(event, "ReplayHeader")) {
		strbuf_addstr(err, "the first line is not a ReplayHeader "
			      "event");
		return -1;
	}
	v = get(ev, "replay_version");
	if (!v || v->kind != VALUE_NUMBER) {
		strbuf_addstr(err, "the ReplayHeader has no numeric "
			      "replay_version");
		return -1;
	}
	if (v->u.number != EVENTLOG_VERSION) {
		strbuf_addf(err, "replay_version %g is not supported (this "
			    "tool reads version %d)", v->u.number,
			    EVENTLOG_VERSION);
		return -1;
	}
	created = get_string(ev, "created_at");
	if (created && datetime_parse(created, strlen(created),
				      DATETIME_EVENTLOG, NULL, NULL) < 0)
		problem(el, "timestamp", "created_at is not an ISO-8601 "
			"date-time: %s", created);
	return 0;
}

/*
 * The line's event into *ev: straight from the line when it is canonical
 * already (json/jcsscan.h), else parsed by jansson and its canonical form
 * printed and compared.  With canonical set, that form and a newline are
 * appended to it.  Returns 0; 1 when the line is no JSON object (a
 * problem was reported); -1 with a reason in err when the log cannot be
 * checked further.
 */
static int load_line(struct eventlog *el, struct value **ev,
		     const char *line, size_t len, struct strbuf *canonical,
		     struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct jcs_span *spans;
	int ret = 1;

	arena_clear(&el->arena);
	el->spans = NULL;
	if (!el->no_fast_path &&
	    jcs_scan_object(ev, &spans, &el->arena, line, len)) {
		el->line = line;
		el->spans = spans;
		if (canonical) {
			strbuf_add(canonical, line, len);
			strbuf_addch(canonical, '\n');
		}
		return 0;
	}
	arena_clear(&el->arena);
	if (jsonload_ijson(ev, &el->arena, line, len, &why) < 0 ||
	    (*ev)->kind != VALUE_MAP) {
		if (!why.len)
			strbuf_addstr(&why, "not a JSON object");
		if (el->lines == 1 || canonical) {
			strbuf_addf(err, "line %zu: %s", el->lines, why.buf);
			ret = -1;
		} else {
			problem(el, "json", "%s", why.buf);
		}
		goto out;
	}

	strbuf_reset(&el->canon.buf);
	if (canon_write(&el->canon, *ev, CANON_JCS, &why) < 0) {
		if (canonical) {
			strbuf_addf(err, "line %zu: %s", el->lines, why.buf);
			ret = -1;
			goto out;
		}
		problem(el, "canonical", "%s", why.buf);
	} else if (canonical) {
		strbuf_addbuf(canonical, &el->canon.buf);
		strbuf_addch(canonical, '\n');
	} else if (el->canon.buf.len != len ||
		   memcmp(el->canon.buf.buf, line, len)) {
		problem(el, "canonical", "not in RFC 8785 canonical form "
			"(sorted keys, no whitespace, shortest numbers)");
	}
	ret = 0;
out:
	strbuf_release(&why);
	return ret;
}

int eventlog_line(struct eventlog *el, const char *line, size_t len,
		  struct strbuf *canonical, struct strbuf *err)
{
	struct value *ev;
	const char *event;
	size_t i;
	int ret;

	el->lines++;
	ret = load_line(el, &ev, line, len, canonical, err);
	if (ret)
		return ret < 0 ? -1 : 0;

	event = get_string(ev, "event");
	if (el->lines == 1) {
		ret = header(el, ev, event, err);
		count_unknown_fields(el, ev, known_events[0]);
		return ret;
	}
	if (!event) {
		problem(el, "json", "no \"event\" string");
		return 0;
	}
	for (i = 0; i < NR_EVENTS; i++)
		if (!strcmp(event, known_events[i][0]))
			break;
	if (i == NR_EVENTS) {
		el->unknown_events++;
		return 0;
	}
	if (i == 0) {
		problem(el, "header", "a ReplayHeader may only be the first "
			"line");
		return 0;
	}
	count_unknown_fields(el, ev, known_events[i]);
	check_time(el, ev);
	check_previews(el, ev);
	if (!strcmp(event, "ToolCall"))
		tool_call(el, ev);
	else if (!strcmp(event, "ToolResult"))
		tool_result(el, ev);
	else if (!strcmp(event, "SessionEnd"))
		session_end(el, ev);
	if (el->hash_failed) {
		strbuf_addf(err, "line %zu: cannot compute SHA-256", el->lines);
		return -1;
	}
	return 0;
}

int eventlog_finish(struct eventlog *el, struct strbuf *err)
{
	if (!el->lines) {
		strbuf_addstr(err, "empty log: the first line must be a "
			      "ReplayHeader");
		return -1;
	}
	if (el->receipt_calls && el->receipt_calls->nr != el->tool_results)
		problem(el, "receipt", "the receipt has %u tool_calls, the log "
			"%zu ToolResult events",
			(unsigned)el->receipt_calls->nr, el->tool_results);
	return 0;
}

static int load_receipt(struct eventlog *el, const char *path,
			struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	int ret = -1;

	if (read_file_limited(&text, path, RECEIPT_MAX, &why) < 0 ||
	    eventlog_set_receipt(el, text.buf, text.len, &why) < 0)
		strbuf_addf(err, "receipt %s: %s", path, why.buf);
	else
		ret = 0;
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

static int write_rewritten(void *af, const char *buf, size_t len,
			   struct strbuf *err)
{
	return atomic_file_write(af, buf, len, err);
}

/*
 * One pass over the log; with af set, the canonical lines go to it.
 * Returns 0, or -1 with a reason in err.
 */
static int check_log(struct eventlog *el, FILE *fp, struct atomic_file *af,
		     struct strbuf *err)
{
	int ret = eventlog_read(el, fp, af ? write_rewritten : NULL, af, err);

	if (af && ret < 0)
		atomic_file_abort(af);
	return ret;
}

/*
 * The log rewritten in place (canonicalize).  Inside the root found for
 * it, held to that root (fs/write.h): a log committed as a symlink
 * cannot carry the rewrite out of the repository.  Outside any root the
 * user named the file: a symlink at it is followed as before, but not
 * one on the way there.
 */
static int open_rewrite(struct atomic_file *af, const char *path,
			struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT, why = STRBUF_INIT;
	char *real = NULL;
	int inside, ret = -1;

	/* log runs without libgit2 set up; the root search needs it */
	if (path_absolute(&abs, path, err) || repo_library_init(err))
		goto out;
	path_dirname(&dir, abs.buf);
	inside = root_find(&root, dir.buf, NULL, &why) >= 0 &&
		path_is_within(abs.buf, root.buf);
	repo_library_shutdown();
	if (inside) {
		ret = write_beneath_open(af, root.buf, path, 0666, err);
		goto out;
	}
	real = realpath(dir.buf, NULL);
	if (!real || strcmp(real, dir.buf))
		strbuf_addf(err, "cannot rewrite '%s': a symlink leads to it "
			    "from outside the root; not written", path);
	else
		ret = atomic_file_open_in_place(af, path, err);
out:
	free(real);
	strbuf_release(&abs);
	strbuf_release(&dir);
	strbuf_release(&root);
	strbuf_release(&why);
	return ret;
}

int eventlog_check_file(struct eventlog *el, const char *path,
			const char *receipt, int canonicalize,
			struct strbuf *err)
{
	struct atomic_file af;
	FILE *fp = NULL;
	int ret = -1;

	if (receipt && load_receipt(el, receipt, err) < 0)
		goto out;
	fp = fopen(path, "r");
	if (!fp) {
		strbuf_addf(err, "cannot open: %s", strerror(errno));
		goto out;
	}
	/* the file itself is rewritten: owner kept, never out of the root */
	if (canonicalize && open_rewrite(&af, path, err) < 0)
		goto out;
	if (check_log(el, fp, canonicalize ? &af : NULL, err) < 0 ||
	    (canonicalize && atomic_file_commit(&af, err) < 0))
		goto out;
	ret = 0;
out:
	if (fp)
		fclose(fp);
	return ret;
}
