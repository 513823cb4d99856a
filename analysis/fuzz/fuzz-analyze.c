// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the analyzer's input path: each input is written
 * out as a trace.dat (or, built with -DFUZZ_TOPOLOGY, as a topology.tsv
 * next to a real trace) and run through `powersched analyze` (built with
 * -DFUZZ_EXPORT: through `powersched export --perfetto`).  Every exit is
 * fine; a crash, an ASan or UBSan report is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../powersched.h"

static char dir[256], trace[300], topo[300], outdir[300], json[300];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seed_topo = getenv("FUZZ_TOPOLOGY_SEED");
	const char *seed_trace = getenv("FUZZ_TRACE_SEED");
	char cmd[1024];

	(void)argc; (void)argv;
	snprintf(dir, sizeof(dir), "/tmp/powersched-fuzz.%d", getpid());
	snprintf(trace, sizeof(trace), "%s/trace.dat", dir);
	snprintf(topo, sizeof(topo), "%s/topology.tsv", dir);
	snprintf(outdir, sizeof(outdir), "%s/out", dir);
	snprintf(json, sizeof(json), "%s/out/trace.json", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", outdir);
	if (system(cmd))
		abort();
	if (!seed_topo || !seed_trace) {
		fprintf(stderr, "set FUZZ_TOPOLOGY_SEED and FUZZ_TRACE_SEED\n");
		abort();
	}
#ifdef FUZZ_TOPOLOGY
	snprintf(cmd, sizeof(cmd), "cp %s %s", seed_trace, trace);
#else
	snprintf(cmd, sizeof(cmd), "cp %s %s", seed_topo, topo);
#endif
	if (system(cmd))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef FUZZ_TOPOLOGY
	FILE *f = fopen(topo, "w");
#else
	FILE *f = fopen(trace, "w");
#endif
#ifdef FUZZ_EXPORT
	char *argv[] = { "export", trace, "--topology", topo, "--perfetto", json, NULL };
#else
	char *argv[] = { "analyze", trace, "--topology", topo, "--out", outdir, NULL };
#endif

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
#ifdef FUZZ_EXPORT
	cmd_export(6, argv);
#else
	cmd_analyze(6, argv);
#endif
	return 0;
}
