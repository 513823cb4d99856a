// SPDX-License-Identifier: GPL-2.0
/*
 * The table of live tasks (tasks.h): open addressing on the pid with
 * linear probing, and deletion by shifting the following entries back, so
 * that no tombstones accumulate as tasks come and go.
 */
#include <stdlib.h>
#include <string.h>

#include "tasks.h"

/* nslots is a power of two: a mask, not a division, on every lookup */
static uint32_t home(int pid, uint32_t nslots)
{
	return (uint32_t)(((uint64_t)(uint32_t)pid * 2654435761u) >> 7) & (nslots - 1);
}

static int grow(struct tasks *ts)
{
	uint32_t n = ts->nslots ? ts->nslots * 2 : 256;
	struct task *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (uint32_t i = 0; i < ts->nslots; i++) {
		struct task *o = &ts->slot[i];
		uint32_t j;

		if (!o->pid)
			continue;
		for (j = home(o->pid, n); slot[j].pid; j = (j + 1) & (n - 1))
			;
		slot[j] = *o;
	}
	free(ts->slot);
	ts->slot = slot;
	ts->nslots = n;
	return 0;
}

struct task *task_find(struct tasks *ts, int pid)
{
	if (!ts->nslots || pid <= 0)
		return NULL;
	for (uint32_t i = home(pid, ts->nslots); ts->slot[i].pid; i = (i + 1) & (ts->nslots - 1))
		if (ts->slot[i].pid == pid)
			return &ts->slot[i];
	return NULL;
}

struct task *task_get(struct tasks *ts, int pid)
{
	struct task *t = task_find(ts, pid);
	uint32_t i;

	if (t || pid <= 0)
		return t;
	if (ts->n >= MAX_LIVE_TASKS) {
		ts->untracked++;
		return NULL;
	}
	if ((ts->n + 1) * 2 > ts->nslots && grow(ts))
		return NULL;
	for (i = home(pid, ts->nslots); ts->slot[i].pid; i = (i + 1) & (ts->nslots - 1))
		;
	t = &ts->slot[i];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->cpu = -1;
	ts->n++;
	ts->seen++;
	return t;
}

void task_remove(struct tasks *ts, struct task *t)
{
	uint32_t i = t - ts->slot, j = i;

	free(t->wake);
	free(t->wait);
	memset(t, 0, sizeof(*t));
	ts->n--;
	/* shift back the entries whose probe sequence passed through slot i */
	for (;;) {
		uint32_t h;

		j = (j + 1) & (ts->nslots - 1);
		if (!ts->slot[j].pid)
			break;
		h = home(ts->slot[j].pid, ts->nslots);
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			ts->slot[i] = ts->slot[j];
			memset(&ts->slot[j], 0, sizeof(ts->slot[j]));
			i = j;
		}
	}
}

void tasks_free(struct tasks *ts)
{
	for (uint32_t i = 0; i < ts->nslots; i++) {
		free(ts->slot[i].wake);
		free(ts->slot[i].wait);
	}
	free(ts->slot);
	memset(ts, 0, sizeof(*ts));
}
