// SPDX-License-Identifier: GPL-2.0
/*
 * periodic N -r RUN_MS -p PERIOD_MS [-t SECONDS] [-f PRIO] [-s]: N small
 * tasks, each running RUN_MS of cpu every PERIOD_MS for SECONDS (default
 * 10): the transitory tasks the powersaving policy packs at wakeup.  With
 * -f they are SCHED_FIFO tasks of priority PRIO: cpu time that cfs tasks
 * cannot have, which the kernel takes out of a cpu's capacity.
 *
 * The tasks' periods start together, so they wake together and queue
 * behind one another, more or less as fork happened to spread them: a
 * property of each run.  -s staggers them instead, task i starting
 * i x PERIOD_MS / N later, so that a run's queueing is the same every time.
 *
 * Result: "periodic: ..." with the achieved duty cycle (time spent running
 * over the period, across tasks) and wakeup lateness (how late each period
 * started: mean, 99th percentile, max), and result.tsv with those and
 * throughput (periods completed per second, all tasks).
 */
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define MAX_SAMPLES	100000

struct task_result {
	double busy_s, late_sum, late_max;
	long periods;
	float late[MAX_SAMPLES / 16];
};

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static void run_task(struct task_result *r, const struct timespec *first, double run_s,
		     double period_s, double seconds)
{
	struct timespec next = *first;
	double end = next.tv_sec + next.tv_nsec / 1e9 + seconds;
	long cap = sizeof(r->late) / sizeof(r->late[0]);

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	while (now_s() < end) {
		double wake = now_s(), intended = next.tv_sec + next.tv_nsec / 1e9, late;
		double busy_until = wake + run_s;

		late = wake > intended ? wake - intended : 0;
		if (r->periods < cap)
			r->late[r->periods] = (float)late;
		r->late_sum += late;
		if (late > r->late_max)
			r->late_max = late;
		while (now_s() < busy_until)
			work(1000);
		r->busy_s += now_s() - wake;
		r->periods++;
		next.tv_nsec += (long)(period_s * 1e9);
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: periodic N -r RUN_MS -p PERIOD_MS [-t SECONDS] [-f PRIO] [-s]\n"
		"  N             tasks (1-256)\n"
		"  -r RUN_MS     cpu time each task runs per period\n"
		"  -p PERIOD_MS  the period (more than RUN_MS)\n"
		"  -t SECONDS    how long (default 10)\n"
		"  -f PRIO       run the tasks as SCHED_FIFO with this priority (1-99)\n"
		"  -s            stagger the tasks' periods evenly over PERIOD_MS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long n, run_ms = 0, period_ms = 0, seconds = 10, periods = 0, ns = 0, cap, fifo = 0;
	bool stagger = false;
	struct timespec first;
	double busy = 0, late_sum = 0, late_max = 0, elapsed, start;
	struct task_result *res;
	float *all;
	pid_t *pids;
	FILE *f;
	int opt;

	while ((opt = getopt(argc, argv, "r:p:t:f:sh")) != -1) {
		switch (opt) {
		case 's': stagger = true; break;
		case 'f': fifo = parse_long("periodic", "-f", optarg, 1, 99); break;
		case 'r': run_ms = parse_long("periodic", "-r", optarg, 1, 60000); break;
		case 'p': period_ms = parse_long("periodic", "-p", optarg, 1, 600000); break;
		case 't': seconds = parse_long("periodic", "-t", optarg, 1, 86400); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || !run_ms || !period_ms)
		usage();
	if (run_ms >= period_ms) {
		fprintf(stderr, "periodic: -r %ld must be less than -p %ld\n", run_ms, period_ms);
		return 2;
	}
	n = parse_long("periodic", "N", argv[optind], 1, 256);
	if (fifo) {
		struct sched_param sp = { .sched_priority = (int)fifo };

		/* inherited by the tasks forked below */
		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			perror("periodic: -f: sched_setscheduler(SCHED_FIFO)");
			return 1;
		}
	}

	res = mmap(NULL, n * sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(n, sizeof(*pids));
	if (res == MAP_FAILED || !pids) {
		perror("periodic");
		return 1;
	}
	memset(res, 0, n * sizeof(*res));
	mark("periodic begin tasks=%ld run_ms=%ld period_ms=%ld", n, run_ms, period_ms);
	start = now_s();
	clock_gettime(CLOCK_MONOTONIC, &first);
	for (long i = 0; i < n; i++) {
		struct timespec t = first;

		if (stagger) {
			t.tv_nsec += (long)(period_ms * 1000000L * i / n);
			t.tv_sec += t.tv_nsec / 1000000000L;
			t.tv_nsec %= 1000000000L;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("periodic: fork");
			return 1;
		}
		if (pids[i] == 0) {
			run_task(&res[i], &t, run_ms / 1e3, period_ms / 1e3, seconds);
			_exit(0);
		}
	}
	for (long i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	elapsed = now_s() - start;
	mark("periodic end");

	cap = sizeof(res[0].late) / sizeof(res[0].late[0]);
	all = calloc(n * cap, sizeof(*all));
	if (!all)
		return 1;
	for (long i = 0; i < n; i++) {
		busy += res[i].busy_s;
		periods += res[i].periods;
		late_sum += res[i].late_sum;
		if (res[i].late_max > late_max)
			late_max = res[i].late_max;
		for (long k = 0; k < res[i].periods && k < cap; k++)
			all[ns++] = res[i].late[k];
	}
	qsort(all, ns, sizeof(*all), cmp_float);
	{
		double duty = busy / (n * elapsed), want = (double)run_ms / period_ms;
		double mean = periods ? late_sum / periods : 0, p99 = ns ? all[(ns * 99) / 100] : 0;

		printf("periodic: %ld tasks, %ld ms every %ld ms, %.2f s: duty cycle %.3f (asked %.3f), "
		       "lateness mean %.3f ms, p99 %.3f ms, max %.3f ms\n", n, run_ms, period_ms, elapsed,
		       duty, want, mean * 1e3, p99 * 1e3, late_max * 1e3);
		f = result_open("periodic");
		fprintf(f, "tasks\t%ld\nrun_ms\t%ld\nperiod_ms\t%ld\nseconds\t%.3f\nduty_cycle\t%.4f\n"
			"duty_cycle_asked\t%.4f\nlateness_mean_ms\t%.3f\nlateness_p99_ms\t%.3f\n"
			"lateness_max_ms\t%.3f\nperiods\t%ld\nthroughput\t%.3f\n", n, run_ms, period_ms,
			elapsed, duty, want, mean * 1e3, p99 * 1e3, late_max * 1e3, periods, periods / elapsed);
		fclose(f);
	}
	free(all);
	return 0;
}
