// SPDX-License-Identifier: GPL-2.0
/*
 * spin N [-t SECONDS]: the cover letter's `while true; do :; done` times N,
 * as N processes, for SECONDS (default 10).  Reports the iterations per
 * second of each process and in total.
 *
 * Result: a line "spin: N tasks, T s, total X it/s (per task: ...)" and
 * result.tsv with tasks, seconds, throughput (total it/s) and task_K.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: spin N [-t SECONDS]\n"
		"  N           busy processes (1-1024)\n"
		"  -t SECONDS  how long they spin (default 10)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long n, seconds = 10;
	uint64_t *counts;
	double start, elapsed, total = 0;
	pid_t *pids;
	FILE *res;
	int opt;

	while ((opt = getopt(argc, argv, "t:h")) != -1) {
		switch (opt) {
		case 't': seconds = parse_long("spin", "-t", optarg, 1, 86400); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	n = parse_long("spin", "N", argv[optind], 1, 1024);

	/* each child counts into its own cache line of a shared page */
	counts = mmap(NULL, n * 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(n, sizeof(*pids));
	if (counts == MAP_FAILED || !pids) {
		perror("spin");
		return 1;
	}
	mark("spin begin tasks=%ld seconds=%ld", n, seconds);
	start = now_s();
	for (long i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("spin: fork");
			return 1;
		}
		if (pids[i] == 0) {
			volatile uint64_t *c = &counts[i * 8];

			signal(SIGTERM, on_term);
			while (!stop)
				(*c)++;
			_exit(0);
		}
	}
	sleep(seconds);
	for (long i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	for (long i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	elapsed = now_s() - start;
	mark("spin end");

	res = result_open("spin");
	fprintf(res, "tasks\t%ld\nseconds\t%.3f\n", n, elapsed);
	printf("spin: %ld tasks, %.2f s, per task (it/s):", n, elapsed);
	for (long i = 0; i < n; i++) {
		double r = counts[i * 8] / elapsed;

		total += r;
		printf(" %.0f", r);
		fprintf(res, "task_%ld\t%.0f\n", i, r);
	}
	printf("; total %.0f it/s\n", total);
	fprintf(res, "throughput\t%.0f\n", total);
	fclose(res);
	return 0;
}
