#ifndef DATETIME_H
#define DATETIME_H

#include <stddef.h>
#include <stdint.h>

/*
 * ISO-8601 date-times in RFC 3339's profile: YYYY-MM-DD, 'T', hh:mm:ss,
 * an optional fraction, then 'Z' or an offset.  The date must be a real
 * (proleptic Gregorian) one.  Each caller follows a different reference,
 * so what is accepted beyond the common core is chosen by flags.
 */
enum datetime_flags {
	DATETIME_LOWERCASE = (1 << 0),	/* 't' and 'z' as well as 'T', 'Z' */
	DATETIME_OFFSET = (1 << 1),	/* +hh:mm and -hh:mm as well as 'Z' */
	DATETIME_LEAP_SECOND = (1 << 2),	/* second 60 */
	DATETIME_LEAP_AT_DAY_END = (1 << 3),	/* ...only at 23:59 UTC */
};

/* RFC 3339 section 5.6 with its note's lower case: JSON Schema's format. */
#define DATETIME_RFC3339 (DATETIME_LOWERCASE | DATETIME_OFFSET | \
			  DATETIME_LEAP_SECOND | DATETIME_LEAP_AT_DAY_END)
/* Event log timestamps: as RFC 3339, a leap second at any minute. */
#define DATETIME_EVENTLOG (DATETIME_LOWERCASE | DATETIME_OFFSET | \
			   DATETIME_LEAP_SECOND)
/* zod 3.24's z.string().datetime(): upper case, 'Z' only, no leap second. */
#define DATETIME_ZOD 0

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant). */
int64_t datetime_days_from_civil(int64_t y, int m, int d);

/*
 * Parse s (len bytes) under flags.  Returns 0 and, when sec and nsec are
 * not NULL, the instant in UTC seconds since 1970 and nanoseconds (finer
 * digits are dropped; a leap second counts as the next minute's first);
 * or -1.
 */
int datetime_parse(const char *s, size_t len, unsigned flags, int64_t *sec,
		   long *nsec);

#endif
