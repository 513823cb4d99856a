// SPDX-License-Identifier: GPL-2.0
/*
 * powersched record: record a workload on this machine (a QEMU guest or a
 * real box) into a folder powersched analyze reads: trace.dat,
 * topology.tsv, run.json, energy.tsv when the machine has RAPL counters,
 * and the workload's result.tsv.
 *
 * Why trace-cmd record, driven from here, rather than libtracefs and
 * libtracecmd: the libraries Debian 12 ships expose the reading side only.
 * libtracecmd 1.3.1's public header (trace-cmd/trace-cmd.h) opens and
 * iterates trace files and has no output or recorder API (no
 * tracecmd_output_*, no tracecmd_create_recorder*), and libtracefs 1.6.4 has
 * no per-cpu raw buffer reader (tracefs_cpu_* came in 1.7).  Writing
 * trace.dat from C would mean reimplementing trace-cmd's file writer
 * (headers, event formats, kallsyms, printk formats, per-cpu flyrecord
 * sections) against an unexported format.  trace-cmd record is that writer,
 * in every distribution, and is what the guests ran before; so this command
 * does everything around it in C: checks the environment and the events,
 * sizes the buffers, writes the topology and run description, samples the
 * energy counters, watches the disk, makes every cpu switch once inside the
 * recording (record-exec.c), reads the ring buffer's loss counters after
 * the recording, and reads the trace back with libtracecmd to check it.
 *
 * trace-cmd runs with -k (keep: it leaves the buffers, so their stats
 * survive for rec_read_cpu_stats()), -C mono (the trace's timestamps are
 * CLOCK_MONOTONIC, like energy.tsv's) and --compression none (libtracecmd
 * 1.3.1 reads compressed cpu data into memory whole, uncompressed data page
 * by page; --file-version 6, the other way to get that, makes trace-cmd
 * 3.1.6 print a spurious "Cannot find description for buffer"); this
 * command restores what trace-cmd changed (events, buffer size, clock,
 * tracing_on) afterwards.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "powersched.h"
#include "energy.h"
#include "record.h"

/*
 * The recorder sleeps while the command runs: it wakes when trace-cmd ends
 * (SIGCHLD), for an energy sample, and for a disk check.  Each wakeup is
 * cpu time on the machine being measured; in a guest, where the results
 * folder is 9p, a readdir and a stat per cpu file took 8-20 ms of a vCPU
 * every 200 ms, enough to keep a package that the policy had emptied from
 * being idle 15% of the time.  So the check is one statvfs() twice a second.
 */
#define DISK_CHECK_MS	500
#define DISK_MARGIN	(8ULL << 20)	/* headers, formats, cmdlines */
#define BUFFER_MIN_KB	1024
#define BUFFER_MAX_KB	8192

static volatile sig_atomic_t got_int, got_term;

/* SIGCHLD only has to end the recorder's sleep; waitpid() does the rest */
static void on_child(int sig)
{
	(void)sig;
}

static void on_signal(int sig)
{
	if (sig == SIGINT)
		got_int = 1;
	else
		got_term = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s record [-o DIR] [--duration S] [--events LIST] [--buffer-kb N]\n"
		"                  [--energy-interval MS] [--result FILE] [-- COMMAND [ARGS...]]\n"
		"  Records COMMAND (or S seconds, or until Ctrl-C) as root into DIR: trace.dat,\n"
		"  topology.tsv, run.json, energy.tsv (RAPL machines) and COMMAND's result.tsv.\n"
		"  -o, --out DIR          results folder (default ./powersched-DATE-TIME)\n"
		"  -d, --duration S       stop after S seconds (a running COMMAND is stopped)\n"
		"  -e, --events LIST      comma-separated SYSTEM:EVENT or SYSTEM instead of the\n"
		"                         default set; +LIST adds to it.  Default: sched:sched_switch,\n"
		"                         sched_waking, sched_wakeup, sched_wakeup_new,\n"
		"                         sched_migrate_task, the powersched system, power:cpu_idle\n"
		"                         and power:cpu_frequency (the last three when present)\n"
		"  -b, --buffer-kb N      ring buffer per cpu (default: 1/16 of the available\n"
		"                         memory over the cpus, %d to %d KB)\n"
		"  --energy-interval MS   RAPL sampling period (default 100)\n"
		"  --result FILE          the workload's result file, copied into DIR as\n"
		"                         result.tsv (default result.tsv in the working directory,\n"
		"                         when COMMAND wrote it)\n"
		"  COMMAND runs in the current directory, in a process group of its own.\n"
		"Exit status: COMMAND's when it failed; else 0, or 3 when the recording is\n"
		"incomplete (events lost, stopped early); 1 recording error, 2 bad usage.\n",
		progname, BUFFER_MIN_KB, BUFFER_MAX_KB);
}

