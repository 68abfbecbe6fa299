#include "config.h"
#include "parse-options.h"
#include "usage.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void usage_help(const char *usage)
{
	fputs(usage, stdout);
	exit(finish_stdout(0));
}

void usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (fmt) {
		fputs("ahd-replay: ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fputs(usage, stderr);
	exit(2);
}

int parse_size(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	v <<= shift;
	if (v > (size_t)-1)
		return -1;
	*out = (size_t)v;
	return 0;
}

void reset_getopt(void)
{
	/* glibc re-initialises fully when optind is 0. */
	optind = 0;
	opterr = 0;
}

enum output_format parse_output_format(const char *arg, int allow_github,
				       const char *usage)
{
	if (!strcmp(arg, "text"))
		return FORMAT_TEXT;
	if (!strcmp(arg, "json"))
		return FORMAT_JSON;
	if (allow_github && !strcmp(arg, "github"))
		return FORMAT_GITHUB;
	usage_error(usage, "unknown --format '%s' (%s)", arg,
		    allow_github ? "text, json or github" : "text or json");
}
