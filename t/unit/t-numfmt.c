#include "config.h"
#include "json/numfmt.h"
#include "tap.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORTED 20

static double from_bits(uint64_t bits)
{
	double v;

	memcpy(&v, &bits, sizeof(v));
	return v;
}

static uint64_t to_bits(double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	return bits;
}

/* Check both the text and that the returned length agrees with it. */
static void check(const char *want, double v, const char *name)
{
	char buf[NUMFMT_MAX];
	size_t len = numfmt_json(buf, v);

	if (is_string(want, buf, "%s -> %s", name, want) && len != strlen(buf))
		diag("returned length %zu for '%s'", len, buf);
}

static void check_es(const char *want, double v, const char *name)
{
	char buf[NUMFMT_MAX];
	size_t len = numfmt_es(buf, v);

	is_string(want, buf, "numfmt_es(%s) -> %s", name, want);
	if (len != strlen(buf))
		diag("returned length %zu for '%s'", len, buf);
}

static void hand_checks(void)
{
	check("1e+21", 1e21, "1e21");
	check("100000000000000000000", 1e20, "1e20");
	check("999999999999999900000", 999999999999999900000.0,
	      "largest double below 1e21");
	check("1e-7", 1e-7, "1e-7");
	check("0.000001", 0.000001, "1e-6");
	check("-1e-7", -1e-7, "-1e-7");
	check("0.00001", 1e-5, "1e-5");
	check("1.23e-18", 123e-20, "123e-20");
	check("0", 0.0, "0");
	check("0", -0.0, "-0");
	check("5e-324", 0x1p-1074, "2^-1074");
	check("1e-323", 0x1p-1073, "2^-1074*2");
	check("1.5e-323", 0x3p-1074, "2^-1074*3");
	check("2.2250738585072014e-308", 0x1p-1022, "smallest normal");
	check("2.225073858507201e-308", from_bits(0x000fffffffffffffULL),
	      "largest subnormal");
	check("1.7976931348623157e+308", 1.7976931348623157e308,
	      "largest double");
	check("-1.7976931348623157e+308", -1.7976931348623157e308,
	      "most negative double");
	check("8.98846567431158e+307", 0x1p1023, "2^1023");
	check("9007199254740992", 0x1p53, "2^53");
	check("9007199254740994", 0x1p53 + 2, "2^53+2");
	check("9007199254740991", 0x1p53 - 1, "2^53-1");
	check("9007199254740992", 9007199254740993.0, "9007199254740993");
	check("4503599627370496", 0x1p52, "2^52");
	check("9223372036854776000", 0x1p63, "2^63");
	check("-42", -42.0, "-42");
	check("0.5", 0.5, "0.5");
	check("-1.5", -1.5, "-1.5");
	check("0.1", 0.1, "0.1");
	check("0.30000000000000004", 0.1 + 0.2, "0.1+0.2");
	check("0.3333333333333333", 1.0 / 3, "1/3");
	check("4.35", 4.35, "4.35");
	check("123.456", 123.456, "123.456");
	check("5.684341886080802e-14", 0x1p-44, "2^-44");
	check("1.5e+300", 1.5e300, "1.5e300");
	check("1e+22", 1e22, "1e22");
	/*
	 * The double nearest 1e23 is 99999999999999991611392; %.17g prints
	 * 9.9999999999999992e+22 and 9.999999999999999e22 reads back as the
	 * same double, yet "1e+23" is shorter.
	 */
	check("1e+23", 1e23, "1e23");
	check("1e+23", 9.999999999999999e22, "9.999999999999999e22");
	check("1.0000000000000001e+23", from_bits(0x44b52d02c7e14af7ULL),
	      "double above 1e23");
	check("9.999999999999997e+22", from_bits(0x44b52d02c7e14af5ULL),
	      "double below 1e23");

	check_es("NaN", from_bits(0x7ff8000000000000ULL), "NaN");
	check_es("NaN", from_bits(0xfff0000000000001ULL), "-NaN");
	check_es("Infinity", from_bits(0x7ff0000000000000ULL), "+inf");
	check_es("-Infinity", from_bits(0xfff0000000000000ULL), "-inf");
	check_es("0", -0.0, "-0");
	check_es("-2.5", -2.5, "-2.5");
	check("null", from_bits(0x7ff8000000000000ULL), "NaN");
	check("null", from_bits(0x7ff0000000000000ULL), "+inf");
	check("null", from_bits(0xfff0000000000000ULL), "-inf");
}

