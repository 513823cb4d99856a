// SPDX-License-Identifier: GPL-2.0
/*
 * The summary table (summary.h) and its two file formats.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "powersched.h"
#include "output.h"
#include "summary.h"

void st_init(struct summary *s)
{
	memset(s, 0, sizeof(*s));
}

void st_free(struct summary *s)
{
	for (int i = 0; i < s->n; i++) {
		free(s->e[i].path);
		free(s->e[i].tsv);
		free(s->e[i].s);
	}
	for (int i = 0; i < s->nstyles; i++)
		free(s->styles[i].path);
	free(s->e);
	free(s->styles);
	memset(s, 0, sizeof(*s));
}

static struct st_entry *add(struct summary *s, const char *path, const char *tsv,
			    enum st_kind kind)
{
	struct st_entry *e;

	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 128;
		struct st_entry *ne = realloc(s->e, cap * sizeof(*ne));

		if (!ne) {
			s->failed = true;
			return NULL;
		}
		s->e = ne;
		s->cap = cap;
	}
	e = &s->e[s->n];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->path = strdup(path);
	e->tsv = tsv ? strdup(tsv) : NULL;
	if (!e->path || (tsv && !e->tsv)) {
		free(e->path);
		free(e->tsv);
		s->failed = true;
		return NULL;
	}
	s->n++;
	return e;
}

void st_style(struct summary *s, const char *path, enum st_style style)
{
	void *n = realloc(s->styles, (s->nstyles + 1) * sizeof(*s->styles));

	if (!n) {
		s->failed = true;
		return;
	}
	s->styles = n;
	s->styles[s->nstyles].path = strdup(path);
	s->styles[s->nstyles].style = style;
	if (!s->styles[s->nstyles].path)
		s->failed = true;
	else
		s->nstyles++;
}

void st_int(struct summary *s, const char *path, const char *tsv, long long v)
{
	struct st_entry *e = add(s, path, tsv, ST_INT);

	if (e)
		e->i = v;
}

void st_num(struct summary *s, const char *path, const char *tsv, double v, int decimals)
{
	struct st_entry *e = add(s, path, tsv, isfinite(v) ? ST_NUM : ST_NULL);

	if (e) {
		e->d = v;
		e->decimals = decimals;
	}
}

void st_elem(struct summary *s, const char *path, const char *tsv, double v, int decimals)
{
	struct st_entry *e = add(s, path, tsv, isfinite(v) ? ST_NUM : ST_NULL);

	if (e) {
		e->elem = true;
		e->d = v;
		e->decimals = decimals;
	}
}

void st_elem_int(struct summary *s, const char *path, const char *tsv, long long v)
{
	struct st_entry *e = add(s, path, tsv, ST_INT);

	if (e) {
		e->elem = true;
		e->i = v;
	}
}

static struct st_entry *add_str(struct summary *s, const char *path, const char *tsv,
				const char *v, enum st_kind kind)
{
	struct st_entry *e = add(s, path, tsv, kind);

	if (!e)
		return NULL;
	e->s = strdup(v);
	if (!e->s) {
		e->kind = ST_NULL;
		s->failed = true;
	}
	return e;
}

void st_elem_str(struct summary *s, const char *path, const char *tsv, const char *v)
{
	struct st_entry *e = add_str(s, path, tsv, v, ST_STR);

	if (e)
		e->elem = true;
}

void st_str(struct summary *s, const char *path, const char *tsv, const char *v)
{
	add_str(s, path, tsv, v, ST_STR);
}

void st_json(struct summary *s, const char *path, const char *tsv, const char *json)
{
	add_str(s, path, tsv, json, ST_JSON);
}

void st_bool(struct summary *s, const char *path, const char *tsv, bool v)
{
	struct st_entry *e = add(s, path, tsv, ST_BOOL);

	if (e)
		e->i = v;
}

void st_null(struct summary *s, const char *path)
{
	add(s, path, NULL, ST_NULL);
}

/* ------------------------------------------------------------------ JSON */

#define MAX_DEPTH	16

static enum st_style style_of(const struct summary *s, const char *path, size_t len,
			      enum st_style parent)
{
	for (int i = 0; i < s->nstyles; i++)
		if (strlen(s->styles[i].path) == len && !strncmp(s->styles[i].path, path, len))
			return s->styles[i].style;
	return parent == ST_BLOCK ? ST_BLOCK : ST_TIGHT;
}

struct jw {
	FILE *f;
	int depth;			/* open objects below the top level */
	size_t end[MAX_DEPTH];		/* path length of each open object */
	enum st_style style[MAX_DEPTH + 1];	/* [0]: the top level */
	bool first[MAX_DEPTH + 1];	/* no member written yet */
};