static void note(struct rec_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct rec_run *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s record: %s\n", progname, buf);
	if (r->nnotes < (int)(sizeof(r->notes) / sizeof(r->notes[0])))
		snprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), "%s", buf);
}


static uint64_t meminfo_kb(const char *key)
{
	FILE *f = sys_fopen("/proc/meminfo");
	char line[256];
	size_t n = strlen(key);
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtoull(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* What trace-cmd stores besides the events: kallsyms dominates. */
static uint64_t kallsyms_bytes(void)
{
	FILE *f = sys_fopen("/proc/kallsyms");
	char buf[65536];
	uint64_t n = 0;
	size_t got;

	if (!f)
		return 0;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		n += got;
	fclose(f);
	return n;
}

static uint64_t free_bytes(const char *dir)
{
	struct statvfs sv;

	if (statvfs(dir, &sv))
		return UINT64_MAX;
	return (uint64_t)sv.f_bavail * sv.f_frsize;
}

/* trace-cmd's per-cpu temporary files, trace.dat.cpuN, so far */
static uint64_t temp_bytes(const char *dir)
{
	struct dirent *de;
	uint64_t n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[4400];
		struct stat st;

		if (strncmp(de->d_name, "trace.dat.cpu", 13))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!stat(path, &st))
			n += st.st_size;
	}
	closedir(d);
	return n;
}

/* PROG as execvp() would find it */
static bool find_program(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4200];

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (!access(buf, X_OK))
			return true;
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

static int mkdir_p(const char *dir)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", dir);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536], tmp[4300];
	FILE *in = fopen(from, "re"), *out;
	size_t n;
	int ret = 0;

	if (!in)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", to);
	out = fopen(tmp, "w");
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			ret = -1;
	if (ferror(in))
		ret = -1;
	fclose(in);
	if (ferror(out) | fclose(out))
		ret = -1;
	if (!ret && rename(tmp, to))
		ret = -1;
	if (ret)
		unlink(tmp);
	return ret;
}

