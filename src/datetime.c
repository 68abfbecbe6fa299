#include "config.h"
#include "datetime.h"

static int digits(const char *s, int n, int *out)
{
	int v = 0;

	while (n--) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s++ - '0');
	}
	*out = v;
	return 0;
}

static int days_in_month(int year, int month)
{
	static const int days[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};

	if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
		return 29;
	return days[month - 1];
}

int64_t datetime_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Whether c is the letter upper (or its lower case, when flags allow). */
static int is_letter(char c, char upper, unsigned flags)
{
	return c == upper ||
		((flags & DATETIME_LOWERCASE) && c == upper - 'A' + 'a');
}

/* The fraction at s[*i] when there is one, as nanoseconds; -1: bad. */
static int fraction(const char *s, size_t len, size_t *i, long *out)
{
	int scale;

	*out = 0;
	if (*i >= len || s[*i] != '.')
		return 0;
	(*i)++;
	if (*i == len || s[*i] < '0' || s[*i] > '9')
		return -1;
	for (scale = 0; *i < len && s[*i] >= '0' && s[*i] <= '9';
	     (*i)++, scale++)
		if (scale < 9)
			*out = *out * 10 + (s[*i] - '0');
	for (; scale < 9; scale++)
		*out *= 10;
	return 0;
}

/* 'Z' or an offset at s[*i], as minutes east of UTC; -1: bad. */
static int zone(const char *s, size_t len, size_t *i, unsigned flags,
		int *minutes)
{
	int oh, om;

	*minutes = 0;
	if (*i < len && is_letter(s[*i], 'Z', flags)) {
		(*i)++;
		return 0;
	}
	if (!(flags & DATETIME_OFFSET) || *i >= len ||
	    (s[*i] != '+' && s[*i] != '-'))
		return -1;
	if (len - *i < 6 || digits(s + *i + 1, 2, &oh) || s[*i + 3] != ':' ||
	    digits(s + *i + 4, 2, &om) || oh > 23 || om > 59)
		return -1;
	*minutes = (oh * 60 + om) * (s[*i] == '-' ? -1 : 1);
	*i += 6;
	return 0;
}

int datetime_parse(const char *s, size_t len, unsigned flags, int64_t *sec,
		   long *nsec)
{
	int y, mo, d, h, mi, se, off;
	long frac;
	size_t i = 19;

	if (len < 20 || digits(s, 4, &y) || s[4] != '-' ||
	    digits(s + 5, 2, &mo) || s[7] != '-' || digits(s + 8, 2, &d) ||
	    !is_letter(s[10], 'T', flags) || digits(s + 11, 2, &h) ||
	    s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' ||
	    digits(s + 17, 2, &se))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) ||
	    h > 23 || mi > 59 ||
	    se > (flags & DATETIME_LEAP_SECOND ? 60 : 59))
		return -1;
	if (fraction(s, len, &i, &frac) || zone(s, len, &i, flags, &off) ||
	    i != len)
		return -1;
	/* A leap second is inserted at the end of a UTC day. */
	if (se == 60 && (flags & DATETIME_LEAP_AT_DAY_END) &&
	    ((h * 60 + mi - off) % 1440 + 1440) % 1440 != 23 * 60 + 59)
		return -1;
	if (sec)
		*sec = datetime_days_from_civil(y, mo, d) * 86400 +
		       h * 3600 + mi * 60 + se - (int64_t)off * 60;
	if (nsec)
		*nsec = frac;
	return 0;
}
