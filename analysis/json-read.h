/* SPDX-License-Identifier: GPL-2.0 */
/* One number out of a JSON text by its dotted path (json-read.c). */
#ifndef POWERSCHED_JSON_READ_H
#define POWERSCHED_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { JSON_BAD = -1, JSON_MISSING = -2 };

/* 0 and *out set; JSON_BAD: not valid JSON; JSON_MISSING: no number there.
 * true and false read as 1 and 0. */
int json_get_number(const char *text, const char *path, double *out);
int json_get_string(const char *text, const char *path, char *out, size_t len);
int json_valid(const char *text);
char *json_slurp(const char *path, size_t max);

#endif