static pid_t start_trace_cmd(struct rec_run *r, const char *status_path, const char *self)
{
	char *av[16 + 2 * REC_MAX_EVENTS + 256];
	char bufkb[32], dur[32], out[4200], ev[REC_MAX_EVENTS][160];
	const char *tc = getenv("POWERSCHED_TRACE_CMD");
	int n = 0;
	pid_t pid;

	snprintf(bufkb, sizeof(bufkb), "%lu", r->buffer_kb);
	snprintf(dur, sizeof(dur), "%.3f", r->duration_s);
	snprintf(out, sizeof(out), "%s/trace.dat", r->dir);
	av[n++] = (char *)(tc ? tc : "trace-cmd");
	av[n++] = "record";
	av[n++] = "-q";
	av[n++] = "-k";
	av[n++] = "-C";
	av[n++] = r->trace_clock;
	av[n++] = "-b";
	av[n++] = bufkb;
	av[n++] = "--compression";
	av[n++] = "none";
	av[n++] = "-o";
	av[n++] = out;
	for (int i = 0; i < r->nevents; i++) {
		if (!r->events[i].present)
			continue;
		snprintf(ev[i], sizeof(ev[i]), "%s%s%s", r->events[i].system,
			 r->events[i].event[0] ? ":" : "", r->events[i].event);
		av[n++] = "-e";
		av[n++] = ev[i];
	}
	av[n++] = (char *)self;
	av[n++] = "record-exec";
	av[n++] = dur;
	if (r->argv) {
		av[n++] = "--";
		for (int i = 0; r->argv[i]; i++) {
			if (n == (int)(sizeof(av) / sizeof(av[0])) - 1) {
				warning("the command has too many arguments");
				return -1;
			}
			av[n++] = r->argv[i];
		}
	}
	av[n] = NULL;

	setenv(REC_STATUS_ENV, status_path, 1);
	setenv(REC_TRACEFS_ENV, r->tracefs, 1);
	pid = fork();
	if (pid < 0) {
		warning("cannot fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigaction(SIGINT, &dfl, NULL);
		sigaction(SIGTERM, &dfl, NULL);
		execvp(av[0], av);
		_exit(127);	/* found in PATH a moment ago: said by the caller */
	}
	return pid;
}

/*
 * Set by the init of the project's QEMU guests (qemu/guest-init): turning
 * events off live-patches every call site of their tracepoints
 * (text_poke_bp()), and under QEMU's multi-threaded TCG a vCPU now and then
 * still executes a site's int3 after the patch completed ("Oops: int3" in
 * the sched_wakeup site of ttwu_do_wakeup(), about once in 50 boots, always
 * at the end of a recording).  A guest powers off after its command, so
 * its events may stay on: tracing_on off and the buffer empty stop them
 * from recording anything.  This spares the end of a boot's last recording
 * only: trace-cmd record starts by turning every event off, so a second
 * recording in the same boot patches at its start.
 */
#define REC_KEEP_EVENTS_ENV "POWERSCHED_RECORD_KEEP_EVENTS"

static void restore_tracing(struct rec_run *r, const char *buffer_kb, const char *clock, const char *on)
{
	const char *keep_env = getenv(REC_KEEP_EVENTS_ENV);
	bool keep = keep_env && !strcmp(keep_env, "1");

	/*
	 * As trace-cmd record without -k leaves it: events off, buffer empty;
	 * or, keeping the events, tracing off
	 */
	rec_tracefs_write(r, keep ? "tracing_on" : "events/enable", "0");
	rec_tracefs_write(r, "trace", "");
	if (buffer_kb[0])
		rec_tracefs_write(r, "buffer_size_kb", buffer_kb);
	if (clock[0])
		rec_tracefs_write(r, "trace_clock", clock);
	if (on[0] && !keep)
		rec_tracefs_write(r, "tracing_on", on);
}

static void utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void print_energy(struct rec_run *r, const char *path)
{
	struct energy_data e;
	char err[512];

	if (energy_read(path, &e, err, sizeof(err))) {
		note(r, "energy.tsv cannot be read back: %s", err);
		return;
	}
	for (int k = 0; k < e.nzones; k++) {
		struct energy_window w;

		if (energy_window(&e, k, e.t[0], e.t[e.nsamples - 1], &w))
			continue;
		fprintf(stderr, "%s record: energy %s: %.3f J in %.3f s, %.3f W\n",
			progname, e.zones[k].label, w.joules, w.to_s - w.from_s, w.watts);
	}
	energy_free(&e);
}

/* Topology counts for run.json, from the file just written (the analyzer's reader). */
static void topology_counts(struct rec_run *r, const char *path)
{
	struct topology *t = calloc(1, sizeof(*t));
	char err[512];

	if (!t)
		return;
	if (topology_read(path, t, err, sizeof(err))) {
		note(r, "the analyzer cannot read the topology.tsv written: %s", err);
	} else {
		bool seen[MAX_CPUS] = { false };

		r->cpus = t->ncpus;
		r->packages = t->npkgs;
		r->cores = t->ncores;
		r->nodes = 0;
		for (int c = 0; c < t->nr_cpu_ids; c++)
			if (t->present[c] && t->node[c] >= 0 && t->node[c] < MAX_CPUS && !seen[t->node[c]]) {
				seen[t->node[c]] = true;
				r->nodes++;
			}
	}
	free(t);
}

static int parse_opts(struct rec_run *r, int argc, char **argv, const char **events)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "events", required_argument, NULL, 'e' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "energy-interval", required_argument, NULL, 'E' },
		{ "result", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:d:e:b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->dir = optarg;
			break;
		case 'd':
			errno = 0;
			r->duration_s = strtod(optarg, &end);
			if (errno || *end || !isfinite(r->duration_s) || r->duration_s <= 0 ||
			    r->duration_s > 1e7) {
				warning("--duration '%s': not a positive number of seconds", optarg);
				return 2;
			}
			break;
		case 'e':
			*events = optarg;
			break;
		case 'b':
			errno = 0;
			r->buffer_kb = strtoul(optarg, &end, 10);
			if (errno || *end || optarg[0] == '-' || r->buffer_kb < 4 || r->buffer_kb > 1UL << 22) {
				warning("--buffer-kb '%s': not a number of kilobytes from 4 to %lu", optarg, 1UL << 22);
				return 2;
			}
			break;
		case 'E': {
			unsigned long ms;

			errno = 0;
			ms = strtoul(optarg, &end, 10);
			if (errno || *end || optarg[0] == '-' || ms < 1 || ms > 60000) {
				warning("--energy-interval '%s': not a number of milliseconds from 1 to 60000", optarg);
				return 2;
			}
			r->energy_ms = (unsigned int)ms;
			break;
		}
		case 'R':
			r->result_name = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			usage(stderr);
			return 2;
		}
	}
	/* getopt has taken a "--" that ends the options */
	if ((optind < argc && !strcmp(argv[optind], "--") && ++optind == argc) ||
	    (optind == argc && !strcmp(argv[optind - 1], "--"))) {
		warning("no command after --");
		return 2;
	}
	if (optind < argc)
		r->argv = argv + optind;
	return 0;
}

