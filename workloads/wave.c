// SPDX-License-Identifier: GPL-2.0
/*
 * wave -j N [-n JOBS] [-s SEED]: the "tasks number keep waving" load of
 * `make -j N`: JOBS short-lived cpu-bound child processes (default 200),
 * at most N at a time, each a fixed amount of work of a length drawn
 * between 1 and 8 units (seeded, the same for every run); every 25 jobs a
 * "link" step runs alone after the jobs before it finish, so the number of
 * running tasks rises and falls like a parallel build's.
 *
 * Result: "wave: -j N, JOBS jobs, T s" and result.tsv with jobs, parallel,
 * runtime_s (wall time for the fixed work) and throughput (jobs/s).
 */
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define UNIT		2000000ULL	/* iterations: a few ms of cpu under TCG */
#define LINK_EVERY	25

static pid_t start_job(uint64_t units)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("wave: fork");
		exit(1);
	}
	if (pid == 0) {
		work(units * UNIT);
		_exit(0);
	}
	return pid;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: wave -j N [-n JOBS] [-s SEED]\n"
		"  -j N      jobs running at most at once, like make -j (1-256)\n"
		"  -n JOBS   jobs in all (default 200)\n"
		"  -s SEED   seed of the job lengths (default 1)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long par = 0, jobs = 200, seed = 1, running = 0, started = 0;
	double start, elapsed;
	unsigned int rng;
	FILE *res;
	int opt;

	while ((opt = getopt(argc, argv, "j:n:s:h")) != -1) {
		switch (opt) {
		case 'j': par = parse_long("wave", "-j", optarg, 1, 256); break;
		case 'n': jobs = parse_long("wave", "-n", optarg, 1, 100000); break;
		case 's': seed = parse_long("wave", "-s", optarg, 0, 1L << 30); break;
		default: usage();
		}
	}
	if (!par || optind != argc)
		usage();
	rng = (unsigned int)seed;

	mark("wave begin parallel=%ld jobs=%ld", par, jobs);
	start = now_s();
	while (started < jobs) {
		if (started && started % LINK_EVERY == 0) {
			/* the link step: wait for everything, then run alone */
			while (running > 0 && wait(NULL) > 0)
				running--;
			waitpid(start_job(4), NULL, 0);
		}
		while (running >= par && wait(NULL) > 0)
			running--;
		start_job(1 + rand_r(&rng) % 8);
		running++;
		started++;
	}
	while (running > 0 && wait(NULL) > 0)
		running--;
	elapsed = now_s() - start;
	mark("wave end");

	printf("wave: -j %ld, %ld jobs, %.3f s, %.1f jobs/s\n", par, jobs, elapsed, jobs / elapsed);
	res = result_open("wave");
	fprintf(res, "jobs\t%ld\nparallel\t%ld\nruntime_s\t%.3f\nthroughput\t%.3f\n",
		jobs, par, elapsed, jobs / elapsed);
	fclose(res);
	return 0;
}
