// SPDX-License-Identifier: GPL-2.0
/*
 * Reading JSON the analyzer did not write (run.json): a strict check of
 * RFC 8259 syntax, strings included (escapes, UTF-8, no control
 * characters), so that only valid JSON is embedded into summary.json; and
 * a walk over its scalars, so that summary.tsv gets them as keys
 * ("run.policy", "run.command.0").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH	64

struct parser {
	const char *s, *end;
	const char *why;
	json_scalar_fn fn;
	void *ctx;
	char path[512];
};

static void skip_ws(struct parser *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int fail(struct parser *p, const char *why)
{
	p->why = why;
	return -1;
}

static int hex4(const char *s, unsigned int *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned int c)
{
	if (c < 0x80) {
		o[0] = c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = 0xc0 | c >> 6;
		o[1] = 0x80 | (c & 0x3f);
		return 2;
	}
	if (c < 0x10000) {
		o[0] = 0xe0 | c >> 12;
		o[1] = 0x80 | (c >> 6 & 0x3f);
		o[2] = 0x80 | (c & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | c >> 18;
	o[1] = 0x80 | (c >> 12 & 0x3f);
	o[2] = 0x80 | (c >> 6 & 0x3f);
	o[3] = 0x80 | (c & 0x3f);
	return 4;
}

/* A string at p->s (the opening quote); its text into @out (room @len) */
static int string(struct parser *p, char *out, size_t len)
{
	size_t n = 0;

	p->s++;
	for (;;) {
		unsigned char c;
		char buf[4];
		size_t k = 0;

		if (p->s >= p->end)
			return fail(p, "a string is not closed");
		c = *p->s;
		if (c == '"') {
			p->s++;
			break;
		}
		if (c < 0x20)
			return fail(p, "a control character in a string");
		if (c == '\\') {
			if (p->end - p->s < 2)
				return fail(p, "a string is not closed");
			switch (p->s[1]) {
			case '"': buf[k++] = '"'; break;
			case '\\': buf[k++] = '\\'; break;
			case '/': buf[k++] = '/'; break;
			case 'b': buf[k++] = '\b'; break;
			case 'f': buf[k++] = '\f'; break;
			case 'n': buf[k++] = '\n'; break;
			case 'r': buf[k++] = '\r'; break;
			case 't': buf[k++] = '\t'; break;
			case 'u': {
				unsigned int u, lo;

				if (p->end - p->s < 6 || hex4(p->s + 2, &u))
					return fail(p, "a bad \\u escape");
				p->s += 4;
				if (u >= 0xd800 && u <= 0xdbff) {
					if (p->end - p->s < 8 || p->s[2] != '\\' || p->s[3] != 'u' ||
					    hex4(p->s + 4, &lo) || lo < 0xdc00 || lo > 0xdfff)
						return fail(p, "a lone surrogate in a \\u escape");
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
					p->s += 6;
				} else if (u >= 0xdc00 && u <= 0xdfff) {
					return fail(p, "a lone surrogate in a \\u escape");
				}
				k = put_utf8(buf, u);
				break;
			}
			default:
				return fail(p, "a bad escape in a string");
			}
			p->s += 2;
		} else if (c < 0x80) {
			buf[k++] = c;
			p->s++;
		} else {
			/* UTF-8: the right number of continuation bytes, no overlong forms */
			int m = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
			unsigned int cp = c & (m == 2 ? 0x1f : m == 3 ? 0x0f : 0x07);

			if (!m || p->end - p->s < m)
				return fail(p, "not UTF-8");
			for (int i = 1; i < m; i++) {
				if (((unsigned char)p->s[i] & 0xc0) != 0x80)
					return fail(p, "not UTF-8");
				cp = cp << 6 | ((unsigned char)p->s[i] & 0x3f);
			}
			if ((m == 2 && cp < 0x80) || (m == 3 && cp < 0x800) || (m == 4 && cp < 0x10000) ||
			    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
				return fail(p, "not UTF-8");
			memcpy(buf, p->s, m);
			k = m;
			p->s += m;
		}
		if (out && n + k < len) {
			memcpy(out + n, buf, k);
			n += k;
		}
	}
	if (out)
		out[n < len ? n : len - 1] = 0;
	return 0;
}

static int number(struct parser *p)
{
	const char *s = p->s;

	if (s < p->end && *s == '-')
		s++;
	if (s >= p->end)
		return fail(p, "a bad number");
	if (*s == '0') {
		s++;
	} else if (*s >= '1' && *s <= '9') {
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	} else {
		return fail(p, "an unexpected character");
	}
	if (s < p->end && *s == '.') {
		s++;
		if (s >= p->end || *s < '0' || *s > '9')
			return fail(p, "a bad number");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < p->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < p->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= p->end || *s < '0' || *s > '9')
			return fail(p, "a bad number");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	p->s = s;
	return 0;
}

static int literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n))
		return fail(p, "an unexpected character");
	p->s += n;
	return 0;
}

