// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the reading of JSON written by others (run.json,
 * analysis/json.c): the check and the walk over the scalars must agree
 * (the walk accepts exactly what the check accepts) and never overrun.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../json.h"

static void scalar(void *ctx, const char *path, const char *value, bool is_string)
{
	(void)is_string;
	*(size_t *)ctx += strlen(path) + strlen(value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	size_t at = 0, sum = 0;
	const char *why = NULL;
	int ok, walked;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	ok = json_check(text, size, &at, &why) == 0;
	walked = json_scalars(text, size, scalar, &sum) == 0;
	if (ok != walked || (!ok && (at > size || !why)))
		abort();
	free(text);
	return 0;
}