/* events a second of the cpu that wrote the most, kept and lost */
static double busiest_rate(const struct rec_run *r)
{
	double best = 0;

	for (int i = 0; i < r->ncpu_stats; i++) {
		const struct rec_cpu_stats *s = &r->cpu_stats[i];
		double n = s->overrun + s->commit_overrun + s->dropped;

		if (s->cpu < r->check.ncpus)
			n += r->check.cpu_events[s->cpu];
		if (r->wall_s > 0 && n / r->wall_s > best)
			best = n / r->wall_s;
	}
	return best;
}

/*
 * After a lossy recording: a buffer that would have held what the reader
 * fell behind by.  On the cpu that lost most, the reader was at least a
 * whole buffer plus the lost events behind the writer; twice that, at the
 * mean record size of the trace written, in whole MB, at most --buffer-kb's
 * limit.
 * A lower bound for the next run at the same event rate, not a guarantee.
 */
static unsigned long suggested_buffer_kb(const struct rec_run *r, off_t trace_bytes)
{
	uint64_t worst = 0, need;
	double size = 64;

	for (int i = 0; i < r->ncpu_stats; i++) {
		const struct rec_cpu_stats *s = &r->cpu_stats[i];
		uint64_t lost = s->overrun + s->commit_overrun + s->dropped;

		if (lost > worst)
			worst = lost;
	}
	/* buffers marked in the trace but not counted: take the marks' count */
	if (!worst)
		worst = r->check.missed_known;
	if (r->check.events && trace_bytes > 0)
		size = (double)trace_bytes / r->check.events;
	need = 2 * (r->buffer_kb + (uint64_t)(worst * size / 1024 + 1));
	need = (need + 1023) / 1024 * 1024;
	return need < 1UL << 22 ? (unsigned long)need : 1UL << 22;
}

