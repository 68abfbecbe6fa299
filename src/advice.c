/*
 * Hints and the keys that silence them (see advice.h).
 */
#include "config.h"
#include "advice.h"
#include "strbuf.h"
#include "strutil.h"
#include "usage.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum advice_state { ADVICE_UNREAD, ADVICE_ON, ADVICE_OFF };

static struct advice_setting {
	const char *key;
	enum advice_state state;
	int shown;
} advice_settings[ADVICE_NR] = {
	[ADVICE_BACKFILL] = { "ahd-replay.advice.backfill", ADVICE_UNREAD, 0 },
	[ADVICE_EXPLAIN_DRIFT] = { "ahd-replay.advice.explainDrift",
				   ADVICE_UNREAD, 0 },
};

static advice_config_fn *advice_read;

void advice_init(advice_config_fn *read)
{
	advice_read = read;
}

const char *advice_config_key(enum advice_type type)
{
	if ((unsigned)type >= ADVICE_NR)
		BUG("advice type %d out of range", (int)type);
	return advice_settings[type].key;
}

/* A git boolean: 1 true, 0 false, -1 neither ("" is true, as "[s] k"). */
static int bool_value(const char *v)
{
	return *v ? parse_bool_text(v) : 1;
}

/* AHD_REPLAY_ADVICE set to a false value: every typed hint is off. */
static int advice_env_off(void)
{
	const char *v = getenv("AHD_REPLAY_ADVICE");

	return v && *v && !bool_value(v);
}

static enum advice_state read_setting(const char *key)
{
	struct strbuf value = STRBUF_INIT, err = STRBUF_INIT;
	enum advice_state state = ADVICE_ON;
	int rc;

	if (!advice_read)
		return ADVICE_ON;
	rc = advice_read(&value, key, &err);
	/* a hint is never worth failing a command for: warn, keep it on */
	if (rc < 0)
		warning("%s", err.buf);
	else if (rc && bool_value(value.buf) < 0)
		warning("invalid %s '%s' (a boolean)", key, value.buf);
	else if (rc && !bool_value(value.buf))
		state = ADVICE_OFF;
	strbuf_release(&value);
	strbuf_release(&err);
	return state;
}

int advice_enabled(enum advice_type type)
{
	struct advice_setting *s;

	advice_config_key(type);	/* BUG() on a type out of range */
	s = &advice_settings[type];
	if (advice_env_off())
		return 0;
	if (s->state == ADVICE_UNREAD)
		s->state = read_setting(s->key);
	return s->state == ADVICE_ON;
}

static void vadvise(const char *fmt, va_list ap)
{
	struct strbuf text = STRBUF_INIT;
	const char *line, *end;

	strbuf_vaddf(&text, fmt, ap);
	fflush(stdout);
	for (line = text.buf; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		fprintf(stderr, "hint: %.*s\n", (int)(end - line), line);
	}
	strbuf_release(&text);
}

void advise(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadvise(fmt, ap);
	va_end(ap);
}

void advise_once(enum advice_type type, const char *fmt, ...)
{
	va_list ap;

	if (!advice_enabled(type) || advice_settings[type].shown)
		return;
	advice_settings[type].shown = 1;
	va_start(ap, fmt);
	vadvise(fmt, ap);
	va_end(ap);
	advise("Disable this message with \"git config %s false\"",
	       advice_settings[type].key);
}
