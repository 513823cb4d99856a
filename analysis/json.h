/* SPDX-License-Identifier: GPL-2.0 */
/* Reading JSON written by others (run.json): see json.c. */
#ifndef JSON_H
#define JSON_H

#include <stdbool.h>
#include <stddef.h>

/*
 * 0 when @text is exactly one valid JSON value; else -1, with the byte
 * offset of the problem in @err_at and what it is in @why.
 */
int json_check(const char *text, size_t len, size_t *err_at, const char **why);

/*
 * Every scalar of a valid JSON value, with its path: members joined by
 * '.', array elements by their index ("command.0"); strings unescaped.
 */
typedef void (*json_scalar_fn)(void *ctx, const char *path, const char *value, bool is_string);
int json_scalars(const char *text, size_t len, json_scalar_fn fn, void *ctx);

#endif
