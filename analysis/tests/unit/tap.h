/* SPDX-License-Identifier: GPL-2.0 */
/* TAP lines for the C unit tests, as tests/run counts them. */
#ifndef POWERSCHED_TAP_H
#define POWERSCHED_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_failed, tap_run;

static void __attribute__((format(printf, 2, 3))) ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
}

/* |got - want| <= tol, and say both when not */
static void near(double got, double want, double tol, const char *what)
{
	ok(fabs(got - want) <= tol, "%s: %.6f (expected %.6f +- %g)", what, got, want, tol);
}

static int tap_done(void)
{
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif
