#ifndef YAML11_H
#define YAML11_H

#include <stddef.h>
#include "strbuf.h"
#include "json/value.h"

/*
 * yaml@2.8.3's YAML 1.1 schema, which a document starting with
 * "%YAML 1.1" is read with: booleans y/yes/on/..., binary, octal (0777),
 * sexagesimal (190:20:30) and underscored numbers, timestamps (Dates,
 * canonically {}), and "<<" merge keys.
 */

/*
 * Resolve one scalar as yaml's 1.1 schema does, like
 * yl_resolve_scalar(), except that `plain` only says the scalar was
 * written plain (tagged or not); at_key says it is a mapping key, where a
 * plain "<<" is a merge key (VALUE_YF_MERGE_KEY).  Returns 0 or
 * LOAD_EINVALID / LOAD_EUNSUPPORTED with a reason appended to why.
 */
int yaml11_resolve_scalar(struct value *v, struct arena *arena, const char *s,
			  size_t n, int plain, const char *tag, int at_key,
			  struct strbuf *why);

/*
 * Apply the merge keys of a complete map: its pairs become those of the
 * JavaScript object yaml builds (merged keys that the map already has,
 * or that an earlier source gave, are skipped; keys after a merge
 * override it).  The original pairs stay reachable through
 * yaml11_original() for alias counting.  Returns 0 or LOAD_EINVALID /
 * LOAD_EUNSUPPORTED with a reason appended to why.
 */
int yaml11_merge(struct value *map, struct arena *arena, struct strbuf *why);

/*
 * The collection as written, before yaml11_merge() or the conversion
 * of a !!set, !!omap or !!pairs (yamlspecial.c) rewrote it: for a value
 * with one of the flags in YAML11_REWRITTEN.
 */
#define YAML11_REWRITTEN (VALUE_YF_MERGED | VALUE_YF_SET | VALUE_YF_OMAP | \
			  VALUE_YF_PAIRS)
const struct value *yaml11_original(const struct value *v);

/* 1 for a YAML 1.1 spelling of true, 0 of false, -1 for neither. */
int yaml11_bool_form(const char *s, size_t n);

/*
 * The format yaml's 1.1 schema notes for a number written as s: 'b', 'o',
 * 'x' (binary, octal, hexadecimal), 'e' (exponent), 't' (sexagesimal) or
 * 0, with *min_frac set for a plain float whose fraction ends in 0.
 */
int yaml11_number_format(const char *s, size_t n, size_t *min_frac);

#endif
