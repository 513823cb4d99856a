/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.c: the one place that opens a trace.dat and reads its records.
 *
 * A reader describes the events it wants in a table of event_binding
 * (system, event, the fields it reads, its handler); trace_bind() finds
 * them in the trace's formats, and trace_dispatch() hands a record to the
 * handler of its event.  An event or a field the trace lacks is simply
 * absent (id -1, field NULL): handlers read fields with ev_num()/ev_str(),
 * which say so.
 */
#ifndef TRACE_H
#define TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <trace-cmd/trace-cmd.h>

#include "../tracer/powersched-events.h"

#define MAX_BOUND_FIELDS	16
#define TRACE_MAX_CPUS		256

struct bound_event;

typedef void (*event_fn)(void *ctx, struct bound_event *e, struct tep_record *r,
			 int cpu, uint64_t ts);

struct event_binding {
	const char *system, *name;
	const char * const *fields;	/* NULL-terminated, at most MAX_BOUND_FIELDS */
	event_fn fn;
};

struct bound_event {
	const struct event_binding *b;
	struct tep_handle *tep;
	bool native;			/* the file's byte order is the host's */
	int id;				/* -1: not in the trace */
	struct tep_format_field *f[MAX_BOUND_FIELDS];
};

/* Reading state of one cpu's records */
struct trace_cpu {
	struct tep_record *head;	/* its next record */
	struct tep_record **pend;	/* read ahead (see refill()) */
	int npend, pstart, pcap;
	uint64_t prev_ts;		/* of its last record handed out */
	bool seen;
};

struct trace_input {
	const char *path;
	struct tracecmd_input *h;
	struct tep_handle *tep;
	int ncpus;			/* cpus the file holds data for */
	int version;			/* trace.dat file version */
	char compression[32];		/* "none", "zstd", ... */
	struct bound_event *ev;
	int nev;
	short *by_id;			/* event id -> index into ev, -1 */
	int max_id;

	struct trace_cpu *cpu;		/* [ncpus] */
	uint64_t *head_ts;		/* [ncpus]: the heads' timestamps, UINT64_MAX none */
	unsigned long long last_offset;	/* file offset of the last record read */
	int last_cpu;
	bool crashed;			/* the library faulted: err says where */
	char err[512];

	/* records dropped because their timestamps cannot be right */
	uint64_t bad_ts_records;
	uint64_t bad_ts_at;		/* timestamp of the first one */
	uint64_t bad_ts_jump;		/* the largest jump, ns */
	int bad_ts_cpu;			/* the cpu of the first one */
};

/* Opens @path; on failure -1 and a message naming the file in @err. */
int trace_open(struct trace_input *in, const char *path, char *err, size_t errlen);
void trace_close(struct trace_input *in);
int trace_bind(struct trace_input *in, const struct event_binding *b, int n);
struct bound_event *trace_event(struct trace_input *in, const char *system, const char *name);

static inline struct bound_event *trace_lookup(struct trace_input *in, int id)
{
	int i = id >= 0 && id <= in->max_id ? in->by_id[id] : -1;

	return i >= 0 ? &in->ev[i] : NULL;
}

static inline void trace_dispatch(struct trace_input *in, void *ctx, struct tep_record *r,
				  int id, int cpu, uint64_t ts)
{
	struct bound_event *e = trace_lookup(in, id);

	if (e && e->b->fn)
		e->b->fn(ctx, e, r, cpu, ts);
}

/*
 * Before the pass: each cpu's records from its first up to its first
 * record of event @id (or its last): @fn sees them with @first set on the
 * cpu's first record and @match on the one of event @id.  -1 when the
 * library crashed (in->err says where).
 */
typedef void (*prescan_fn)(void *ctx, int cpu, struct tep_record *r, bool first, bool match);
int trace_prescan(struct trace_input *in, int id, prescan_fn fn, void *ctx);

/*
 * Every record in time order (r->missed_events says when events were lost
 * before it), with its event id; @fn returns < 0 to stop.  -1 when the library crashed
 * (in->err says where).  Records whose timestamps cannot be right are
 * dropped and counted in in->bad_ts_*.
 */
typedef int (*record_fn)(void *ctx, struct tep_record *r, int cpu, int id);
int trace_iterate(struct trace_input *in, record_fn fn, void *ctx);

/*
 * A numeric field: ps_field_num(), with a fast path for the common case
 * (a fixed field of 4 or 8 bytes in the host's byte order), since the
 * handlers read a few fields of every record.
 */
static inline bool ev_num(struct bound_event *e, struct tep_record *r, int field, long long *v)
{
	const struct tep_format_field *f = e->f[field];

	if (e->native && f && !(f->flags & TEP_FIELD_IS_DYNAMIC) && f->offset >= 0 &&
	    f->offset + f->size <= r->size) {
		const char *p = (const char *)r->data + f->offset;

		if (f->size == 4) {
			int32_t x;

			memcpy(&x, p, 4);
			*v = f->flags & TEP_FIELD_IS_SIGNED ? (long long)x : (long long)(uint32_t)x;
			return true;
		}
		if (f->size == 8) {
			int64_t x;

			memcpy(&x, p, 8);
			*v = x;
			return true;
		}
	}
	return ps_field_num(e->tep, f, r, v);
}

static inline bool ev_str(struct bound_event *e, struct tep_record *r, int field,
			  char *buf, size_t len)
{
	return ps_field_str(e->tep, e->f[field], r, buf, len);
}

/* Field names from the X-macro lists of powersched-events.h */
#define PS_FIELD_NAME(n) #n,
#define FIELD_NAMES(list) { list(PS_FIELD_NAME) NULL }

#endif
