/*
 * A JSON Schema validator for the keywords of schema/replay.schema.json.
 *
 * Compiling walks the whole schema once, refuses what we do not
 * implement and compiles each pattern, so that validation itself cannot
 * fail: it only collects violations.  Validation follows the schema, not
 * the document, so its recursion is bounded by the schema's depth.
 */
#include "config.h"
#include "jsonschema.h"

#include <jansson.h>
#include "datetime.h"
#include "ecmaregex.h"
#include "jsonout.h"
#include "fs/readfile.h"
#include "numfmt.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Schemas are small; refuse anything that is clearly not one. */
#define SCHEMA_MAX_SIZE ((size_t)16 << 20)

struct compiled_pattern {
	const json_t *node;	/* the "pattern" string in the schema */
	regex_t re;
};

struct jsonschema {
	json_t *root;
	struct compiled_pattern *pat;
	size_t pat_nr, pat_alloc;
};

static const char *const annotations[] = {
	"$schema", "$id", "id", "$comment", "title", "description", "default",
	"examples", NULL,
};

static const char *const type_names[] = {
	"null", "boolean", "object", "array", "number", "integer", "string",
	NULL,
};

void jsonschema_errors_release(struct jsonschema_errors *errs)
{
	size_t i;

	for (i = 0; i < errs->nr; i++) {
		free(errs->v[i].path);
		free(errs->v[i].message);
	}
	free(errs->v);
	errs->v = NULL;
	errs->nr = errs->alloc = 0;
}

/* Append key to a JSON Pointer, escaping '~' and '/' (RFC 6901). */
static void pointer_add(struct strbuf *sb, const char *key)
{
	strbuf_addch(sb, '/');
	for (; *key; key++) {
		if (*key == '~')
			strbuf_addstr(sb, "~0");
		else if (*key == '/')
			strbuf_addstr(sb, "~1");
		else
			strbuf_addch(sb, *key);
	}
}

static void pointer_add_index(struct strbuf *sb, size_t i)
{
	strbuf_addf(sb, "/%zu", i);
}

static int is_integral(const json_t *v)
{
	double d;

	if (json_is_integer(v))
		return 1;
	if (!json_is_real(v))
		return 0;
	d = json_real_value(v);
	return isfinite(d) && d == floor(d);
}

/*
 * Append v as compact JSON for a message, numbers as JavaScript prints
 * them (1, not jansson's 1.0).  Only schema values reach here.
 */
static void add_json(struct strbuf *sb, const json_t *v)
{
	jsonout_write(sb, (const struct jval *)v, JSONOUT_COMPACT,
		      JSONOUT_ESCAPE_CONTROLS);
}

static int compile_pattern(struct jsonschema *s, const json_t *node,
			   struct strbuf *err)
{
	struct compiled_pattern *cp;

	ALLOC_GROW(s->pat, s->pat_nr + 1, s->pat_alloc);
	cp = &s->pat[s->pat_nr];
	if (ecmaregex_compile(&cp->re, json_string_value(node),
			      json_string_length(node), err))
		return -1;
	cp->node = node;
	s->pat_nr++;
	return 0;
}

static const regex_t *find_pattern(const struct jsonschema *s,
				   const json_t *node)
{
	size_t i;

	for (i = 0; i < s->pat_nr; i++)
		if (s->pat[i].node == node)
			return &s->pat[i].re;
	BUG("pattern not compiled");
}

/* ------------------------------------------------------------------ */
/* Compiling: the keyword check */

static int check_schema(struct jsonschema *s, const json_t *schema,
			struct strbuf *where, struct strbuf *err);

static int bad_schema(struct strbuf *err, const struct strbuf *where,
		      const char *key, const char *why)
{
	strbuf_addf(err, "%s/%s: %s", where->buf, key, why);
	return -1;
}

static int check_type_name(const json_t *v)
{
	return json_is_string(v) && str_in_list(type_names, json_string_value(v));
}

static int check_type(const json_t *v)
{
	size_t i, j;
	json_t *item;

	if (json_is_string(v))
		return check_type_name(v) ? 0 : -1;
	if (!json_is_array(v) || !json_array_size(v))
		return -1;
	json_array_foreach(v, i, item) {
		if (!check_type_name(item))
			return -1;
		for (j = 0; j < i; j++)
			if (!strcmp(json_string_value(item),
				    json_string_value(json_array_get(v, j))))
				return -1;
	}
	return 0;
}