/*
 * The 20,000 conformance lines are summed up in a few TAP lines so that a
 * failure report stays readable.
 */
static void vector_checks(FILE *fp, const char *path)
{
	char line[256], buf[NUMFMT_MAX];
	int lineno = 0, count = 0, bad = 0, bad_es = 0, malformed = 0;

	while (fgets(line, sizeof(line), fp)) {
		char *comma, *end, *want;
		uint64_t bits;
		double v;
		size_t len;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line)
			continue;
		comma = strchr(line, ',');
		errno = 0;
		bits = strtoull(line, &end, 16);
		if (!comma || end != comma || comma - line != 16 || errno) {
			if (malformed++ < MAX_REPORTED)
				diag("%s:%d: malformed line '%s'", path,
				     lineno, line);
			continue;
		}
		want = comma + 1;
		v = from_bits(bits);
		count++;

		len = numfmt_json(buf, v);
		if (strcmp(buf, want) || len != strlen(buf)) {
			if (bad++ < MAX_REPORTED)
				diag("%s:%d: %016llx: want '%s', got '%s' "
				     "(length %zu)", path, lineno,
				     (unsigned long long)bits, want, buf, len);
		}

		/* numfmt_es differs only for non-finite values. */
		numfmt_es(buf, v);
		if (strcmp(want, "null") && strcmp(buf, want)) {
			if (bad_es++ < MAX_REPORTED)
				diag("%s:%d: %016llx: numfmt_es: want '%s', "
				     "got '%s'", path, lineno,
				     (unsigned long long)bits, want, buf);
		}
	}
	ok(!ferror(fp) && !malformed && count > 0,
	   "read %d vectors from %s", count, path);
	ok(!bad, "numfmt_json matches all %d vectors (%d mismatches)", count,
	   bad);
	ok(!bad_es, "numfmt_es matches all finite vectors (%d mismatches)",
	   bad_es);
}

/* xorshift64*: reproducible bit patterns without libc's rand(). */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(2685821657736338717);
}

/*
 * Random finite doubles must read back exactly and fit NUMFMT_MAX; the
 * output is plain ASCII so strtod in the "C" locale can read it.
 */
static void round_trip_checks(void)
{
	uint64_t state = UINT64_C(0x9e3779b97f4a7c15);
	char buf[NUMFMT_MAX];
	int i, n = 200000, bad = 0;

	for (i = 0; i < n; i++) {
		uint64_t bits = next_random(&state);
		double v = from_bits(bits), back;
		size_t len;

		if (((bits >> 52) & 0x7ff) == 0x7ff)
			continue;
		len = numfmt_json(buf, v);
		back = strtod(buf, NULL);
		if (len >= NUMFMT_MAX || len != strlen(buf) ||
		    (to_bits(back) != bits && !(v == 0 && back == 0))) {
			if (bad++ < MAX_REPORTED)
				diag("%016llx printed as '%s' reads back as "
				     "%016llx", (unsigned long long)bits, buf,
				     (unsigned long long)to_bits(back));
		}
	}
	ok(!bad, "%d random doubles round-trip (%d failures)", n, bad);
}

int main(void)
{
	/* `make check` exports TEST_SRC_DIR; by hand, run from the top. */
	const char *src = getenv("TEST_SRC_DIR");
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/t/vectors/es-numbers/es-numbers.txt",
		 src && *src ? src : ".");
	plan_lazy();
	hand_checks();
	fp = fopen(path, "r");
	if (fp) {
		vector_checks(fp, path);
		fclose(fp);
	} else {
		ok(0, "cannot read %s: %s", path, strerror(errno));
	}
	round_trip_checks();
	return 0;
}