/* Append ".@name" to the path (or "@name" at the top); returns the old length. */
static size_t push(struct parser *p, const char *name)
{
	size_t old = strlen(p->path);

	snprintf(p->path + old, sizeof(p->path) - old, "%s%s", old ? "." : "", name);
	return old;
}

static int value(struct parser *p, int depth);

static void scalar(struct parser *p, const char *start, bool is_string)
{
	char text[1024];

	if (!p->fn)
		return;
	if (is_string) {
		struct parser q = *p;

		q.s = start;
		q.fn = NULL;
		string(&q, text, sizeof(text));
	} else {
		size_t n = p->s - start;

		snprintf(text, sizeof(text), "%.*s", (int)(n < sizeof(text) ? n : sizeof(text) - 1), start);
	}
	p->fn(p->ctx, p->path, text, is_string);
}

static int value(struct parser *p, int depth)
{
	const char *start;

	if (depth > MAX_DEPTH)
		return fail(p, "nested too deep");
	skip_ws(p);
	if (p->s >= p->end)
		return fail(p, "it ends where a value was expected");
	start = p->s;
	switch (*p->s) {
	case '{':
		p->s++;
		skip_ws(p);
		if (p->s < p->end && *p->s == '}') {
			p->s++;
			return 0;
		}
		for (;;) {
			char name[256];
			size_t old;

			skip_ws(p);
			if (p->s >= p->end || *p->s != '"')
				return fail(p, "a member name was expected");
			if (string(p, name, sizeof(name)))
				return -1;
			skip_ws(p);
			if (p->s >= p->end || *p->s != ':')
				return fail(p, "':' was expected");
			p->s++;
			old = push(p, name);
			if (value(p, depth + 1))
				return -1;
			p->path[old] = 0;
			skip_ws(p);
			if (p->s < p->end && *p->s == ',') {
				p->s++;
				continue;
			}
			if (p->s < p->end && *p->s == '}') {
				p->s++;
				return 0;
			}
			return fail(p, "',' or '}' was expected");
		}
	case '[':
		p->s++;
		skip_ws(p);
		if (p->s < p->end && *p->s == ']') {
			p->s++;
			return 0;
		}
		for (int i = 0;; i++) {
			char idx[16];
			size_t old;

			snprintf(idx, sizeof(idx), "%d", i);
			old = push(p, idx);
			if (value(p, depth + 1))
				return -1;
			p->path[old] = 0;
			skip_ws(p);
			if (p->s < p->end && *p->s == ',') {
				p->s++;
				continue;
			}
			if (p->s < p->end && *p->s == ']') {
				p->s++;
				return 0;
			}
			return fail(p, "',' or ']' was expected");
		}
	case '"':
		if (string(p, NULL, 0))
			return -1;
		scalar(p, start, true);
		return 0;
	case 't':
		if (literal(p, "true"))
			return -1;
		break;
	case 'f':
		if (literal(p, "false"))
			return -1;
		break;
	case 'n':
		if (literal(p, "null"))
			return -1;
		break;
	default:
		if (number(p))
			return -1;
		break;
	}
	scalar(p, start, false);
	return 0;
}

static int parse(const char *text, size_t len, json_scalar_fn fn, void *ctx,
		 size_t *err_at, const char **why)
{
	struct parser p = { .s = text, .end = text + len, .fn = fn, .ctx = ctx };
	int ret = value(&p, 0);

	if (!ret) {
		skip_ws(&p);
		if (p.s != p.end)
			ret = fail(&p, "more after the value");
	}
	if (ret) {
		if (err_at)
			*err_at = p.s - text;
		if (why)
			*why = p.why;
	}
	return ret;
}

int json_check(const char *text, size_t len, size_t *err_at, const char **why)
{
	return parse(text, len, NULL, NULL, err_at, why);
}

int json_scalars(const char *text, size_t len, json_scalar_fn fn, void *ctx)
{
	return parse(text, len, fn, ctx, NULL, NULL);
}
