/*
 * A progress line on stderr (see progress.h).
 */
#include "config.h"
#include "progress.h"
#include "usage.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct progress {
	const char *title;
	size_t total;
	uint64_t drawn_at;	/* when, in ms; 0 before the first */
	int shown;		/* something is on the line */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct progress *progress_start(const char *title, size_t total, int show)
{
	struct progress *p;

	if (!show || !isatty(2))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = title;
	p->total = total;
	return p;
}

static void draw(struct progress *p, size_t n)
{
	/* stdout first: what it holds belongs before the line */
	fflush(stdout);
	if (p->total)
		fprintf(stderr, "\r%s: %3u%% (%zu/%zu)\033[K", p->title,
			(unsigned)(n * 100 / p->total), n, p->total);
	else
		fprintf(stderr, "\r%s: %zu\033[K", p->title, n);
	fflush(stderr);
	p->shown = 1;
	p->drawn_at = now_ms();
}

void progress_update(struct progress *p, size_t n)
{
	uint64_t t;

	if (!p)
		return;
	t = now_ms();
	/* the first count and the last at once, else once an interval */
	if (n == p->total || !p->drawn_at ||
	    t - p->drawn_at >= PROGRESS_INTERVAL_MS)
		draw(p, n);
}

void progress_clear(struct progress *p)
{
	if (!p)
		return;
	fflush(stdout);
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = 0;
	}
}

void progress_stop(struct progress **p)
{
	progress_clear(*p);
	free(*p);
	*p = NULL;
}
