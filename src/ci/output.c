/*
 * Extra output files (see output.h).
 */
#include "config.h"
#include "output.h"
#include "fs/write.h"
#include "junit.h"
#include "sarif.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *format_name(enum output_format f)
{
	switch (f) {
	case FORMAT_JSON: return "json";
	case FORMAT_SARIF: return "sarif";
	case FORMAT_JUNIT: return "junit";
	default: return "text";
	}
}

int parse_opt_output(const struct parse_opt *opt, const char *arg)
{
	struct output_list *l = opt->value;
	const char *colon = strchr(arg, ':');
	enum output_format f;
	size_t n = colon ? (size_t)(colon - arg) : 0;

	if (!colon || !colon[1])
		return error("--output wants <format>:<file>, not '%s'", arg);
	if (n == 4 && !strncmp(arg, "json", 4))
		f = FORMAT_JSON;
	else if (n == 5 && !strncmp(arg, "sarif", 5))
		f = FORMAT_SARIF;
	else if (n == 5 && !strncmp(arg, "junit", 5))
		f = FORMAT_JUNIT;
	else
		return error("--output: unknown format '%.*s' (json, sarif or "
			     "junit)", (int)n, arg);
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].format = f;
	l->v[l->nr].path = colon + 1;
	l->nr++;
	return 0;
}

int output_wants(const struct output_list *l, enum output_format stdout_fmt,
		 enum output_format format)
{
	size_t i;

	if (stdout_fmt == format)
		return 1;
	for (i = 0; i < l->nr; i++)
		if (l->v[i].format == format)
			return 1;
	return 0;
}

/* Does text look like what we write in format? */
static int ours(const char *text, enum output_format f)
{
	switch (f) {
	case FORMAT_SARIF:
		return !!strstr(text, "\"name\": \"ahd-replay\"") &&
			!!strstr(text, "\"version\": \"2.1.0\"");
	case FORMAT_JUNIT:
		return !strncmp(text, "<?xml", 5) &&
			!!strstr(text, "<testsuites name=\"ahd-replay ");
	case FORMAT_JSON:
		/* verify's and log verify's documents; validate's list */
		return (*text == '{' && strstr(text, "\n  \"exit_status\": ")) ||
			(*text == '[' && strstr(text, "\n    \"valid\": ")) ||
			!strcmp(text, "[]\n");
	default:
		return 0;
	}
}

/* ours() for write_output_file(): data is the format. */
static int recognise(const char *text, void *data)
{
	return ours(text, *(const enum output_format *)data);
}

/*
 * 0 when path may be written in format; -1 with the reason in err.  The
 * rule is every output file's (fs/write.h): an earlier output of ours
 * is replaced, a FIFO or device written through, nothing else touched.
 */
static int writable(const char *path, enum output_format f,
		    struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT;
	int ret;

	strbuf_addf(&what, "%s output", format_name(f));
	ret = output_file_check(path, what.buf, recognise, &f, err);
	strbuf_release(&what);
	return ret;
}

int output_check(const struct output_list *l)
{
	struct strbuf err = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	for (i = 0; i < l->nr; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(l->v[k].path, l->v[i].path))
				break;
		if (k < i)
			ret = error("--output names %s twice", l->v[i].path);
		else if (writable(l->v[i].path, l->v[i].format, &err)) {
			ret = error("--output: %s", err.buf);
			strbuf_reset(&err);
		}
	}
	strbuf_release(&err);
	return ret;
}

int output_write(const struct output_list *l, enum output_format format,
		 const char *text, size_t len)
{
	struct strbuf err = STRBUF_INIT, what = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < l->nr; i++) {
		if (l->v[i].format != format)
			continue;
		strbuf_reset(&what);
		strbuf_addf(&what, "%s output", format_name(format));
		/* checked again: the run may have taken long enough */
		if (write_output_file(l->v[i].path, text, len, 0666, what.buf,
				      recognise, &format, &err)) {
			ret = error("--output: %s", err.buf);
			strbuf_reset(&err);
		}
	}
	strbuf_release(&err);
	strbuf_release(&what);
	return ret;
}

void output_format_outcome(struct strbuf *out, enum output_format format,
			   const struct outcome *o, int status)
{
	if (format == FORMAT_SARIF)
		sarif_write(out, o, status);
	else if (format == FORMAT_JUNIT)
		junit_write(out, o);
}

int output_outcome(const struct output_list *l, enum output_format stdout_fmt,
		   const struct outcome *o, int status)
{
	static const enum output_format formats[] = {
		FORMAT_SARIF, FORMAT_JUNIT
	};
	size_t i;
	int ret = 0;

	for (i = 0; i < 2; i++) {
		struct strbuf text = STRBUF_INIT;

		if (!output_wants(l, stdout_fmt, formats[i]))
			continue;
		output_format_outcome(&text, formats[i], o, status);
		if (stdout_fmt == formats[i])
			fwrite(text.buf, 1, text.len, stdout);
		if (output_write(l, formats[i], text.buf, text.len))
			ret = -1;
		strbuf_release(&text);
	}
	return ret;
}

void output_list_release(struct output_list *l)
{
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
