// SPDX-License-Identifier: GPL-2.0
/*
 * Every read of /sys, /proc and tracefs that powersched record and
 * powersched topology make goes through here, below $POWERSCHED_SYSROOT
 * (default "/"): the tests point it at fixture trees.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"

const char *sysroot(void)
{
	static char root[4096];
	static bool done;

	if (!done) {
		const char *r = getenv(SYSROOT_ENV);
		size_t n;

		snprintf(root, sizeof(root), "%s", r ? r : "");
		/* "/" and "" both mean the machine itself; no trailing slash */
		n = strlen(root);
		while (n > 0 && root[n - 1] == '/')
			root[--n] = 0;
		done = true;
	}
	return root;
}

static int vpath(char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t n = (size_t)snprintf(buf, len, "%s", sysroot());
	int m;

	if (n >= len)
		goto too_long;
	m = vsnprintf(buf + n, len - n, fmt, ap);
	if (m < 0 || (size_t)m >= len - n)
		goto too_long;
	return 0;
too_long:
	errno = ENAMETOOLONG;
	return -1;
}

int sys_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

/* A small file, whole, trailing whitespace removed; -1 with errno. */
static int vread(char *buf, size_t len, const char *fmt, va_list ap)
{
	char path[4096];
	ssize_t n;
	size_t got = 0;
	int fd, saved;

	if (vpath(path, sizeof(path), fmt, ap))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		got += n;
	}
	close(fd);
	buf[got] = 0;
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' ' || buf[got - 1] == '\t'))
		buf[--got] = 0;
	return 0;
}

int sys_read(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

int sys_read_u64(uint64_t *v, const char *fmt, ...)
{
	char buf[64], *end;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ret)
		return -1;
	errno = 0;
	if (buf[0] == '-') {
		errno = EINVAL;
		return -1;
	}
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int sys_write(const char *val, const char *fmt, ...)
{
	char path[4096];
	size_t len = strlen(val);
	va_list ap;
	ssize_t n;
	int fd, ret, saved;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret)
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	saved = n < 0 ? errno : EIO;
	if (close(fd))
		return -1;
	if (n != (ssize_t)len) {
		errno = saved;
		return -1;
	}
	return 0;
}

bool sys_exists(const char *fmt, ...)
{
	char path[4096];
	struct stat st;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	return !ret && stat(path, &st) == 0;
}

FILE *sys_fopen(const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	return ret ? NULL : fopen(path, "re");
}

/* A sysfs cpulist ("0-3,8") as an array of cpu numbers; -1 if unreadable. */
int sys_cpulist(const char *rel, int **cpus)
{
	char buf[8192], *s = buf;
	int n = 0, cap = 0;

	*cpus = NULL;
	if (sys_read(buf, sizeof(buf), "%s", rel))
		return -1;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			break;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			s = end;
		}
		for (long c = a; c <= b && c < 1 << 20; c++) {
			if (n == cap) {
				int *nc = realloc(*cpus, (cap = cap ? 2 * cap : 64) * sizeof(int));

				if (!nc)
					return n;
				*cpus = nc;
			}
			(*cpus)[n++] = (int)c;
		}
		if (*s == ',')
			s++;
		else
			break;
	}
	return n;
}

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}
