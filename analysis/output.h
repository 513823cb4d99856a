/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files of one command: each is created through output_open(), its
 * writes are checked when it is closed (a full disk, an I/O error), and
 * when the command fails every file it created is removed, so that no
 * partial result is passed off as complete.
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct output {
	FILE *f;
	char *path;
};

struct outputs {
	char dir[4096];
	char **paths;		/* every file created, for output_remove_all() */
	int n;
};

/* "DIR/NAME" into @buf; false when it does not fit. */
bool path_join(char *buf, size_t len, const char *dir, const char *name);

/* Create @name in @outs->dir; NULL (and a message naming it) on failure. */
struct output *output_open(struct outputs *outs, const char *name);
/* Flush and close; -1 (and a message naming the file) when a write failed. */
int output_close(struct output *o);
/* After a failure: remove every file output_open() created. */
void output_remove_all(struct outputs *outs);
void outputs_free(struct outputs *outs);

/* A JSON string, quoted and escaped. */
void json_str(FILE *f, const char *s);

#endif
