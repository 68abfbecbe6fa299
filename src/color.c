/*
 * Whether to colour output (see color.h).
 */
#include "config.h"
#include "color.h"
#include "parse-options.h"
#include "strbuf.h"
#include "strutil.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static color_config_fn *color_read;
static enum color_when cmdline_when = COLOR_UNSET;
static enum color_when config_when = COLOR_UNSET;
static int config_read;
/* per stream: -1 undecided, else 0 or 1 */
static int decided[3] = { -1, -1, -1 };

void color_init(color_config_fn *read)
{
	color_read = read;
}

int color_parse_when(const char *value, int from_config)
{
	if (!strcasecmp(value, "never"))
		return COLOR_NEVER;
	if (!strcasecmp(value, "always"))
		return COLOR_ALWAYS;
	if (!strcasecmp(value, "auto"))
		return COLOR_AUTO;
	if (!from_config)
		return -1;
	/* git: "any normal truth value defaults to 'auto'" */
	switch (parse_bool_text(value)) {
	case 1:
		return COLOR_AUTO;
	case 0:
		return COLOR_NEVER;
	default:
		return -1;
	}
}

void color_set_cmdline(enum color_when when)
{
	cmdline_when = when;
	decided[1] = decided[2] = -1;
}

/* One key: 1 and *out when set and valid, 0 when unset or invalid. */
static int read_key(enum color_when *out, const char *key)
{
	struct strbuf value = STRBUF_INIT, err = STRBUF_INIT;
	int rc = color_read(&value, key, &err), when;

	if (rc < 0)
		warning("%s", err.buf);
	if (rc <= 0)
		goto out;
	/* "[color] ui" with no value is a true boolean: auto */
	when = value.len ? color_parse_when(value.buf, 1) : COLOR_AUTO;
	if (when < 0) {
		warning("invalid %s '%s' (never, always, auto or a boolean)",
			key, value.buf);
		rc = 0;
		goto out;
	}
	*out = when;
out:
	strbuf_release(&value);
	strbuf_release(&err);
	return rc > 0;
}

static enum color_when configured(void)
{
	if (!config_read && color_read) {
		config_read = 1;
		if (!read_key(&config_when, "ahd-replay.color"))
			read_key(&config_when, "color.ui");
	}
	return config_when;
}

static int auto_color(int fd)
{
	const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");

	if (no_color && *no_color)
		return 0;
	return isatty(fd) && term && strcmp(term, "dumb");
}

int color_want(int fd)
{
	enum color_when when = cmdline_when;

	if (fd != 1 && fd != 2)
		BUG("color_want(%d): only stdout and stderr", fd);
	if (decided[fd] >= 0)
		return decided[fd];
	if (when == COLOR_UNSET)
		when = configured();
	if (when == COLOR_UNSET)
		when = COLOR_AUTO;
	decided[fd] = when == COLOR_AUTO ? auto_color(fd) :
		when == COLOR_ALWAYS;
	return decided[fd];
}

const char *color_code(int fd, const char *code)
{
	return color_want(fd) ? code : "";
}

int parse_opt_color(const struct parse_opt *opt, const char *arg)
{
	int *value = opt->value, when;

	if (opt->defval)
		when = COLOR_NEVER;
	else if (!arg)
		when = COLOR_ALWAYS;
	else if ((when = color_parse_when(arg, 0)) < 0)
		return error("option '--color' expects \"always\", \"auto\" "
			     "or \"never\", not '%s'", arg);
	*value = when;
	color_set_cmdline(when);
	return 0;
}
