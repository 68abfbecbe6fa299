/*
 * A node's properties (anchor, tag) as yaml@2.8.3 reads them from the
 * source, and the checks that libyaml read the same ones.
 */
#include "config.h"
#include "yamlload.h"
#include "usage.h"

#include <string.h>
#include <yaml.h>
#include "yamlload-int.h"

size_t yl_name_end(const char *s, size_t i, size_t end)
{
	while (i < end && !strchr(" \t\r\n,[]{}", s[i]))
		i++;
	return i;
}


/*
 * Skip the properties (anchor, tag), white space and comments in front of
 * a node's content, noting the first anchor and tag in *p (a later one
 * belongs to a child).  Names may run past `end` (libyaml's end of the
 * node), up to len.
 */
size_t yl_skip_props(const char *s, size_t i, size_t end, size_t len,
			 struct yl_props *p)
{
	memset(p, 0, sizeof(*p));
	while (i < end) {
		char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			i++;
		else if (c == '#') {
			while (i < end && s[i] != '\n')
				i++;
		} else if (c == '&') {
			size_t e = yl_name_end(s, i + 1, len);

			if (!p->anchor) {
				p->anchor = s + i + 1;
				p->anchor_len = e - i - 1;
			}
			i = e;
		} else if (c == '!') {
			size_t b = i;

			while (i < len && s[i] != ' ' && s[i] != '\t' &&
			       s[i] != '\n' && s[i] != '\r')
				i++;
			if (!p->tag) {
				p->tag = s + b;
				p->tag_len = i - b;
			}
		} else
			break;
	}
	return i;
}

/*
 * yaml splits a tag at its last '!' (libyaml at its second), and
 * refuses a tag without a suffix.  Where the two would read a tag
 * differently, yaml cannot resolve it.
 */
int yl_check_tag(struct loader *ld, const struct yl_props *p,
		     const yaml_mark_t *mark)
{
	const char *t = p->tag;
	size_t n = p->tag_len, last = 0, lib_end, i;

	if (!t || n < 2 || t[1] == '<')
		return 0;
	for (i = 0; i < n; i++)
		if (t[i] == '!')
			last = i;
	lib_end = t[1] == '!' ? 1 : 0;
	for (i = 1; !lib_end && i < n; i++)
		if (t[i] == '!')
			lib_end = i;
	if (last == n - 1)
		return yl_fail(ld, LOAD_EINVALID, mark, "the tag %.*s has no suffix",
			    (int)n, t);
	if (last != lib_end)
		return yl_fail(ld, ld->has_tag_directive ? LOAD_EUNSUPPORTED :
			    LOAD_EINVALID, mark, "could not resolve tag %.*s",
			    (int)n, t);
	return 0;
}

/*
 * The tag as yaml names it, for printing it in a collection key: a
 * verbatim tag's text and a local tag ("!x", no handle) as written,
 * where libyaml decoded their %-escapes.
 */
const char *yl_tag_name(struct loader *ld, const char *tag,
				 const struct yl_props *p)
{
	size_t n;

	if (!tag || !p->tag)
		return tag;
	if (p->tag_len > 3 && p->tag[1] == '<') {
		const char *e = memchr(p->tag, '>', p->tag_len);

		return e ? arena_memdup(ld->arena, p->tag + 2,
					(size_t)(e - p->tag - 2)) : tag;
	}
	for (n = 1; n < p->tag_len && !strchr("!,[]{}", p->tag[n]); n++)
		;
	if (tag[0] == '!' && (n == p->tag_len || p->tag[n] != '!') &&
	    memchr(p->tag, '%', n))
		return arena_memdup(ld->arena, p->tag, n);
	return tag;
}

/*
 * libyaml gets letters for the characters of an anchor name it would
 * not take (yamlfix.c), so both read names of the same length.
 */
int yl_check_name(struct loader *ld, const char *name, size_t yaml_len,
		      const yaml_mark_t *mark)
{
	if (strlen(name) != yaml_len)
		return yl_fail(ld, LOAD_EUNSUPPORTED, mark,
			    "an anchor name libyaml reads differently");
	return 0;
}
