// SPDX-License-Identifier: GPL-2.0
/* What the fuzz targets need of powersched.c, without its main(). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../powersched.h"

const char *progname = "powersched";

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int kv_read(const char *path, struct kv **out, int *n)
{
	(void)path; (void)out; (void)n;
	return -1;
}

const char *kv_get(const struct kv *kv, int n, const char *key)
{
	(void)kv; (void)n; (void)key;
	return NULL;
}
