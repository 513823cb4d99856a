// SPDX-License-Identifier: GPL-2.0
/*
 * powersched compare: several analyzed runs in one table, like the v7
 * cover letter's: estimated watts and, beside them, what packing cost
 * (idle while waiting, wakeup latency and runqueue wait p99), runtime or
 * throughput when the run recorded one, performance per watt, migrations,
 * package idle share, balance-mode switches per second (all cpus merged:
 * the coarse measure), flips per second (each domain instance's own) and
 * ping-pong migrations per second (moves undone: what users feel).
 *
 * A RUN_DIR is a results folder (qemu/run --out) analyzed into
 * RUN_DIR/analysis/, or the analysis folder itself.  The workload's own
 * figures are read from RUN_DIR/result.tsv when present ("key<TAB>value",
 * keys runtime_s and/or throughput, written by the workloads).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json-read.h"
#include "json.h"
#include "powersched.h"
#include "text.h"

struct run_info {
	char kernel[256], policy[256];
};

static void run_info_scalar(void *ctx, const char *path, const char *value, bool is_string)
{
	struct run_info *ri = ctx;

	if (!is_string)
		return;
	if (!strcmp(path, "kernel"))
		snprintf(ri->kernel, sizeof(ri->kernel), "%s", value);
	else if (!strcmp(path, "policy"))
		snprintf(ri->policy, sizeof(ri->policy), "%s", value);
}

/*
 * The kernel and policy of a run from its run.json: "-" each when the run
 * has no run.json (a trace analyzed on its own), an error naming the file
 * when it is there but not valid JSON.
 */
static int run_info_read(const char *path, struct run_info *ri)
{
	char *text = json_slurp(path, 1 << 20);
	const char *why;
	size_t at;

	snprintf(ri->kernel, sizeof(ri->kernel), "-");
	snprintf(ri->policy, sizeof(ri->policy), "-");
	if (!text) {
		if (errno == ENOENT)
			return 0;
		warning("%s: cannot read it: %s", path, errno == EFBIG ? "larger than 1 MB" : strerror(errno));
		return -1;
	}
	if (json_check(text, strlen(text), &at, &why)) {
		warning("%s: not valid JSON (%s at byte %zu)", path, why, at);
		free(text);
		return -1;
	}
	json_scalars(text, strlen(text), run_info_scalar, ri);
	free(text);
	return 0;
}

/* A value as one TSV field: tabs, newlines and other control characters
 * would shift the columns of every row after them. */
static double num_or_nan(const char *s)
{
	char *end;
	double v;

	if (!s)
		return -1;
	v = strtod(s, &end);
	return end == s ? -1 : v;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s compare RUN_DIR... [--out FILE]\n"
		"  RUN_DIR  a results folder analyzed with '%s analyze' (RUN_DIR/analysis/summary.tsv)\n"
		"  --out    also write the table to FILE (TSV with '#' headers)\n", progname, progname);
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = NULL;
	FILE *out = NULL;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (outpath) {
		out = fopen(outpath, "w");
		if (!out) {
			warning("%s: cannot write: %s", outpath, strerror(errno));
			return 1;
		}
	}

	const char *hdr = "# run\tkernel\tpolicy\twatts\tidle_waiting\twakeup_p99_us\twait_p99_us\t"
			  "runtime_s\tthroughput\tperf_per_watt\t"
			  "migrations\tmig_smt\tmig_core\tmig_package\tpackage_idle_max\tswitches_per_s\t"
			  "flips_per_s\tpingpong_per_s\tcomplete\n";
	printf("%s", hdr);
	if (out)
		fprintf(out, "# powersched compare: perf_per_watt = throughput / watts, or 1e6 / (runtime_s * watts) as in the v7 cover letter;\n"
			"# idle_waiting: share of the run a cpu idled while another had a task waiting (analysis/FORMATS.md)\n%s", hdr);

	for (int i = optind; i < argc; i++) {
		char path[4200], runjson[4200], resultp[4200];
		struct run_info ri;
		struct kv *kv = NULL, *res = NULL;
		int n = 0, nres = 0;
		double watts, runtime = -1, thr = -1, ppw = -1;
		const char *dir = argv[i];
		char dirf[4096];

		snprintf(path, sizeof(path), "%s/analysis/summary.tsv", dir);
		snprintf(runjson, sizeof(runjson), "%s/run.json", dir);
		snprintf(resultp, sizeof(resultp), "%s/result.tsv", dir);
		if (access(path, R_OK)) {
			snprintf(path, sizeof(path), "%s/summary.tsv", dir);
			snprintf(runjson, sizeof(runjson), "%s/../run.json", dir);
			snprintf(resultp, sizeof(resultp), "%s/../result.tsv", dir);
		}
		if (kv_read(path, &kv, &n) || !n) {
			warning("%s: not an analyzed run (no analysis/summary.tsv: run '%s analyze' on its trace.dat first)",
				dir, progname);
			free(kv);
			ret = 1;
			continue;
		}
		if (run_info_read(runjson, &ri))
			ret = 1;
		text_printable(ri.kernel);
		text_printable(ri.policy);
		snprintf(dirf, sizeof(dirf), "%s", dir);
		text_printable(dirf);
		if (!kv_read(resultp, &res, &nres)) {
			runtime = num_or_nan(kv_get(res, nres, "runtime_s"));
			thr = num_or_nan(kv_get(res, nres, "throughput"));
		}
		watts = num_or_nan(kv_get(kv, n, "power.watts"));
		if (watts > 0 && thr > 0)
			ppw = thr / watts;
		else if (watts > 0 && runtime > 0)
			ppw = 1e6 / (runtime * watts);

		for (FILE *f = stdout; f; f = (f == stdout ? out : NULL)) {
			fprintf(f, "%s\t%s\t%s\t%.1f\t%s\t%s\t%s\t", dirf, ri.kernel, ri.policy, watts,
				kv_get(kv, n, "waiting.idle_while_waiting.system") ?: "-",
				kv_get(kv, n, "latency.wakeup.p99_us") ?: "-",
				kv_get(kv, n, "latency.rq_wait.p99_us") ?: "-");
			runtime > 0 ? fprintf(f, "%.3f\t", runtime) : fprintf(f, "-\t");
			thr > 0 ? fprintf(f, "%.1f\t", thr) : fprintf(f, "-\t");
			ppw > 0 ? fprintf(f, "%.3f\t", ppw) : fprintf(f, "-\t");
			fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
				kv_get(kv, n, "migrations.total") ?: "-",
				kv_get(kv, n, "migrations.smt") ?: "-",
				kv_get(kv, n, "migrations.core") ?: "-",
				kv_get(kv, n, "migrations.package") ?: "-",
				kv_get(kv, n, "idle.package_max") ?: "-",
				kv_get(kv, n, "modes.switches_per_s") ?: "-",
				kv_get(kv, n, "modes.flips_per_s") ?: "-",
				kv_get(kv, n, "migrations.pingpong.per_s") ?: "-",
				kv_get(kv, n, "lost.complete") && !strcmp(kv_get(kv, n, "lost.complete"), "1") ? "yes" : "NO (events lost)");
		}
		free(kv);
		free(res);
	}
	if (out && (ferror(out) | fclose(out))) {
		struct stat st;

		/* a partial table is removed; a device, fifo or link is not ours to remove */
		if (!lstat(outpath, &st) && S_ISREG(st.st_mode) && !unlink(outpath))
			warning("%s: write failed (disk full?); removed it", outpath);
		else
			warning("%s: write failed (disk full?)", outpath);
		ret = 1;
	}
	return ret;
}
