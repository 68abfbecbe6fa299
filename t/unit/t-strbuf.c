#include "config.h"
#include "strbuf.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *detached;
	size_t len;
	int i;

	plan(11);
	is_int(0, sb.len, "STRBUF_INIT is empty");
	is_string("", sb.buf, "STRBUF_INIT is a valid C string");
	strbuf_addstr(&sb, "abc");
	is_string("abc", sb.buf, "addstr copies bytes");
	strbuf_add(&sb, "\0d", 2);
	is_int(5, sb.len, "add keeps embedded NULs");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%d-%s", 42, "x");
	is_string("42-x", sb.buf, "addf formats");
	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	is_int(4 + 4000, sb.len, "addf grows the buffer");
	ok(!memcmp(sb.buf + sb.len - 4, "0999", 4), "addf appends in order");
	strbuf_setlen(&sb, 2);
	is_string("42", sb.buf, "setlen truncates and terminates");
	detached = strbuf_detach(&sb, &len);
	ok(len == 2 && !strcmp(detached, "42"), "detach hands over the buffer");
	is_int(0, sb.len, "detach leaves the strbuf empty");
	free(detached);
	/* from no allocation, one format longer than any first guess */
	strbuf_release(&sb);
	strbuf_addf(&sb, "%5000d|%s", 7, "end");
	ok(sb.len == 5004 && sb.buf[4999] == '7' &&
	   !strcmp(sb.buf + 5000, "|end"), "addf formats twice when it grows");
	strbuf_release(&sb);
	strbuf_release(&sb);
	return 0;
}
