/*
 * JUnit XML output (see junit.h).
 */
#include "config.h"
#include "junit.h"
#include "utf8.h"

#include <string.h>

/* s as XML character data or an attribute value (quotes escaped too). */
static void xml_escape(struct strbuf *out, const char *s)
{
	struct strbuf valid = STRBUF_INIT;
	const char *p;

	utf8_repair(&valid, s, strlen(s));
	for (p = valid.buf; *p; p++) {
		unsigned char c = (unsigned char)*p;

		switch (c) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&apos;"); break;
		/* kept in text, escaped so attributes keep them too */
		case '\t': strbuf_addstr(out, "&#9;"); break;
		case '\n': strbuf_addstr(out, "&#10;"); break;
		case '\r': strbuf_addstr(out, "&#13;"); break;
		default:
			if (c < 0x20 || c == 0x7f)
				strbuf_addstr(out, "\xef\xbf\xbd");
			else if (c == 0xef && (unsigned char)p[1] == 0xbf &&
				 ((unsigned char)p[2] == 0xbe ||
				  (unsigned char)p[2] == 0xbf)) {
				/* U+FFFE and U+FFFF are not XML characters */
				strbuf_addstr(out, "\xef\xbf\xbd");
				p += 2;
			} else
				strbuf_addch(out, (char)c);
		}
	}
	strbuf_release(&valid);
}

static void counts(const struct outcome *o, size_t *failures, size_t *errors,
		   size_t *skipped)
{
	size_t i;

	*failures = *errors = *skipped = 0;
	for (i = 0; i < o->nr; i++)
		switch (o->v[i].status) {
		case OUTCOME_FAIL: (*failures)++; break;
		case OUTCOME_ERROR: (*errors)++; break;
		case OUTCOME_SKIPPED: (*skipped)++; break;
		default: break;
		}
}

static void testcase(struct strbuf *out, const struct outcome_case *c)
{
	static const char *const tags[] = {
		NULL, "failure", "error", "skipped", NULL,
	};
	const char *tag = tags[c->status];

	strbuf_addstr(out, "    <testcase classname=\"");
	xml_escape(out, c->group);
	strbuf_addstr(out, "\" name=\"");
	xml_escape(out, c->name);
	strbuf_addch(out, '"');
	if (c->file) {
		strbuf_addstr(out, " file=\"");
		xml_escape(out, c->file);
		strbuf_addch(out, '"');
		if (c->line > 0)
			strbuf_addf(out, " line=\"%ld\"", c->line);
	}
	if (!tag && (c->status != OUTCOME_WARNING || !c->message)) {
		strbuf_addstr(out, "/>\n");
		return;
	}
	strbuf_addstr(out, ">\n");
	if (!tag) {
		/* a warning passes; its message is kept as output */
		strbuf_addstr(out, "      <system-out>");
		xml_escape(out, c->message);
		strbuf_addstr(out, "</system-out>\n");
	} else {
		strbuf_addf(out, "      <%s", tag);
		if (c->rule && c->status != OUTCOME_SKIPPED) {
			strbuf_addstr(out, " type=\"");
			xml_escape(out, c->rule);
			strbuf_addch(out, '"');
		}
		if (c->message) {
			strbuf_addstr(out, " message=\"");
			xml_escape(out, c->message);
			strbuf_addstr(out, "\">");
			xml_escape(out, c->message);
			strbuf_addf(out, "</%s>\n", tag);
		} else
			strbuf_addstr(out, "/>\n");
	}
	strbuf_addstr(out, "    </testcase>\n");
}

void junit_write(struct strbuf *out, const struct outcome *o)
{
	struct strbuf name = STRBUF_INIT, attrs = STRBUF_INIT;
	size_t failures, errors, skipped, i;

	counts(o, &failures, &errors, &skipped);
	strbuf_addf(&name, "ahd-replay %s", o->command);
	strbuf_addf(&attrs, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		    "skipped=\"%zu\"", o->nr, failures, errors, skipped);
	strbuf_addstr(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(out, "<testsuites name=\"%s\"%s>\n", name.buf, attrs.buf);
	strbuf_addf(out, "  <testsuite name=\"%s\"%s>\n", name.buf, attrs.buf);
	for (i = 0; i < o->nr; i++)
		testcase(out, &o->v[i]);
	strbuf_addstr(out, "  </testsuite>\n</testsuites>\n");
	strbuf_release(&name);
	strbuf_release(&attrs);
}
