#include "config.h"
#include "strutil.h"

#include <string.h>
#include <strings.h>

int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

int str_in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

int is_all_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

int is_all_hex(const char *s, size_t len, enum hex_case hcase)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		      (hcase == HEX_ANY_CASE && c >= 'A' && c <= 'F')))
			return 0;
	}
	return 1;
}

int64_t js_array_index(const char *s, size_t len)
{
	int64_t v = 0;
	size_t i;

	if (!len || len > 10 || (len > 1 && s[0] == '0') ||
	    !is_all_digits(s, len))
		return -1;
	for (i = 0; i < len; i++)
		v = v * 10 + (s[i] - '0');
	return v <= 4294967294LL ? v : -1;
}

int is_sha256_hash(const char *s, enum hex_case hcase)
{
	return starts_with(s, "sha256:") && strlen(s) == 71 &&
		is_all_hex(s + 7, 64, hcase);
}

int parse_bool_text(const char *v)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	return -1;
}

int base64_digit(unsigned char c, int url_too)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || (url_too && c == '-'))
		return 62;
	if (c == '/' || (url_too && c == '_'))
		return 63;
	return -1;
}

int is_yaml_anchor_name(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;

	for (; *s; s++) {
		if (*s <= 0x20 || strchr(",[]{}", *s))
			return 0;
		if ((s[0] == 0xC2 && s[1] == 0xA0) ||
		    (s[0] == 0xE1 && s[1] == 0x9A && s[2] == 0x80) ||
		    (s[0] == 0xE2 && s[1] == 0x80 &&
		     ((s[2] >= 0x80 && s[2] <= 0x8A) || s[2] == 0xA8 ||
		      s[2] == 0xA9 || s[2] == 0xAF)) ||
		    (s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0x9F) ||
		    (s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) ||
		    (s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF))
			return 0;
	}
	return 1;
}