/* Check every element of an array of schemas (anyOf). */
static int check_schema_array(struct jsonschema *s, const json_t *v,
			      struct strbuf *where, const char *key,
			      struct strbuf *err)
{
	size_t i, len = where->len;
	json_t *item;
	int ret = 0;

	json_array_foreach(v, i, item) {
		pointer_add(where, key);
		pointer_add_index(where, i);
		ret = check_schema(s, item, where, err);
		strbuf_setlen(where, len);
		if (ret)
			break;
	}
	return ret;
}

static int check_keyword(struct jsonschema *s, const json_t *schema,
			 const char *key, const json_t *v,
			 struct strbuf *where, struct strbuf *err)
{
	size_t len = where->len;
	const char *k;
	json_t *item;
	size_t i;
	int ret;

	if (str_in_list(annotations, key) || !strcmp(key, "const"))
		return 0;
	if (!strcmp(key, "type")) {
		if (check_type(v))
			return bad_schema(err, where, key, "must be a type "
					  "name or an array of distinct type "
					  "names");
		return 0;
	}
	if (!strcmp(key, "enum")) {
		if (!json_is_array(v) || !json_array_size(v))
			return bad_schema(err, where, key,
					  "must be a non-empty array");
		return 0;
	}
	if (!strcmp(key, "minLength")) {
		if (!is_integral(v) || json_number_value(v) < 0)
			return bad_schema(err, where, key,
					  "must be a non-negative integer");
		return 0;
	}
	if (!strcmp(key, "minimum")) {
		if (!json_is_number(v))
			return bad_schema(err, where, key, "must be a number");
		return 0;
	}
	if (!strcmp(key, "exclusiveMinimum")) {
		if (json_is_boolean(v) && !json_object_get(schema, "minimum"))
			return bad_schema(err, where, key, "a boolean "
					  "exclusiveMinimum needs minimum");
		if (!json_is_boolean(v) && !json_is_number(v))
			return bad_schema(err, where, key,
					  "must be a boolean or a number");
		return 0;
	}
	if (!strcmp(key, "format")) {
		if (!json_is_string(v))
			return bad_schema(err, where, key, "must be a string");
		if (strcmp(json_string_value(v), "date-time")) {
			strbuf_addf(err, "%s/%s: unsupported format '%s'",
				    where->buf, key, json_string_value(v));
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "pattern")) {
		size_t elen;

		if (!json_is_string(v))
			return bad_schema(err, where, key, "must be a string");
		elen = err->len;
		strbuf_addf(err, "%s/%s: ", where->buf, key);
		if (compile_pattern(s, v, err))
			return -1;
		strbuf_setlen(err, elen);
		return 0;
	}
	if (!strcmp(key, "required")) {
		if (!json_is_array(v))
			return bad_schema(err, where, key,
					  "must be an array of strings");
		json_array_foreach(v, i, item)
			if (!json_is_string(item))
				return bad_schema(err, where, key, "must be an "
						  "array of strings");
		return 0;
	}
	if (!strcmp(key, "properties")) {
		if (!json_is_object(v))
			return bad_schema(err, where, key, "must be an object");
		json_object_foreach((json_t *)v, k, item) {
			pointer_add(where, key);
			pointer_add(where, k);
			ret = check_schema(s, item, where, err);
			strbuf_setlen(where, len);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (!strcmp(key, "additionalProperties") || !strcmp(key, "items")) {
		if (json_is_array(v) && !strcmp(key, "items"))
			return bad_schema(err, where, key, "unsupported form "
					  "(an array of schemas)");
		pointer_add(where, key);
		ret = check_schema(s, v, where, err);
		strbuf_setlen(where, len);
		return ret;
	}
	if (!strcmp(key, "anyOf")) {
		if (!json_is_array(v) || !json_array_size(v))
			return bad_schema(err, where, key,
					  "must be a non-empty array");
		return check_schema_array(s, v, where, key, err);
	}
	strbuf_addf(err, "%s: unsupported keyword '%s'",
		    where->len ? where->buf : "(root)", key);
	return -1;
}

static int check_schema(struct jsonschema *s, const json_t *schema,
			struct strbuf *where, struct strbuf *err)
{
	const char *key;
	json_t *v;

	if (json_is_boolean(schema))
		return 0;
	if (!json_is_object(schema)) {
		strbuf_addf(err, "%s: a schema must be an object or a boolean",
			    where->len ? where->buf : "(root)");
		return -1;
	}
	json_object_foreach((json_t *)schema, key, v)
		if (check_keyword(s, schema, key, v, where, err))
			return -1;
	return 0;
}

int jsonschema_compile(struct jsonschema **out, struct jval *schema_doc,
		       struct strbuf *err)
{
	json_t *schema = (json_t *)schema_doc;
	struct jsonschema *s = xcalloc(1, sizeof(*s));
	struct strbuf where = STRBUF_INIT;
	int ret = -1;

	s->root = json_incref(schema);
	if (check_schema(s, schema, &where, err))
		goto out;
	*out = s;
	s = NULL;
	ret = 0;
out:
	jsonschema_free(s);
	strbuf_release(&where);
	return ret;
}

int jsonschema_load(struct jsonschema **out, const char *path,
		    struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	json_t *schema = NULL;
	json_error_t jerr;
	int ret = -1;

	if (read_file_limited(&buf, path, SCHEMA_MAX_SIZE, &why) ==
	    INPUT_ETOOBIG) {
		strbuf_addstr(err, "larger than the limit of 16 MiB");
		goto out;
	} else if (why.len) {
		strbuf_addbuf(err, &why);
		goto out;
	}
	schema = json_loadb(buf.buf, buf.len,
			    JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL, &jerr);
	if (!schema) {
		strbuf_addf(err, "invalid JSON: %s (line %d, column %d)",
			    jerr.text, jerr.line, jerr.column);
		goto out;
	}
	if (jsonschema_compile(out, (struct jval *)schema, err))
		goto out;
	ret = 0;
out:
	json_decref(schema);
	strbuf_release(&buf);
	strbuf_release(&why);
	return ret;
}

void jsonschema_free(struct jsonschema *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->pat_nr; i++)
		regfree(&s->pat[i].re);
	free(s->pat);
	json_decref(s->root);
	free(s);
}

/* ------------------------------------------------------------------ */
/* RFC 3339 date-time */

int jsonschema_is_date_time(const char *s, size_t len)
{
	return !datetime_parse(s, len, DATETIME_RFC3339, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Validation */

struct vctx {
	const struct jsonschema *schema;
	struct jsonschema_errors *out;
	struct strbuf path;
};

static void add_error(struct vctx *c, const char *keyword,
		      struct strbuf *msg)
{
	struct jsonschema_error *e;

	ALLOC_GROW(c->out->v, c->out->nr + 1, c->out->alloc);
	e = &c->out->v[c->out->nr++];
	e->path = xstrdup(c->path.buf);
	e->message = strbuf_detach(msg, NULL);
	e->keyword = keyword;
}

static void add_errorf(struct vctx *c, const char *keyword, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));

static void add_errorf(struct vctx *c, const char *keyword, const char *fmt,
		       ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	add_error(c, keyword, &msg);
}

static int has_type(const json_t *v, const char *name)
{
	if (!strcmp(name, "null"))
		return json_is_null(v);
	if (!strcmp(name, "boolean"))
		return json_is_boolean(v);
	if (!strcmp(name, "object"))
		return json_is_object(v);
	if (!strcmp(name, "array"))
		return json_is_array(v);
	if (!strcmp(name, "number"))
		return json_is_number(v);
	if (!strcmp(name, "integer"))
		return is_integral(v);
	if (!strcmp(name, "string"))
		return json_is_string(v);
	BUG("unknown type name '%s'", name);
}

/* "must be string", "must be string or null", "must be a, b or c". */
static void add_type_error(struct vctx *c, const char *const *names,
			   size_t n)
{
	struct strbuf msg = STRBUF_INIT;
	size_t i;

	strbuf_addstr(&msg, "must be ");
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&msg, i + 1 == n ? " or " : ", ");
		strbuf_addstr(&msg, names[i]);
	}
	add_error(c, "type", &msg);
}

