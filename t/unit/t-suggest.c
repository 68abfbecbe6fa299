/*
 * Unit tests for suggest: the edit distance and which names a mistyped
 * word brings up.
 */
#include "config.h"
#include "suggest.h"
#include "strbuf.h"
#include "tap.h"

static const char *const commands[] = {
	"backfill", "canon", "capture", "diff", "hash", "hook", "hooks",
	"install-hooks", "keygen", "log", "render", "replay", "sign",
	"uninstall-hooks", "validate", "verify", "verify-replay", "help", NULL
};

/* What "did you mean" would offer for word among the commands. */
static void check(const char *word, const char *want)
{
	struct suggest sg;
	struct strbuf sb = STRBUF_INIT;
	const char *const *c;

	suggest_init(&sg, word);
	for (c = commands; *c; c++)
		suggest_consider(&sg, *c);
	suggest_format(&sg, &sb, "");
	is_string(want, sb.buf, "'%s' suggests %s", word,
		  *want ? want : "nothing");
	strbuf_release(&sb);
}

static void test_distance(void)
{
	is_int(0, suggest_distance("verify", "verify"), "equal");
	is_int(1, suggest_distance("verfy", "verify"), "a deletion");
	is_int(1, suggest_distance("vreify", "verify"), "a swap is one edit");
	is_int(1, suggest_distance("varify", "verify"), "a substitution");
	is_int(3, suggest_distance("", "abc"), "from nothing");
	is_int(SUGGEST_FAR, suggest_distance("x", "0123456789012345678901234"
					     "5678901234567890123456789012345"
					     "678901234567890"),
	       "long names are far");
}

static void test_names(void)
{
	check("verfy", "'verify'");
	check("ver", "'verify' or 'verify-replay'");
	check("hsah", "'hash'");
	check("instal-hooks", "'install-hooks'");
	check("frob", "");
	check("x", "");
	check("hoks", "'hooks'");
	check("hok", "'hook'");
	check("sing", "'sign'");
}

static void test_format(void)
{
	struct suggest sg;
	struct strbuf sb = STRBUF_INIT;

	suggest_init(&sg, "forma");
	suggest_consider(&sg, "format");
	suggest_consider(&sg, "format-x");
	suggest_consider(&sg, "formation");
	suggest_consider(&sg, "formal");
	is_int(3, suggest_format(&sg, &sb, "--"), "at most three names");
	is_string("one of '--format', '--format-x', '--formation'", sb.buf,
		  "three names, with the prefix");
	strbuf_release(&sb);
}

int main(void)
{
	plan_lazy();
	test_distance();
	test_names();
	test_format();
	return 0;
}
