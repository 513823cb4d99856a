// SPDX-License-Identifier: GPL-2.0
/*
 * noop-iterate TRACE.dat: the library's own limit for `make bench`: a
 * tracecmd_iterate_events() loop whose callback only counts the records.
 */
#include <stdio.h>

#include <trace-cmd/trace-cmd.h>

static int count(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	(void)h; (void)r; (void)cpu;
	(*(unsigned long long *)data)++;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long n = 0;
	struct tracecmd_input *h;

	if (argc != 2) {
		fprintf(stderr, "usage: noop-iterate TRACE.dat\n");
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "noop-iterate: %s: cannot open\n", argv[1]);
		return 1;
	}
	if (tracecmd_iterate_events(h, NULL, 0, count, &n) < 0) {
		fprintf(stderr, "noop-iterate: %s: cannot read the events\n", argv[1]);
		return 1;
	}
	tracecmd_close(h);
	printf("%llu\n", n);
	return 0;
}