/* Append the names of a "type" value to names, without repeats. */
static void collect_types(const char **names, size_t *n, const json_t *type)
{
	size_t i, j, count = json_is_array(type) ? json_array_size(type) : 1;

	for (i = 0; i < count; i++) {
		const char *name = json_string_value(json_is_array(type) ?
						     json_array_get(type, i) :
						     type);

		for (j = 0; j < *n; j++)
			if (!strcmp(names[j], name))
				break;
		if (j == *n)
			names[(*n)++] = name;
	}
}

static int check_types(struct vctx *c, const json_t *type, const json_t *doc)
{
	const char *names[7];
	size_t n = 0, i;

	collect_types(names, &n, type);
	for (i = 0; i < n; i++)
		if (has_type(doc, names[i]))
			return 0;
	add_type_error(c, names, n);
	return -1;
}

/* Equality as JSON Schema defines it: numbers by value, objects unordered. */
static int values_equal(const json_t *a, const json_t *b)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
			!memcmp(json_string_value(a), json_string_value(b),
				json_string_length(a));
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!values_equal(json_array_get(a, i),
					  json_array_get(b, i)))
				return 0;
		return 1;
	case JSON_OBJECT:
		if (json_object_size(a) != json_object_size(b))
			return 0;
		json_object_foreach((json_t *)a, key, v) {
			const json_t *w = json_object_get(b, key);

			if (!w || !values_equal(v, w))
				return 0;
		}
		return 1;
	default:
		return 1;
	}
}