int cmd_record(int argc, char **argv)
{
	struct rec_run *r = calloc(1, sizeof(*r));
	struct energy_log *elog = calloc(1, sizeof(*elog));
	char path[4200], status_path[] = "/tmp/powersched-record.XXXXXX", err[1024], notebuf[512];
	char self[4096], dirbuf[4096], old_kb[128] = "", old_clock[32] = "", old_on[8] = "";
	const char *events = NULL;
	uint64_t flush, margin, start_ns, last_sample, last_disk, free_at_start;
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	/* nanosleep() is never restarted: SA_RESTART only spares the rest */
	struct sigaction sa_child = { .sa_handler = on_child, .sa_flags = SA_RESTART }, old_child;
	long tick_ms;
	int ret = 1, tc_status = 0, status_fd = -1, *cpus = NULL, ncpus, possible_max = 0;
	bool has_mono, tc_done = false, stop_sent = false, result_before = false;
	struct timespec result_mtime = { 0, 0 };
	off_t result_size = 0;
	pid_t tc;
	ssize_t n;

	if (!r || !elog) {
		warning("out of memory");
		goto out_free;
	}
	r->energy_ms = 100;
	r->result_name = "result.tsv";
	ret = parse_opts(r, argc, argv, &events);
	if (ret) {
		ret = ret < 0 ? 0 : ret;
		goto out_free;
	}
	ret = 1;
	if (!r->dir) {
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		strftime(dirbuf, sizeof(dirbuf), "powersched-%Y%m%d-%H%M%S", &tm);
		r->dir = dirbuf;
	}

	/* the environment: one clear line for each thing that is wrong */
	if (geteuid() != 0) {
		warning("record must run as root (tracefs, the ring buffers and the RAPL counters need it)");
		goto out_free;
	}
	if (rec_find_tracefs(r)) {
		warning("tracefs is not mounted (no %s/sys/kernel/tracing/events): mount -t tracefs nodev /sys/kernel/tracing",
			sysroot());
		goto out_free;
	}
	if (rec_resolve_events(r, events))
		goto out_free;
	if (!find_program(getenv("POWERSCHED_TRACE_CMD") ?: "trace-cmd")) {
		warning("trace-cmd is not installed (no %s in PATH): apt-get install trace-cmd",
			getenv("POWERSCHED_TRACE_CMD") ?: "trace-cmd");
		goto out_free;
	}
	rec_current_clock(r, old_clock, sizeof(old_clock), &has_mono);
	snprintf(r->trace_clock, sizeof(r->trace_clock), "%s", has_mono ? "mono" : "local");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		warning("cannot find this program's own path (/proc/self/exe): %s", strerror(errno));
		goto out_free;
	}
	self[n] = 0;
	if (!getcwd(r->cwd, sizeof(r->cwd)))
		snprintf(r->cwd, sizeof(r->cwd), "?");
	if (mkdir_p(r->dir) || access(r->dir, W_OK)) {
		warning("%s: cannot create or write the results folder: %s", r->dir, strerror(errno));
		goto out_free;
	}

	ncpus = sys_cpulist("/sys/devices/system/cpu/online", &cpus);
	if (ncpus <= 0) {
		warning("%s/sys/devices/system/cpu/online: cannot read the online cpus", sysroot());
		goto out_free;
	}
	r->cpu_stats = calloc(ncpus, sizeof(*r->cpu_stats));
	if (!r->cpu_stats)
		goto out_free;
	r->ncpu_stats = ncpus;
	for (int i = 0; i < ncpus; i++) {
		r->cpu_stats[i].cpu = cpus[i];
		if (cpus[i] + 1 > possible_max)
			possible_max = cpus[i] + 1;
	}
	{
		int *pc, np = sys_cpulist("/sys/devices/system/cpu/possible", &pc);

		for (int i = 0; i < np; i++)
			if (pc[i] + 1 > possible_max)
				possible_max = pc[i] + 1;
		free(pc);
	}

	if (!r->buffer_kb) {
		uint64_t avail = meminfo_kb("MemAvailable");

		r->buffer_kb = avail / 16 / ncpus;
		if (r->buffer_kb < BUFFER_MIN_KB)
			r->buffer_kb = BUFFER_MIN_KB;
		if (r->buffer_kb > BUFFER_MAX_KB)
			r->buffer_kb = BUFFER_MAX_KB;
	} else {
		uint64_t avail = meminfo_kb("MemAvailable");

		if (avail && (uint64_t)r->buffer_kb * ncpus > avail / 2) {
			warning("--buffer-kb %lu: %lu KB x %d cpus is more than half the available memory (%llu KB)",
				r->buffer_kb, r->buffer_kb, ncpus, (unsigned long long)avail);
			goto out_free;
		}
	}

	/* room for the flush at the end and for trace-cmd's copy into trace.dat */
	flush = (uint64_t)r->buffer_kb * 1024 * ncpus;
	margin = kallsyms_bytes() + DISK_MARGIN;
	if (free_bytes(r->dir) < 2 * flush + margin + (8ULL << 20)) {
		warning("%s: %llu MB free; recording needs at least %llu MB (twice the ring buffers, %d cpus x %lu KB, plus %llu MB): free space or lower --buffer-kb",
			r->dir, (unsigned long long)(free_bytes(r->dir) >> 20),
			(unsigned long long)((2 * flush + margin + (8ULL << 20)) >> 20), ncpus, r->buffer_kb,
			(unsigned long long)(margin >> 20));
		goto out_free;
	}

	snprintf(path, sizeof(path), "%s/topology.tsv", r->dir);
	if (topology_write_file(path, notebuf, sizeof(notebuf), err, sizeof(err))) {
		warning("topology.tsv: %s", err);
		goto out_free;
	}
	if (notebuf[0])
		note(r, "%s", notebuf);
	topology_counts(r, path);

	snprintf(path, sizeof(path), "%s/energy.tsv", r->dir);
	unlink(path);
	if (energy_log_open(elog, path, err, sizeof(err))) {
		warning("energy: %s", err);
		goto out_free;
	}
	r->energy = elog;
	for (int i = 0; i < r->nevents; i++)
		if (!r->events[i].present)
			note(r, "no %s%s%s events on this kernel: not recorded", r->events[i].system,
			     r->events[i].event[0] ? ":" : "", r->events[i].event);
	if (!has_mono)
		note(r, "the kernel has no 'mono' trace clock: the trace uses 'local', and energy.tsv's times do not map onto it");

	/* what trace-cmd changes and -k makes it leave */
	snprintf(path, sizeof(path), "%s/buffer_size_kb", r->tracefs);
	{
		FILE *f = fopen(path, "re");

		if (f) {
			char line[128], *exp;

			/* "7 (expanded: 1408)": never used since boot; it would be 1408 */
			if (fgets(line, sizeof(line), f)) {
				exp = strstr(line, "expanded: ");
				snprintf(old_kb, sizeof(old_kb), "%s", exp ? exp + 10 : line);
				old_kb[strcspn(old_kb, " )\n")] = 0;
			}
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/tracing_on", r->tracefs);
		f = fopen(path, "re");
		if (f) {
			if (fgets(old_on, sizeof(old_on), f))
				old_on[strcspn(old_on, "\n")] = 0;
			fclose(f);
		}
	}

	status_fd = mkstemp(status_path);
	if (status_fd < 0) {
		warning("cannot create a status file in /tmp: %s", strerror(errno));
		goto out_free;
	}
	close(status_fd);
	snprintf(path, sizeof(path), "%s/trace.dat", r->dir);
	unlink(path);

	fprintf(stderr, "%s record: recording into %s: %d event%s, %lu KB per cpu x %d cpus, clock %s, energy %s\n",
		progname, r->dir, r->nevents, r->nevents == 1 ? "" : "s", r->buffer_kb, ncpus, r->trace_clock,
		elog->nzones ? "sampled" : "not available (no RAPL zones)");
	if (!elog->nzones)
		note(r, "no RAPL energy counters (%s/sys/class/powercap/intel-rapl*): no energy.tsv", sysroot());

	{
		struct stat st;

		if (!stat(r->result_name, &st)) {
			result_before = true;
			result_mtime = st.st_mtim;
			result_size = st.st_size;
		}
	}
	utc_now(r->started_utc, sizeof(r->started_utc));
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigemptyset(&sa_child.sa_mask);
	sigaction(SIGCHLD, &sa_child, &old_child);
	free_at_start = free_bytes(r->dir);
	tick_ms = elog->nzones && r->energy_ms < DISK_CHECK_MS ? r->energy_ms : DISK_CHECK_MS;
	start_ns = mono_ns();
	energy_log_sample(elog);
	tc = start_trace_cmd(r, status_path, self);
	if (tc < 0)
		goto out_restore;

	last_sample = last_disk = mono_ns();
	while (!tc_done) {
		struct timespec tick = { tick_ms / 1000, (tick_ms % 1000) * 1000000L };
		uint64_t now;
		pid_t w;

		nanosleep(&tick, NULL);
		w = waitpid(tc, &tc_status, WNOHANG);
		if (w == tc) {
			tc_done = true;
			break;
		}
		now = mono_ns();
		if (elog->nzones && now - last_sample >= (uint64_t)r->energy_ms * 1000000) {
			if (energy_log_sample(elog) && !r->stop_reason[0])
				snprintf(r->stop_reason, sizeof(r->stop_reason),
					 "energy.tsv could not be written: %s", strerror(errno));
			last_sample = now;
		}
		if (now - last_disk >= DISK_CHECK_MS * 1000000ULL && !stop_sent) {
			/*
			 * What the recording wrote so far is at most the space
			 * gone since it started (others may write too, which
			 * only makes the check stop it earlier): no readdir.
			 */
			uint64_t fr = free_bytes(r->dir);
			uint64_t tb = free_at_start > fr ? free_at_start - fr : 0;

			last_disk = now;
			if (fr < tb + 2 * flush + margin) {
				tb = temp_bytes(r->dir);
				snprintf(r->stop_reason, sizeof(r->stop_reason),
					 "the disk holding %s was nearly full (%llu MB free, %llu MB recorded): the recording was stopped after %.1f s so that trace-cmd could still write trace.dat",
					 r->dir, (unsigned long long)(fr >> 20), (unsigned long long)(tb >> 20),
					 (now - start_ns) / 1e9);
			}
		}
		if (got_int)
			r->interrupted = true;
		if ((r->stop_reason[0] || got_term || got_int) && !stop_sent) {
			struct rec_status st;

			/* the helper ends the command; trace-cmd then finishes */
			if (!rec_status_read(status_path, &st) && st.helper_pid > 0) {
				kill(st.helper_pid, SIGTERM);
				stop_sent = true;
				if (r->stop_reason[0])
					fprintf(stderr, "%s record: stopping: %s\n", progname, r->stop_reason);
			}
		}
	}
	r->wall_s = (mono_ns() - start_ns) / 1e9;
	energy_log_sample(elog);

	rec_status_read(status_path, &r->st);
	if (r->st.helper_pid > 0 && kill(r->st.helper_pid, 0) == 0) {
		/* trace-cmd ended and left the helper: end it and the command */
		kill(r->st.helper_pid, SIGTERM);
	}
	rec_read_cpu_stats(r);
	ret = 0;
out_restore:
	restore_tracing(r, old_kb, old_clock, old_on);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGCHLD, &old_child, NULL);
	unlink(status_path);
	if (energy_log_close(elog, err, sizeof(err))) {
		warning("%s", err);
		ret = 1;
	}
	if (ret)
		goto out_free;
	ret = 1;

	if (!WIFEXITED(tc_status) || WEXITSTATUS(tc_status)) {
		char how[64];

		if (WIFEXITED(tc_status))
			snprintf(how, sizeof(how), "failed (exit status %d)", WEXITSTATUS(tc_status));
		else
			snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(tc_status));
		snprintf(path, sizeof(path), "%s/trace.dat", r->dir);
		warning("trace-cmd record %s%s: %s", how, r->stop_reason[0] ? " with the disk nearly full" : "",
			access(path, R_OK) ? (temp_bytes(r->dir) ? "no trace.dat (its per-cpu files trace.dat.cpuN are left, unmerged)"
								  : "no trace.dat written")
					   : "its trace.dat may be incomplete");
		goto out_free;
	}
	if (r->st.command_error[0]) {
		warning("%s", r->st.command_error);
	}

	/* the workload's own result: a file the recording created or changed */
	if (r->argv || strcmp(r->result_name, "result.tsv")) {
		struct stat st;

		if (!stat(r->result_name, &st) &&
		    (!result_before || st.st_mtim.tv_sec != result_mtime.tv_sec ||
		     st.st_mtim.tv_nsec != result_mtime.tv_nsec || st.st_size != result_size)) {
			char dst[4200], rs[PATH_MAX], rd[PATH_MAX];

			snprintf(dst, sizeof(dst), "%s/result.tsv", r->dir);
			if (realpath(r->result_name, rs) && realpath(dst, rd) && !strcmp(rs, rd))
				r->result_copied = true;	/* it ran in DIR already */
			else if (copy_file(r->result_name, dst))
				note(r, "%s: cannot copy into %s: %s", r->result_name, dst, strerror(errno));
			else
				r->result_copied = true;
		} else if (strcmp(r->result_name, "result.tsv")) {
			note(r, "--result %s: the command did not write it", r->result_name);
		}
	}

	snprintf(path, sizeof(path), "%s/trace.dat", r->dir);
	if (rec_check_trace(path, possible_max, &r->check)) {
		warning("%s", r->check.err);
		goto out_json;
	}
	ret = 0;
