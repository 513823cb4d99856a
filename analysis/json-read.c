// SPDX-License-Identifier: GPL-2.0
/*
 * Reading one number out of a JSON text by its path ("power.watts",
 * "utilization.cpu.3"): enough for the model fit to take a run's figures
 * from summary.json and run.json.  A small recursive-descent parser that
 * checks the whole text's syntax (so a truncated or corrupt file is
 * refused, not half read), with a nesting limit.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json-read.h"

#define MAX_DEPTH	64

struct jp {
	const char *s;
	const char *path;	/* the rest of the path: "a.b", "" when found */
	bool found;
	double val;
	const char *str, *str_end;	/* a string found: its raw text */
	int depth;
};

static void ws(struct jp *p)
{
	while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')
		p->s++;
}

/* A string; its raw text (escapes kept) as [*start, *end) */
static int string(struct jp *p, const char **start, const char **end)
{
	if (*p->s != '"')
		return -1;
	p->s++;
	*start = p->s;
	while (*p->s && *p->s != '"') {
		if ((unsigned char)*p->s < 0x20)
			return -1;
		if (*p->s == '\\') {
			p->s++;
			if (*p->s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p->s[i]))
						return -1;
				p->s += 4;
			} else if (!strchr("\"\\/bfnrt", *p->s) || !*p->s) {
				return -1;
			}
		}
		p->s++;
	}
	if (*p->s != '"')
		return -1;
	*end = p->s;
	p->s++;
	return 0;
}

static int number(struct jp *p, double *v)
{
	const char *q = p->s;
	char *end;

	if (*q == '-')
		q++;
	if (!isdigit((unsigned char)*q))
		return -1;
	errno = 0;
	*v = strtod(p->s, &end);
	if (end == p->s || !isfinite(*v))
		return -1;
	p->s = end;
	return 0;
}

static int value(struct jp *p, bool on_path);

/* Does the next path segment equal [a, b)?  Then step past it. */
static bool segment(struct jp *p, const char *a, const char *b)
{
	size_t n = strcspn(p->path, ".");

	if ((size_t)(b - a) != n || strncmp(p->path, a, n))
		return false;
	p->path += n;
	if (*p->path == '.')
		p->path++;
	return true;
}

static int object(struct jp *p, bool on_path)
{
	p->s++;
	ws(p);
	if (*p->s == '}') {
		p->s++;
		return 0;
	}
	for (;;) {
		const char *a, *b, *saved = p->path;
		bool here = false;

		ws(p);
		if (string(p, &a, &b))
			return -1;
		ws(p);
		if (*p->s != ':')
			return -1;
		p->s++;
		ws(p);
		if (on_path && !p->found && segment(p, a, b))
			here = true;
		if (value(p, here))
			return -1;
		if (here && !p->found)
			p->path = saved;	/* a duplicate key may still hold it */
		ws(p);
		if (*p->s == '}') {
			p->s++;
			return 0;
		}
		if (*p->s != ',')
			return -1;
		p->s++;
	}
}

static int array(struct jp *p, bool on_path)
{
	long idx = -1, i = 0;

	if (on_path && isdigit((unsigned char)*p->path)) {
		char *end;

		idx = strtol(p->path, &end, 10);
		if (*end && *end != '.')
			idx = -1;
	}
	p->s++;
	ws(p);
	if (*p->s == ']') {
		p->s++;
		return 0;
	}
	for (;; i++) {
		const char *saved = p->path;
		bool here = false;

		ws(p);
		if (i == idx && !p->found) {
			p->path += strcspn(p->path, ".");
			if (*p->path == '.')
				p->path++;
			here = true;
		}
		if (value(p, here))
			return -1;
		if (here && !p->found)
			p->path = saved;
		ws(p);
		if (*p->s == ']') {
			p->s++;
			return 0;
		}
		if (*p->s != ',')
			return -1;
		p->s++;
	}
}

static int value(struct jp *p, bool on_path)
{
	const char *a, *b;
	double v;
	int ret;

	/* the path ends here: this value is the one wanted */
	bool target = on_path && !*p->path;

	if (++p->depth > MAX_DEPTH)
		return -1;
	ws(p);
	switch (*p->s) {
	case '{':
		ret = object(p, on_path && !target);
		break;
	case '[':
		ret = array(p, on_path && !target);
		break;
	case '"':
		ret = string(p, &a, &b);
		if (!ret && target) {
			p->found = true;
			p->str = a;
			p->str_end = b;
		}
		break;
	case 't':
		ret = strncmp(p->s, "true", 4) ? -1 : 0;
		p->s += ret ? 0 : 4;
		if (!ret && target) {
			p->found = true;
			p->val = 1;
		}
		break;
	case 'f':
		ret = strncmp(p->s, "false", 5) ? -1 : 0;
		p->s += ret ? 0 : 5;
		if (!ret && target) {
			p->found = true;
			p->val = 0;
		}
		break;
	case 'n':
		ret = strncmp(p->s, "null", 4) ? -1 : 0;
		p->s += ret ? 0 : 4;
		break;
	default:
		ret = number(p, &v);
		if (!ret && target) {
			p->found = true;
			p->val = v;
		}
		break;
	}
	p->depth--;
	return ret;
}

int json_valid(const char *text)
{
	struct jp p = { .s = text, .path = "" };

	if (value(&p, false))
		return -1;
	ws(&p);
	return *p.s ? -1 : 0;
}

int json_get_number(const char *text, const char *path, double *out)
{
	struct jp p = { .s = text, .path = path };

	if (value(&p, true))
		return JSON_BAD;
	ws(&p);
	if (*p.s)
		return JSON_BAD;
	if (!p.found || p.str)
		return JSON_MISSING;
	*out = p.val;
	return 0;
}

/* A string's text as written (escapes not undone), cut to len - 1. */
int json_get_string(const char *text, const char *path, char *out, size_t len)
{
	struct jp p = { .s = text, .path = path };

	if (value(&p, true))
		return JSON_BAD;
	ws(&p);
	if (*p.s)
		return JSON_BAD;
	if (!p.found || !p.str)
		return JSON_MISSING;
	snprintf(out, len, "%.*s", (int)(p.str_end - p.str), p.str);
	return 0;
}

/* A whole small file, NUL-terminated; NULL with errno. */
char *json_slurp(const char *path, size_t max)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		free(buf);
		fclose(f);
		errno = n > max ? EFBIG : EIO;
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	if (strlen(buf) != n) {		/* a NUL inside: not text */
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	return buf;
}