static void check_enum(struct vctx *c, const json_t *list, const json_t *doc)
{
	struct strbuf msg = STRBUF_INIT;
	json_t *item;
	size_t i;

	json_array_foreach(list, i, item)
		if (values_equal(item, doc))
			return;
	if (json_array_size(list) == 1) {
		strbuf_addstr(&msg, "must be ");
		add_json(&msg, json_array_get(list, 0));
	} else {
		strbuf_addstr(&msg, "must be one of ");
		json_array_foreach(list, i, item) {
			if (i)
				strbuf_addstr(&msg, ", ");
			add_json(&msg, item);
		}
	}
	add_error(c, "enum", &msg);
}

static void check_string(struct vctx *c, const json_t *schema,
			 const json_t *doc)
{
	const json_t *v;

	v = json_object_get(schema, "minLength");
	if (v && utf8_code_points(json_string_value(doc),
				  json_string_length(doc)) <
	    json_number_value(v)) {
		double min = json_number_value(v);

		if (min == 1)
			add_errorf(c, "minLength", "must not be empty");
		else
			add_errorf(c, "minLength", "must not have fewer than "
				   "%.0f characters", min);
	}
	v = json_object_get(schema, "pattern");
	if (v) {
		const regex_t *re = find_pattern(c->schema, v);
		regmatch_t m[1];
		int rc;

		/* REG_STARTEND: a NUL in the string is not its end. */
		m[0].rm_so = 0;
		m[0].rm_eo = (regoff_t)json_string_length(doc);
		rc = regexec(re, json_string_value(doc), 1, m, REG_STARTEND);
		if (rc == REG_NOMATCH) {
			struct strbuf msg = STRBUF_INIT;

			strbuf_addstr(&msg, "must match pattern ");
			add_json(&msg, v);
			add_error(c, "pattern", &msg);
		} else if (rc) {
			die("out of memory matching a pattern");
		}
	}
	v = json_object_get(schema, "format");
	if (v && !jsonschema_is_date_time(json_string_value(doc),
					  json_string_length(doc)))
		add_errorf(c, "format", "must be an RFC 3339 date-time");
}

static void check_number(struct vctx *c, const json_t *schema,
			 const json_t *doc)
{
	const json_t *min = json_object_get(schema, "minimum");
	const json_t *excl = json_object_get(schema, "exclusiveMinimum");
	double d = json_number_value(doc);
	char num[NUMFMT_MAX];

	if (min) {
		double m = json_number_value(min);
		int strict = json_is_true(excl);

		numfmt_es(num, m);
		if (strict ? !(d > m) : !(d >= m))
			add_errorf(c, "minimum", "must be %s %s",
				   strict ? ">" : ">=", num);
	}
	if (json_is_number(excl) && !(d > json_number_value(excl))) {
		numfmt_es(num, json_number_value(excl));
		add_errorf(c, "exclusiveMinimum", "must be > %s", num);
	}
}

static void validate_node(struct vctx *c, const json_t *schema,
			  const json_t *doc);

static void check_object(struct vctx *c, const json_t *schema,
			 const json_t *doc)
{
	const json_t *required = json_object_get(schema, "required");
	const json_t *props = json_object_get(schema, "properties");
	const json_t *extra = json_object_get(schema, "additionalProperties");
	size_t len = c->path.len, i;
	const char *key;
	json_t *v;

	json_array_foreach(required, i, v)
		if (!json_object_get(doc, json_string_value(v)))
			add_errorf(c, "required", "must have required "
				   "property '%s'", json_string_value(v));
	json_object_foreach((json_t *)doc, key, v) {
		const json_t *sub = props ? json_object_get(props, key) : NULL;

		if (!sub)
			sub = extra;
		if (!sub)
			continue;
		pointer_add(&c->path, key);
		if (sub == extra && json_is_false(extra))
			add_errorf(c, "additionalProperties",
				   "is not allowed (additional property)");
		else
			validate_node(c, sub, v);
		strbuf_setlen(&c->path, len);
	}
}

