// SPDX-License-Identifier: GPL-2.0
/*
 * The idle-state residency of the analysis window (idle.c's tracker, fed
 * by analyze.c from power:cpu_idle and sched_switch) in summary.json and
 * summary.tsv ("idle_states") and in idle_states.tsv.
 *
 * State names are the cpuidle driver's, as run.json's cpuidle.states lists
 * them for the recorded machine; a trace without run.json, or a machine
 * without a cpuidle driver (a QEMU guest: the default idle loop reports
 * state 1), gets "stateN".  The package's residency in its deepest state is
 * the time all of its cpus were in that state together: the residency a
 * package C-state needs, which the busy shares cannot show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "json.h"
#include "summary.h"
#include "text.h"

struct state_names {
	char *name[IDLE_MAX_STATES];
	int n;
};

static void take_name(void *ctx, const char *path, const char *value, bool is_string)
{
	static const char prefix[] = "cpuidle.states.";
	struct state_names *sn = ctx;
	char *end;
	long i;

	if (!is_string || strncmp(path, prefix, sizeof(prefix) - 1))
		return;
	i = strtol(path + sizeof(prefix) - 1, &end, 10);
	if (*end || i < 0 || i >= IDLE_MAX_STATES || sn->name[i])
		return;
	sn->name[i] = strdup(value);
	if (sn->name[i] && i + 1 > sn->n)
		sn->n = i + 1;
}

static void names_free(struct state_names *sn)
{
	for (int i = 0; i < IDLE_MAX_STATES; i++)
		free(sn->name[i]);
}

/* "idle_states" in the summary: null when the trace has no power:cpu_idle */
void fill_idle_states(struct analysis *a, struct summary *s, const char *run_json)
{
	struct state_names sn = { { NULL }, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!a->have_cpu_idle) {
		st_null(s, "idle_states");
		return;
	}
	if (run_json)
		json_scalars(run_json, strlen(run_json), take_name, &sn);
	f = open_memstream(&buf, &len);
	if (f) {
		idle_write_json(a->idle, f, (const char * const *)sn.name, sn.n);
		if (fclose(f) || !buf)
			s->failed = true;
		else
			st_json(s, "idle_states", NULL, buf);
	} else {
		s->failed = true;
	}
	free(buf);
	names_free(&sn);
}

/* idle_states.tsv (analysis/FORMATS.md), when the trace has power:cpu_idle */
int write_idle_states(struct analysis *a, const char *run_json)
{
	struct state_names sn = { { NULL }, 0 };
	struct output *o;
	int ret = -1;

	if (!a->have_cpu_idle)
		return 0;
	if (run_json)
		json_scalars(run_json, strlen(run_json), take_name, &sn);
	o = output_open(&a->outs, "idle_states.tsv");
	if (o) {
		idle_write_tsv(a->idle, o->f, (const char * const *)sn.name, sn.n);
		ret = output_close(o);
	}
	names_free(&sn);
	return ret;
}

/* The human summary's line: each package's share of the window in the deepest state seen */
void print_idle_states(struct analysis *a, const char *run_json)
{
	struct state_names sn = { { NULL }, 0 };
	const struct idle_tracker *it = a->idle;
	int deepest = it->nstates - 1;
	char label[64];

	if (!a->have_cpu_idle || deepest < 0)
		return;
	if (run_json)
		json_scalars(run_json, strlen(run_json), take_name, &sn);
	if (deepest < sn.n && sn.name[deepest])
		snprintf(label, sizeof(label), "%s", sn.name[deepest]);
	else
		snprintf(label, sizeof(label), "state%d", deepest);
	text_printable(label);
	printf("  deepest idle state    %s: ", label);
	for (int p = 0; p < it->npkgs; p++)
		printf("%spackage %d %.1f%%", p ? ", " : "", a->topo.pkg_id[p],
		       it->end > it->start ? 100.0 * it->pkg[p].res_ns[deepest] / (it->end - it->start) : 0);
	printf(" of the time (all of its cpus in it)\n");
	names_free(&sn);
}
