// SPDX-License-Identifier: GPL-2.0
/*
 * run.json of a recording (keys: analysis/FORMATS.md): what ran, on which
 * kernel and machine, under which policy and scheduler switches, and how
 * complete the recording is.  The machine's state is read when the file is
 * written, below the sysroot like every other read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

static void key_str(FILE *f, const char *key, const char *val, bool last)
{
	fprintf(f, "  \"%s\": ", key);
	if (val)
		json_write_str(f, val);
	else
		fputs("null", f);
	fputs(last ? "\n" : ",\n", f);
}

/* A sysfs string or NULL; buf holds it. */
static const char *sysstr(char *buf, size_t len, const char *rel)
{
	if (sys_read(buf, len, "%s", rel) || !buf[0])
		return NULL;
	return buf;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = sys_fopen("/proc/cpuinfo");
	char line[1024];

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		/* x86 "model name"; arm64 and others differ: the first one found */
		if (colon && (!strncmp(line, "model name", 10) || !strncmp(line, "Model", 5) ||
			      !strncmp(line, "cpu model", 9))) {
			char *v = colon + 1;

			while (*v == ' ' || *v == '\t')
				v++;
			v[strcspn(v, "\n")] = 0;
			snprintf(buf, len, "%s", v);
			break;
		}
	}
	fclose(f);
}

/* "A NO_B C" -> ["A", "NO_B", "C"] */
static void str_array(FILE *f, char *words)
{
	bool first = true;

	fputc('[', f);
	for (char *w = strtok(words, " \t\n"); w; w = strtok(NULL, " \t\n")) {
		fputs(first ? "" : ", ", f);
		json_write_str(f, w);
		first = false;
	}
	fputc(']', f);
}

static void write_cpuidle(FILE *f)
{
	char drv[64], gov[64], name[64];
	bool first = true;

	fputs("  \"cpuidle\": ", f);
	if (!sysstr(drv, sizeof(drv), "/sys/devices/system/cpu/cpuidle/current_driver")) {
		fputs("null,\n", f);
		return;
	}
	fputs("{ \"driver\": ", f);
	json_write_str(f, drv);
	fputs(", \"governor\": ", f);
	if (sysstr(gov, sizeof(gov), "/sys/devices/system/cpu/cpuidle/current_governor"))
		json_write_str(f, gov);
	else
		fputs("null", f);
	/* the state index power:cpu_idle carries names these */
	fputs(", \"states\": [", f);
	for (int i = 0; i < 32; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name", i);
		if (!sysstr(name, sizeof(name), rel))
			break;
		fputs(first ? "" : ", ", f);
		json_write_str(f, name);
		first = false;
	}
	fputs("] },\n", f);
}

static void write_cpufreq(FILE *f)
{
	char drv[64], gov[64];

	fputs("  \"cpufreq\": ", f);
	if (!sysstr(drv, sizeof(drv), "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver")) {
		fputs("null,\n", f);
		return;
	}
	fputs("{ \"driver\": ", f);
	json_write_str(f, drv);
	fputs(", \"governor\": ", f);
	if (sysstr(gov, sizeof(gov), "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"))
		json_write_str(f, gov);
	else
		fputs("null", f);
	fputs(" },\n", f);
}

static void write_events(FILE *f, const struct rec_run *r, bool present)
{
	bool first = true;

	fputc('[', f);
	for (int i = 0; i < r->nevents; i++) {
		char name[160];

		if (r->events[i].present != present)
			continue;
		snprintf(name, sizeof(name), "%s%s%s", r->events[i].system,
			 r->events[i].event[0] ? ":" : "", r->events[i].event);
		fputs(first ? "" : ", ", f);
		json_write_str(f, name);
		first = false;
	}
	fputc(']', f);
}

