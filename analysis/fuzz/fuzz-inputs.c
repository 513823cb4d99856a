// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the other files powersched reads that come from
 * outside: each input is read as an energy.tsv (energy_read() and a window
 * over every zone) and as JSON (json_get_number() and json_get_string() on
 * the paths the model fit looks up).  Every result is fine; a crash, an
 * ASan or UBSan report, or a leak is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../energy.h"
#include "../json-read.h"

static char path[256];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	snprintf(path, sizeof(path), "/tmp/powersched-fuzz-inputs.%d.tsv", getpid());
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char * const paths[] = {
		"duration_s", "power.active_packages", "lost_events.complete",
		"utilization.cpu.3", "a.b.c.d", "",
	};
	struct energy_data e;
	char err[512], *text, s[64];
	FILE *f = fopen(path, "w");
	double v;

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	if (!energy_read(path, &e, err, sizeof(err))) {
		for (int k = 0; k < e.nzones; k++) {
			struct energy_window w;

			if (e.nsamples)
				energy_window(&e, k, e.t[0] - 1, e.t[e.nsamples - 1] + 1, &w);
		}
		energy_free(&e);
	}

	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		json_get_number(text, paths[i], &v);
		json_get_string(text, paths[i], s, sizeof(s));
	}
	json_valid(text);
	free(text);
	unlink(path);
	return 0;
}
