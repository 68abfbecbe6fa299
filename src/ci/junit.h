#ifndef JUNIT_H
#define JUNIT_H

#include "outcome.h"
#include "strbuf.h"

/*
 * JUnit XML, as CI test reporters read it: <testsuites> holding one
 * <testsuite> named after the command, a <testcase> per case (classname
 * the report or file, name the check); a failure carries its rule as
 * type and its message, an error (cannot tell) is <error>, a case not
 * checked is <skipped>.  The counts on both elements are the cases'.
 * Text is escaped for XML 1.0; characters it cannot hold at all
 * (control characters, invalid UTF-8) become U+FFFD.
 */
void junit_write(struct strbuf *out, const struct outcome *o);

#endif