/* Whether every schema of an anyOf has its own "type". */
static int all_typed(const json_t *branches)
{
	json_t *item;
	size_t i;

	json_array_foreach(branches, i, item)
		if (!json_object_get(item, "type"))
			return 0;
	return 1;
}

/*
 * anyOf: when every branch fails, report what helps most.  A branch that
 * failed only on the type of this very value is not what the author
 * meant; if exactly one branch is left, its own errors say what is
 * wrong, and if none is left, one message lists the types allowed.
 */
static void check_any_of(struct vctx *c, const json_t *branches,
			 const json_t *doc)
{
	size_t n = json_array_size(branches), i, j, nr_close = 0, close = 0;
	struct jsonschema_errors *saved = c->out;
	struct jsonschema_errors *tmp = xcalloc(n, sizeof(*tmp));
	const char **names = NULL;
	size_t nr_names = 0;

	for (i = 0; i < n; i++) {
		struct jsonschema_error *e;

		c->out = &tmp[i];
		validate_node(c, json_array_get(branches, i), doc);
		if (!tmp[i].nr)
			goto out;
		e = &tmp[i].v[0];
		if (tmp[i].nr != 1 || strcmp(e->keyword, "type") ||
		    strcmp(e->path, c->path.buf)) {
			nr_close++;
			close = i;
		}
	}
	c->out = saved;
	if (nr_close == 1) {
		for (j = 0; j < tmp[close].nr; j++) {
			ALLOC_GROW(saved->v, saved->nr + 1, saved->alloc);
			saved->v[saved->nr++] = tmp[close].v[j];
		}
		tmp[close].nr = 0;
	} else if (!nr_close && all_typed(branches)) {
		names = xcalloc(n * 7, sizeof(*names));
		for (i = 0; i < n; i++)
			collect_types(names, &nr_names,
				      json_object_get(json_array_get(branches,
								     i),
						      "type"));
		add_type_error(c, names, nr_names);
	} else {
		add_errorf(c, "anyOf", "must match a schema in anyOf");
	}
out:
	c->out = saved;
	for (i = 0; i < n; i++)
		jsonschema_errors_release(&tmp[i]);
	free(tmp);
	free(names);
}

static void validate_node(struct vctx *c, const json_t *schema,
			  const json_t *doc)
{
	const json_t *v;
	size_t len = c->path.len, i;
	json_t *item;

	if (json_is_true(schema))
		return;
	if (json_is_false(schema)) {
		add_errorf(c, "false", "is not allowed");
		return;
	}
	/* A value of the wrong type would only collect noise below. */
	v = json_object_get(schema, "type");
	if (v && check_types(c, v, doc))
		return;
	v = json_object_get(schema, "const");
	if (v && !values_equal(v, doc)) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addstr(&msg, "must be ");
		add_json(&msg, v);
		add_error(c, "const", &msg);
	}
	v = json_object_get(schema, "enum");
	if (v)
		check_enum(c, v, doc);
	if (json_is_string(doc)) {
		check_string(c, schema, doc);
	} else if (json_is_number(doc)) {
		check_number(c, schema, doc);
	} else if (json_is_object(doc)) {
		check_object(c, schema, doc);
	} else if (json_is_array(doc) &&
		   (v = json_object_get(schema, "items"))) {
		json_array_foreach(doc, i, item) {
			pointer_add_index(&c->path, i);
			validate_node(c, v, item);
			strbuf_setlen(&c->path, len);
		}
	}
	v = json_object_get(schema, "anyOf");
	if (v)
		check_any_of(c, v, doc);
}

int jsonschema_validate(struct jsonschema_errors *out,
			const struct jsonschema *schema,
			const struct jval *doc_v)
{
	const json_t *doc = (const json_t *)doc_v;
	struct vctx c;
	size_t before = out->nr;

	c.schema = schema;
	c.out = out;
	strbuf_init(&c.path, 0);
	validate_node(&c, schema->root, doc);
	strbuf_release(&c.path);
	return out->nr > before;
}