static int write_body(FILE *f, const struct rec_run *r)
{
	char buf[1024], buf2[1024];
	uint64_t burst;
	bool complete;

	fputs("{\n  \"format\": \"powersched-run-1\",\n  \"recorder\": \"powersched record\",\n", f);
	key_str(f, "kernel", sysstr(buf, sizeof(buf), "/proc/sys/kernel/osrelease"), false);
	key_str(f, "kernel_build", sysstr(buf, sizeof(buf), "/proc/sys/kernel/version"), false);
	if (!sysstr(buf, sizeof(buf),
		    "/sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy"))
		snprintf(buf, sizeof(buf), "none");	/* not a powersched kernel */
	key_str(f, "policy", buf, false);
	key_str(f, "available_policies", sysstr(buf, sizeof(buf),
		"/sys/devices/system/cpu/sched_balance_policy/available_sched_balance_policy"), false);
	fputs("  \"sched_features\": ", f);
	if (sysstr(buf, sizeof(buf), "/sys/kernel/debug/sched/features"))
		str_array(f, buf);
	else
		fputs("null", f);
	fputs(",\n  \"burst_threshold_ns\": ", f);
	if (!sys_read_u64(&burst, "/proc/sys/kernel/sched_burst_threshold_ns"))
		fprintf(f, "%llu,\n", (unsigned long long)burst);
	else
		fputs("null,\n", f);

	cpu_model(buf, sizeof(buf));
	fputs("  \"machine\": { \"model\": ", f);
	json_write_str(f, buf[0] ? buf : "unknown");
	fputs(", \"vendor\": ", f);
	if (sysstr(buf, sizeof(buf), "/sys/class/dmi/id/sys_vendor"))
		json_write_str(f, buf);
	else
		fputs("null", f);
	fputs(", \"product\": ", f);
	if (sysstr(buf2, sizeof(buf2), "/sys/class/dmi/id/product_name"))
		json_write_str(f, buf2);
	else
		fputs("null", f);
	fprintf(f, ", \"cpus\": %d, \"packages\": %d, \"cores\": %d, \"numa_nodes\": %d },\n",
		r->cpus, r->packages, r->cores, r->nodes);
	write_cpuidle(f);
	write_cpufreq(f);

	fputs("  \"command\": ", f);
	if (r->argv) {
		fputc('[', f);
		for (int i = 0; r->argv[i]; i++) {
			fputs(i ? ", " : "", f);
			json_write_str(f, r->argv[i]);
		}
		fputs("],\n", f);
	} else {
		fputs("null,\n", f);
	}
	key_str(f, "cwd", r->cwd, false);
	fputs("  \"command_status\": ", f);
	if (r->st.command_exit >= 0)
		fprintf(f, "%d,\n", r->st.command_exit);
	else
		fputs("null,\n", f);
	fputs("  \"command_signal\": ", f);
	if (r->st.command_signal)
		fprintf(f, "%d,\n", r->st.command_signal);
	else
		fputs("null,\n", f);
	key_str(f, "command_error", r->st.command_error[0] ? r->st.command_error : NULL, false);
	key_str(f, "command_stopped", r->st.stopped_by_duration ? "duration" :
		r->st.stopped_by_request ? "request" : NULL, false);
	fputs("  \"command_seconds\": ", f);
	if (r->st.command_start > 0 && r->st.command_end >= r->st.command_start)
		fprintf(f, "%.3f,\n", r->st.command_end - r->st.command_start);
	else
		fputs("null,\n", f);
	fputs("  \"duration_limit_s\": ", f);
	if (r->duration_s > 0)
		fprintf(f, "%.3f,\n", r->duration_s);
	else
		fputs("null,\n", f);
	key_str(f, "started", r->started_utc, false);
	fprintf(f, "  \"recording_s\": %.3f,\n", r->wall_s);
	key_str(f, "trace", "trace.dat", false);
	key_str(f, "trace_clock", r->trace_clock, false);
	fprintf(f, "  \"buffer_kb\": %lu,\n", r->buffer_kb);
	fputs("  \"events\": ", f);
	write_events(f, r, true);
	fputs(",\n  \"events_missing\": ", f);
	write_events(f, r, false);
	fputs(",\n", f);
	fprintf(f, "  \"kick\": { \"cpus_switched\": %d, \"failed\": ", r->st.kicked);
	json_write_str(f, r->st.kick_failed);
	fputs(" },\n", f);

	fputs("  \"cpus_without_switch\": [", f);
	{
		bool first = true;

		for (int i = 0; i < r->ncpu_stats; i++) {
			int cpu = r->cpu_stats[i].cpu;

			if (r->check.opened && cpu < r->check.ncpus && !r->check.cpu_switches[cpu]) {
				fprintf(f, "%s%d", first ? "" : ", ", cpu);
				first = false;
			}
		}
	}
	fputs("],\n", f);

	complete = !r->lost_total && !r->check.missed_marks && !r->stop_reason[0];
	fprintf(f, "  \"lost_events\": { \"ring_buffer\": %llu, \"missed_marks\": %llu, \"missed_known\": %llu, \"per_cpu\": [",
		(unsigned long long)r->lost_total, (unsigned long long)r->check.missed_marks,
		(unsigned long long)r->check.missed_known);
	for (int i = 0; i < r->ncpu_stats; i++) {
		const struct rec_cpu_stats *s = &r->cpu_stats[i];

		fprintf(f, "%s{ \"cpu\": %d, \"overrun\": %llu, \"commit_overrun\": %llu, \"dropped\": %llu }",
			i ? ", " : "", s->cpu, (unsigned long long)s->overrun,
			(unsigned long long)s->commit_overrun, (unsigned long long)s->dropped);
	}
	fputs("] },\n", f);
	fprintf(f, "  \"trace_events\": %llu,\n", (unsigned long long)r->check.events);

	fputs("  \"energy\": ", f);
	if (r->energy && r->energy->nzones) {
		fputs("{ \"file\": \"energy.tsv\", \"zones\": [", f);
		for (int k = 0; k < r->energy->nzones; k++) {
			fputs(k ? ", " : "", f);
			json_write_str(f, r->energy->zones[k].label);
		}
		fprintf(f, "], \"interval_ms\": %u, \"samples\": %llu, \"failed_reads\": %d },\n",
			r->energy_ms, (unsigned long long)r->energy->nsamples, r->energy->failed_reads);
	} else {
		fputs("null,\n", f);
	}
	key_str(f, "result", r->result_copied ? "result.tsv" : NULL, false);
	key_str(f, "stopped_early", r->stop_reason[0] ? r->stop_reason : NULL, false);
	fprintf(f, "  \"interrupted\": %s,\n", r->interrupted ? "true" : "false");
	fputs("  \"notes\": [", f);
	for (int i = 0; i < r->nnotes; i++) {
		fputs(i ? ", " : "", f);
		json_write_str(f, r->notes[i]);
	}
	fputs("],\n", f);
	fprintf(f, "  \"complete\": %s\n}\n", complete ? "true" : "false");
	return 0;
}

int rec_write_run_json(const char *path, const struct rec_run *r, char *err, size_t errlen)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
		return -1;
	}
	write_body(f, r);
	if (ferror(f) | fclose(f)) {
		snprintf(err, errlen, "%s: write error: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		snprintf(err, errlen, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
