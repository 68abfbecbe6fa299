/*
 * record_from_sidecar(): AHD's layout of a record.  The token is pinned
 * structured, the brief raw then structured, a null brief pins nothing,
 * and the record keeps its own copies of everything.
 */
#include "config.h"
#include "record/record.h"
#include "record/sidecar.h"
#include "strbuf.h"
#include "tap.h"

#include <string.h>

#define HASH_A "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define HASH_B "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static const char with_brief[] =
	"{\"schema_version\": 1, \"kind\": \"eval-live\","
	" \"ahd_version\": \"0.11.0\","
	" \"ahd_commit\": \"905b740756a181d64097b96f42f6d9c0f52093db\","
	" \"git_dirty\": false, \"node_version\": \"v22.3.0\","
	" \"platform\": \"linux-x64\","
	" \"invoked_at\": \"2026-08-03T09:57:42.291Z\", \"argv\": [],"
	" \"token\": {\"path\": \"tokens/t.yml\", \"hash\": \"" HASH_A "\"},"
	" \"brief\": {\"path\": \"briefs/b.md\", \"hash\": \"" HASH_B "\"},"
	" \"sampling\": {\"n\": 1, \"temperature\": null, \"seed\": null},"
	" \"models\": [], \"conditions\": {\"requested\": [], \"effective\": []}}";

static const char without_brief[] =
	"{\"schema_version\": 1, \"kind\": \"critique\","
	" \"ahd_version\": \"0.11.0\", \"ahd_commit\": null,"
	" \"git_dirty\": null, \"node_version\": \"v22.3.0\","
	" \"platform\": \"linux-x64\","
	" \"invoked_at\": \"2026-08-03T09:57:42.291Z\", \"argv\": [],"
	" \"token\": {\"path\": \"tokens/t.yml\", \"hash\": \"" HASH_A "\"},"
	" \"brief\": null,"
	" \"sampling\": {\"n\": 1, \"temperature\": null, \"seed\": null},"
	" \"models\": [], \"conditions\": {\"requested\": [], \"effective\": []}}";

static int parse(struct sidecar *sc, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	int ret = sidecar_parse(sc, text, strlen(text), &err);

	if (ret)
		diag("cannot parse the test sidecar: %s", err.buf);
	strbuf_release(&err);
	return ret;
}

static void test_with_brief(void)
{
	struct sidecar sc = SIDECAR_INIT;
	struct record r = RECORD_INIT;

	if (!ok(!parse(&sc, with_brief), "a sidecar with a brief parses"))
		return;
	record_from_sidecar(&r, &sc, "x.replay.json", "x.md");
	/* the record owns its strings: the sidecar can go first */
	sidecar_release(&sc);
	is_string("x.replay.json", r.file.buf, "the record file");
	is_string("x.md", r.report.buf, "its report");
	is_string("905b740756a181d64097b96f42f6d9c0f52093db", r.commit,
		  "the commit is ahd_commit");
	if (is_int(2, (long long)r.nr, "two pinned inputs")) {
		is_string("token", r.inputs[0].name, "the token first");
		is_string("tokens/t.yml", r.inputs[0].path, "its path");
		is_string(HASH_A, r.inputs[0].hash, "its hash");
		is_int(PIN_STRUCTURED, r.inputs[0].mode, "pinned structured");
		is_string("brief", r.inputs[1].name, "then the brief");
		is_string("briefs/b.md", r.inputs[1].path, "its path");
		is_string(HASH_B, r.inputs[1].hash, "its hash");
		is_int(PIN_RAW_THEN_STRUCTURED, r.inputs[1].mode,
		       "pinned raw, then structured");
	}
	record_release(&r);
	is_int(0, (long long)r.nr, "released, the record is empty");
	record_release(&r);
	ok(1, "and can be released again");
}

static void test_without_brief(void)
{
	struct sidecar sc = SIDECAR_INIT;
	struct record r = RECORD_INIT;

	if (!ok(!parse(&sc, without_brief), "a sidecar without a brief parses"))
		return;
	record_from_sidecar(&r, &sc, "y.replay.json", NULL);
	ok(!r.commit, "a null ahd_commit: no commit");
	is_int(0, (long long)r.report.len, "no report named");
	if (is_int(1, (long long)r.nr, "a null brief pins nothing"))
		is_string("token", r.inputs[0].name, "the token alone");
	record_release(&r);
	sidecar_release(&sc);
}

int main(void)
{
	plan_lazy();
	test_with_brief();
	test_without_brief();
	return 0;
}