static void indent(FILE *f, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

/* Before a member of the innermost open object. */
static void member_sep(struct jw *w)
{
	int d = w->depth;

	if (!w->first[d])
		fputc(',', w->f);
	if (w->style[d] == ST_BLOCK) {
		fputc('\n', w->f);
		indent(w->f, d + 1);
	} else if (w->style[d] == ST_SPACED || !w->first[d]) {
		fputc(' ', w->f);
	}
	w->first[d] = false;
}

static void close_object(struct jw *w)
{
	int d = w->depth;

	if (w->style[d] == ST_BLOCK) {
		fputc('\n', w->f);
		indent(w->f, d);
	} else if (w->style[d] == ST_SPACED) {
		fputc(' ', w->f);
	}
	fputc('}', w->f);
	w->depth--;
}

static void json_value(FILE *f, const struct st_entry *e)
{
	switch (e->kind) {
	case ST_INT: fprintf(f, "%lld", e->i); break;
	case ST_NUM: fprintf(f, "%.*f", e->decimals, e->d); break;
	case ST_STR: json_str(f, e->s); break;
	case ST_BOOL: fputs(e->i ? "true" : "false", f); break;
	case ST_NULL: fputs("null", f); break;
	case ST_JSON: fputs(e->s, f); break;
	}
}

/* Length of the object part of @path (up to its last '.'), 0 at the top. */
static size_t object_len(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? (size_t)(dot - path) : 0;
}

void st_write_json(const struct summary *s, FILE *f)
{
	struct jw w = { .f = f, .style = { ST_BLOCK }, .first = { true } };

	fputc('{', f);
	for (int i = 0; i < s->n; i++) {
		const struct st_entry *e = &s->e[i];
		const char *p = e->path;
		size_t olen = object_len(p);

		/* close the open objects (prefixes of the previous path) @p is not in */
		while (w.depth > 0) {
			size_t end = w.end[w.depth - 1];

			if (!strncmp(p, s->e[i - 1].path, end) && p[end] == '.')
				break;
			close_object(&w);
		}
		/* open the objects between the innermost open one and @p */
		while ((w.depth ? w.end[w.depth - 1] : 0) < olen && w.depth < MAX_DEPTH) {
			size_t start = w.depth ? w.end[w.depth - 1] + 1 : 0;
			const char *dot = strchr(p + start, '.');
			size_t end = (size_t)(dot - p);
			char name[256];

			snprintf(name, sizeof(name), "%.*s", (int)(end - start), p + start);
			member_sep(&w);
			json_str(f, name);
			fputs(": {", f);
			w.depth++;
			w.end[w.depth - 1] = end;
			w.style[w.depth] = style_of(s, p, end, w.style[w.depth - 1]);
			w.first[w.depth] = true;
		}
		member_sep(&w);
		json_str(f, p + (olen ? olen + 1 : 0));
		fputs(": ", f);
		if (!e->elem) {
			json_value(f, e);
			continue;
		}
		fputc('[', f);
		for (int j = i; j < s->n && s->e[j].elem && !strcmp(s->e[j].path, p); j++) {
			if (j > i)
				fputs(", ", f);
			json_value(f, &s->e[j]);
			i = j;
		}
		fputc(']', f);
	}
	while (w.depth > 0)
		close_object(&w);
	fputs("\n}\n", f);
}

/* ------------------------------------------------------------------- TSV */

/* A TSV value is one field: tabs and line breaks become spaces. */
static void tsv_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

struct tsv_json {
	FILE *f;
	const char *key;
};

static void tsv_scalar(void *ctx, const char *path, const char *value, bool is_string)
{
	struct tsv_json *tj = ctx;

	(void)is_string;
	tsv_text(tj->f, tj->key);
	fputc('.', tj->f);
	tsv_text(tj->f, path);
	fputc('\t', tj->f);
	tsv_text(tj->f, value);
	fputc('\n', tj->f);
}

void st_write_tsv(const struct summary *s, FILE *f, const char *title)
{
	fprintf(f, "# %s: key<TAB>value (keys: analysis/FORMATS.md)\n", title);
	for (int i = 0; i < s->n; i++) {
		const struct st_entry *e = &s->e[i];

		if (e->kind == ST_NULL)
			continue;
		if (e->kind == ST_JSON) {
			struct tsv_json tj = { f, e->tsv ? e->tsv : e->path };

			json_scalars(e->s, strlen(e->s), tsv_scalar, &tj);
			continue;
		}
		tsv_text(f, e->tsv ? e->tsv : e->path);
		fputc('\t', f);
		switch (e->kind) {
		case ST_INT: fprintf(f, "%lld", e->i); break;
		case ST_NUM: fprintf(f, "%.*f", e->decimals, e->d); break;
		case ST_BOOL: fputc(e->i ? '1' : '0', f); break;
		case ST_STR: tsv_text(f, e->s); break;
		case ST_JSON:
		case ST_NULL: break;
		}
		fputc('\n', f);
	}
}

/* -------------------------------------------------------------- reading */

const struct st_entry *st_get(const struct summary *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].path, path))
			return &s->e[i];
	return NULL;
}

const struct st_entry *st_get_elem(const struct summary *s, const char *path, int idx)
{
	for (int i = 0; i < s->n; i++)
		if (s->e[i].elem && !strcmp(s->e[i].path, path))
			return i + idx < s->n && s->e[i + idx].elem &&
			       !strcmp(s->e[i + idx].path, path) ? &s->e[i + idx] : NULL;
	return NULL;
}

int st_count(const struct summary *s, const char *path)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += !strcmp(s->e[i].path, path);
	return n;
}

static void missing(const char *path)
{
	warning("internal error: the summary has no '%s'", path);
}

double st_num_of(const struct summary *s, const char *path)
{
	const struct st_entry *e = st_get(s, path);

	if (!e) {
		missing(path);
		return NAN;
	}
	return e->kind == ST_NUM ? e->d : e->kind == ST_INT || e->kind == ST_BOOL ? (double)e->i : NAN;
}

long long st_int_of(const struct summary *s, const char *path)
{
	const struct st_entry *e = st_get(s, path);

	if (!e) {
		missing(path);
		return 0;
	}
	return e->kind == ST_INT || e->kind == ST_BOOL ? e->i : e->kind == ST_NUM ? (long long)e->d : 0;
}