out_json:
	snprintf(path, sizeof(path), "%s/run.json", r->dir);
	if (rec_write_run_json(path, r, err, sizeof(err))) {
		warning("%s", err);
		ret = 1;
	}
	if (ret)
		goto out_free;

	/* the verdict, loudly when the recording is not complete */
	{
		char nosw[256] = "";
		size_t len = 0;
		struct stat st;

		for (int i = 0; i < r->ncpu_stats; i++) {
			int cpu = r->cpu_stats[i].cpu;

			if (cpu < r->check.ncpus && !r->check.cpu_switches[cpu] && len < sizeof(nosw) - 16)
				len += snprintf(nosw + len, sizeof(nosw) - len, "%s%d", len ? "," : "", cpu);
		}
		snprintf(path, sizeof(path), "%s/trace.dat", r->dir);
		if (stat(path, &st))
			st.st_size = 0;
		fprintf(stderr, "%s record: %s: %llu events from %d cpus in %.1f s, trace.dat %.1f MB%s\n",
			progname, r->dir, (unsigned long long)r->check.events, r->ncpu_stats, r->wall_s,
			st.st_size / 1048576.0,
			r->lost_total || r->check.missed_marks ? "" : ", nothing lost");
		if (nosw[0])
			fprintf(stderr, "%s record: warning: cpus %s show no sched_switch in the trace (%s)\n",
				progname, nosw, r->st.kick_failed[0] ? "they could not be made to switch: affinity or cpuset"
								       : "they switched before the recording reached them");
		if (r->lost_total || r->check.missed_marks) {
			unsigned long suggest = suggested_buffer_kb(r, st.st_size);

			fprintf(stderr, "%s record: WARNING: EVENTS WERE LOST: %llu by the ring buffers' count, %llu buffer(s) marked in the trace; busy shares may be over- or under-counted and migrations and event counts undercount: record again with --buffer-kb %lu or more (it was %lu; the busiest cpu wrote %.0f events a second)\n",
				progname, (unsigned long long)r->lost_total,
				(unsigned long long)r->check.missed_marks, suggest, r->buffer_kb,
				busiest_rate(r));
			ret = 3;
		}
		if (r->stop_reason[0]) {
			fprintf(stderr, "%s record: WARNING: STOPPED EARLY: %s; trace.dat holds what was recorded until then\n",
				progname, r->stop_reason);
			ret = 3;
		}
		if (elog->nzones) {
			snprintf(path, sizeof(path), "%s/energy.tsv", r->dir);
			print_energy(r, path);
		}
	}
	/* a command this recording stopped did not fail */
	if (r->st.stopped_by_duration || r->st.stopped_by_request)
		;
	else if (r->st.command_error[0])
		ret = 127;
	else if (r->st.command_exit > 0)
		ret = r->st.command_exit;
	else if (r->st.command_signal)
		ret = 128 + r->st.command_signal;
out_free:
	if (r) {
		rec_check_free(&r->check);
		free(r->cpu_stats);
	}
	free(cpus);
	free(elog);
	free(r);
	return ret;
}
