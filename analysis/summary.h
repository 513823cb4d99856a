/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The summary table: every figure of an analysis as one entry with a JSON
 * path ("utilization.busy_cpus") and a summary.tsv key ("util.busy_cpus";
 * the path itself unless a key is given).  summary.json, summary.tsv and
 * the human summary are all written from it, so a figure in one is in the
 * others.
 *
 * Entries are written in the order they were added; the members of one
 * JSON object must be added together.  An array is a run of entries with
 * the same path (one per element), each with its own TSV key.  A null
 * (an unknown figure) is written as null in JSON and left out of the TSV.
 * An embedded JSON object (run.json) is written as is into the JSON, and
 * as one TSV key per scalar ("run.policy", "run.command.0").
 */
#ifndef SUMMARY_H
#define SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

enum st_kind { ST_INT, ST_NUM, ST_STR, ST_BOOL, ST_NULL, ST_JSON };

/* How a JSON object is laid out: one member a line, or on one line. */
enum st_style { ST_BLOCK, ST_SPACED /* { a, b } */, ST_TIGHT /* {a, b} */ };

struct st_entry {
	char *path;
	char *tsv;		/* NULL: the path */
	bool elem;		/* an element of the array @path */
	enum st_kind kind;
	int decimals;		/* ST_NUM */
	long long i;		/* ST_INT, ST_BOOL */
	double d;		/* ST_NUM */
	char *s;		/* ST_STR, ST_JSON (JSON text, written as is) */
};

struct summary {
	struct st_entry *e;
	int n, cap;
	struct { char *path; enum st_style style; } *styles;
	int nstyles;
	bool failed;		/* out of memory while adding */
};

void st_init(struct summary *s);
void st_free(struct summary *s);

void st_style(struct summary *s, const char *path, enum st_style style);
void st_int(struct summary *s, const char *path, const char *tsv, long long v);
void st_num(struct summary *s, const char *path, const char *tsv, double v, int decimals);
void st_str(struct summary *s, const char *path, const char *tsv, const char *v);
void st_bool(struct summary *s, const char *path, const char *tsv, bool v);
void st_null(struct summary *s, const char *path);
void st_json(struct summary *s, const char *path, const char *tsv, const char *json);
/* An element of the array @path (NaN: null). */
void st_elem(struct summary *s, const char *path, const char *tsv, double v, int decimals);
void st_elem_int(struct summary *s, const char *path, const char *tsv, long long v);
void st_elem_str(struct summary *s, const char *path, const char *tsv, const char *v);

void st_write_json(const struct summary *s, FILE *f);
void st_write_tsv(const struct summary *s, FILE *f, const char *title);

/* Reading the table back (for the human summary) */
const struct st_entry *st_get(const struct summary *s, const char *path);
const struct st_entry *st_get_elem(const struct summary *s, const char *path, int i);
double st_num_of(const struct summary *s, const char *path);
long long st_int_of(const struct summary *s, const char *path);
int st_count(const struct summary *s, const char *path);

#endif
