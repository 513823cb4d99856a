// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin-test: prints powersched records through plugin_powersched.so and
 * compares them with the expected text.  No kernel needed: the event
 * formats are the kernel's own, copied into tests/formats/, and each record
 * is laid out from the parsed format's field offsets.
 *
 * usage: plugin-test PLUGIN.so FORMAT_DIR      (TAP-style output)
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

static int failures, checks;
static const char *format_dir;

static void check_str(const char *name, const char *got, const char *want)
{
	checks++;
	if (strcmp(got, want) == 0) {
		printf("ok - %s\n", name);
		return;
	}
	failures++;
	printf("not ok - %s\n# got:  '%s'\n# want: '%s'\n", name, got, want);
}

static char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = n;
	return buf;
}

/* Replace every occurrence of @from in @text (which has room) by @to. */
static void replace_all(char *text, size_t room, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	char *p = text;

	while ((p = strstr(p, from))) {
		if (strlen(text) + tl - fl + 1 > room)
			return;
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
		memcpy(p, to, tl);
		p += tl;
	}
}

/*
 * Parse tests/formats/NAME.format.  With @missing, the format is the one of
 * a kernel whose event lacks that field: it is renamed ("reason" becomes
 * "reason_v0") in the field list and in the print format alike, as a
 * kernel would have it.
 */
static struct tep_event *load_format(struct tep_handle *tep, const char *name,
				     const char *missing)
{
	char path[4096];
	struct tep_event *event = NULL;
	size_t size, room;
	char *text;

	snprintf(path, sizeof(path), "%s/%s.format", format_dir, name);
	text = read_file(path, &size);
	if (!text) {
		fprintf(stderr, "plugin-test: cannot read %s\n", path);
		exit(2);
	}
	if (missing) {
		char from[128], to[128];

		room = size * 2 + 256;
		text = realloc(text, room);
		snprintf(from, sizeof(from), " %s;", missing);
		snprintf(to, sizeof(to), " %s_v0;", missing);
		replace_all(text, room, from, to);
		snprintf(from, sizeof(from), "REC->%s", missing);
		snprintf(to, sizeof(to), "REC->%s_v0", missing);
		replace_all(text, room, from, to);
		size = strlen(text);
	}
	if (tep_parse_format(tep, &event, text, size, "powersched") || !event) {
		fprintf(stderr, "plugin-test: cannot parse %s\n", path);
		exit(2);
	}
	free(text);
	return event;
}

/* A record under construction: fixed part sized by the format, then strings. */
struct rec {
	struct tep_event *event;
	unsigned char data[512];
	int size;
};

static void rec_init(struct rec *r, struct tep_event *event)
{
	struct tep_format_field *f;

	memset(r, 0, sizeof(*r));
	r->event = event;
	for (f = event->format.fields; f; f = f->next)
		if (f->offset + f->size > r->size)
			r->size = f->offset + f->size;
	for (f = event->format.common_fields; f; f = f->next)
		if (!strcmp(f->name, "common_type"))
			memcpy(r->data + f->offset, &(unsigned short){ event->id }, 2);
}

static void set_num(struct rec *r, const char *name, long long v)
{
	struct tep_format_field *f = tep_find_field(r->event, name);

	if (f)
		memcpy(r->data + f->offset, &v, f->size); /* little endian host */
}

/* A __data_loc field: offset/length word, bytes appended to the record. */
static void set_dyn(struct rec *r, const char *name, const void *bytes, int len)
{
	struct tep_format_field *f = tep_find_field(r->event, name);
	unsigned int loc;

	if (!f)
		return;
	loc = ((unsigned int)len << 16) | (unsigned int)r->size;
	memcpy(r->data + f->offset, &loc, 4);
	memcpy(r->data + r->size, bytes, len);
	r->size += len;
}

static void set_str(struct rec *r, const char *name, const char *str)
{
	set_dyn(r, name, str, strlen(str) + 1);
}

static void set_mask(struct rec *r, const char *name, unsigned long long bits)
{
	set_dyn(r, name, &bits, sizeof(bits));
}

static const char *print(struct tep_handle *tep, struct rec *r, int size)
{
	static char out[1024];
	struct tep_record record = {
		.data = r->data,
		.size = size >= 0 ? size : r->size,
	};
	struct trace_seq s;

	trace_seq_init(&s);
	tep_print_event(tep, &s, &record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(out, sizeof(out), "%s", s.buffer);
	trace_seq_destroy(&s);
	return out;
}

static void pack_record(struct rec *r, struct tep_event *e, int chosen, int reason,
			int origin, const char *domain, int level)
{
	rec_init(r, e);
	memcpy(r->data + tep_find_field(e, "comm")->offset, "spinloop", 9);
	set_num(r, "pid", 312);
	set_num(r, "prev_cpu", 0);
	set_num(r, "waking_cpu", 1);
	set_num(r, "chosen_cpu", chosen);
	set_num(r, "level", level);
	set_str(r, "domain", domain);
	set_num(r, "util", 1024);
	set_num(r, "origin", origin);
	set_num(r, "reason", reason);
}

int main(int argc, char **argv)
{
	struct tep_handle *tep;
	struct tep_event *e;
	struct rec r;
	int (*loader)(struct tep_handle *);
	void *plugin;

	if (argc != 3) {
		fprintf(stderr, "usage: plugin-test PLUGIN.so FORMAT_DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	format_dir = argv[2];
	plugin = dlopen(argv[1], RTLD_NOW);
	if (!plugin) {
		fprintf(stderr, "plugin-test: %s\n", dlerror());
		return 2;
	}
	loader = (int (*)(struct tep_handle *))dlsym(plugin, TEP_PLUGIN_LOADER_NAME);
	if (!loader) {
		fprintf(stderr, "plugin-test: %s has no %s\n", argv[1], TEP_PLUGIN_LOADER_NAME);
		return 2;
	}

	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	loader(tep);

	/* power_pack_decision */
	e = load_format(tep, "power_pack_decision", NULL);
	pack_record(&r, e, 2, 1, 0, "MC", 2);
	check_str("power_pack_decision: fork onto the leader's idlest cpu", print(tep, &r, -1),
		  "spinloop:312 fork -> cpu 2: idlest cpu of the group leader "
		  "[prev cpu 0, waking cpu 1, domain MC (sd->level 2), util 1024/1024]");
	pack_record(&r, e, -1, 4, 2, "NUMA", 5);
	check_str("power_pack_decision: domain full, mainline decides", print(tep, &r, -1),
		  "spinloop:312 wakeup -> mainline: domain full, mainline decides "
		  "[prev cpu 0, waking cpu 1, domain NUMA (sd->level 5), util 1024/1024]");
	pack_record(&r, e, 1, 2, 2, "MC", 2);
	check_str("power_pack_decision: transitory task kept local", print(tep, &r, -1),
		  "spinloop:312 wakeup -> cpu 1: transitory task kept on the waking cpu "
		  "[prev cpu 0, waking cpu 1, domain MC (sd->level 2), util 1024/1024]");
	pack_record(&r, e, 3, 42, 7, "MC", 2);
	check_str("power_pack_decision: unknown enum values are shown as numbers", print(tep, &r, -1),
		  "spinloop:312 7? -> cpu 3: 42? "
		  "[prev cpu 0, waking cpu 1, domain MC (sd->level 2), util 1024/1024]");
	/* a record cut short inside the domain string: the string is marked */
	pack_record(&r, e, 2, 1, 0, "MC", 2);
	check_str("power_pack_decision: truncated record marks what is missing", print(tep, &r, r.size - 2),
		  "spinloop:312 fork -> cpu 2: idlest cpu of the group leader "
		  "[prev cpu 0, waking cpu 1, domain ? (sd->level 2), util 1024/1024]");

	/* group_leader_chosen */
	e = load_format(tep, "group_leader_chosen", NULL);
	rec_init(&r, e);
	set_num(&r, "cpu", 2);
	set_num(&r, "level", 5);
	set_str(&r, "domain", "NUMA");
	set_mask(&r, "leader_cpus", 0x0f);
	set_num(&r, "leader_util", 2048);
	set_mask(&r, "min_cpus", 0xf0);
	set_num(&r, "min_util", 1024);
	set_num(&r, "sd_util", 3072);
	set_num(&r, "sd_capacity", 8192);
	set_num(&r, "origin", 3);
	check_str("group_leader_chosen: cpu sets as ranges", print(tep, &r, -1),
		  "for cpu 2 balance in NUMA (sd->level 5): leader 0-3 (util 2048), "
		  "least busy 4-7 (util 1024), domain util 3072/8192");
	rec_init(&r, e);
	set_num(&r, "cpu", 0);
	set_num(&r, "level", 2);
	set_str(&r, "domain", "MC");
	set_mask(&r, "leader_cpus", 0x10f | (1ULL << 63));
	set_num(&r, "leader_util", 100);
	set_mask(&r, "min_cpus", 0);
	set_num(&r, "origin", 0);
	check_str("group_leader_chosen: ranges, single cpus and an empty set", print(tep, &r, -1),
		  "for cpu 0 fork in MC (sd->level 2): leader 0-3,8,63 (util 100), "
		  "least busy none (util 0), domain util 0/0");

	/* lazy_balance_skip */
	e = load_format(tep, "lazy_balance_skip", NULL);
	rec_init(&r, e);
	set_num(&r, "cpu", 4);
	set_num(&r, "level", 2);
	set_str(&r, "domain", "MC");
	set_num(&r, "record", 0x0000000500000003LL);
	set_num(&r, "recent", 2);
	set_num(&r, "older", 2);
	check_str("lazy_balance_skip", print(tep, &r, -1),
		  "for cpu 4 in MC (sd->level 2): power balance skipped, 2 performance passes "
		  "in the last 32, 2 in the 32 before (history 0x0000000500000003)");

	/* balance_mode */
	e = load_format(tep, "balance_mode", NULL);
	rec_init(&r, e);
	set_num(&r, "cpu", 3);
	set_num(&r, "level", 5);
	set_str(&r, "domain", "NUMA");
	set_num(&r, "idle", 1);
	set_num(&r, "mode", 1);
	set_num(&r, "why", 8);
	check_str("balance_mode: a power pass", print(tep, &r, -1),
		  "for cpu 3 idle in NUMA (sd->level 5): power balance (packing the least busy group)");
	set_num(&r, "idle", 0);
	set_num(&r, "mode", 2);
	set_num(&r, "why", 2);
	check_str("balance_mode: a performance pass of a busy cpu", print(tep, &r, -1),
		  "for cpu 3 busy in NUMA (sd->level 5): performance balance (this cpu is busy)");

	/*
	 * Fields missing from the format (another kernel): what is there is
	 * printed and the rest marked "?".  The tep handle is new, since a
	 * handle keeps the first format it parsed for an event id.
	 */
	tep_free(tep);
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	loader(tep);
	e = load_format(tep, "power_pack_decision", "reason");
	pack_record(&r, e, 2, 1, 0, "MC", 2);
	check_str("power_pack_decision without a reason field", print(tep, &r, -1),
		  "spinloop:312 fork -> cpu 2: ? "
		  "[prev cpu 0, waking cpu 1, domain MC (sd->level 2), util 1024/1024]");
	e = load_format(tep, "balance_mode", "why");
	rec_init(&r, e);
	set_num(&r, "cpu", 3);
	set_num(&r, "level", 0);
	set_str(&r, "domain", "SMT");
	set_num(&r, "idle", 2);
	set_num(&r, "mode", 0);
	check_str("balance_mode without a why field", print(tep, &r, -1),
		  "for cpu 3 newly idle in SMT (sd->level 0): no balance (?)");
	e = load_format(tep, "lazy_balance_skip", "level");
	rec_init(&r, e);
	set_num(&r, "cpu", 1);
	set_str(&r, "domain", "MC");
	set_num(&r, "record", 1);
	set_num(&r, "recent", 1);
	set_num(&r, "older", 0);
	check_str("lazy_balance_skip without a level field", print(tep, &r, -1),
		  "for cpu 1 in MC (sd->level ?): power balance skipped, 1 performance passes "
		  "in the last 32, 0 in the 32 before (history 0x0000000000000001)");

	/*
	 * Series v2 (tests/formats/v2, written from the events' spec): the
	 * extended events, the new ones, and values a newer kernel may add.
	 */
	tep_free(tep);
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	loader(tep);
	e = load_format(tep, "v2/power_pack_decision", NULL);
	pack_record(&r, e, -1, 6, 2, "SMT", 0);
	set_num(&r, "sd_util", 1800);
	set_num(&r, "sd_capacity", 2048);
	set_num(&r, "scanned", 2);
	set_mask(&r, "burst_cpus", 0x3);
	check_str("v2 power_pack_decision: smt, with the domain's load and the burst cpus", print(tep, &r, -1),
		  "spinloop:312 wakeup -> mainline: the wake-affine domain is an SMT domain, mainline decides "
		  "[prev cpu 0, waking cpu 1, domain SMT (sd->level 0), util 1024/1024, domain util 1800/2048, "
		  "2 cpus scanned, burst cpus 0-1]");
	pack_record(&r, e, 0, 7, 2, "MC", 2);
	set_mask(&r, "burst_cpus", 0);
	check_str("v2 power_pack_decision: prev", print(tep, &r, -1),
		  "spinloop:312 wakeup -> cpu 0: its previous cpu, idle in the chosen group "
		  "[prev cpu 0, waking cpu 1, domain MC (sd->level 2), util 1024/1024, domain util 0/0, "
		  "0 cpus scanned, burst cpus none]");
	pack_record(&r, e, -1, 8, 2, "MC", 2);
	set_mask(&r, "burst_cpus", 0);
	check_str("v2 power_pack_decision: lazy", print(tep, &r, -1),
		  "spinloop:312 wakeup -> mainline: the domain was overloaded lately (lazy balance), mainline decides "
		  "[prev cpu 0, waking cpu 1, domain MC (sd->level 2), util 1024/1024, domain util 0/0, "
		  "0 cpus scanned, burst cpus none]");
	pack_record(&r, e, 0, 9, 2, "MC", 2);
	set_mask(&r, "burst_cpus", 0);
	check_str("v2 power_pack_decision: a reason a newer kernel added is 'N?'", print(tep, &r, -1),
		  "spinloop:312 wakeup -> cpu 0: 9? "
		  "[prev cpu 0, waking cpu 1, domain MC (sd->level 2), util 1024/1024, domain util 0/0, "
		  "0 cpus scanned, burst cpus none]");

	e = load_format(tep, "v2/balance_mode", NULL);
	rec_init(&r, e);
	set_num(&r, "cpu", 5);
	set_num(&r, "level", 5);
	set_str(&r, "domain", "NUMA");
	set_num(&r, "idle", 0);
	set_num(&r, "mode", 2);
	set_num(&r, "why", 3);
	set_mask(&r, "group_cpus", 0xf0);
	set_num(&r, "group_util", 4500);
	set_num(&r, "group_capacity", 4096);
	set_num(&r, "group_runnable", 5300);
	set_num(&r, "imbalance_pct", 125);
	set_num(&r, "cfs_util", 4000);
	set_num(&r, "stolen_util", 500);
	set_num(&r, "nr_runnable", 6);
	check_str("v2 balance_mode: the overloaded group", print(tep, &r, -1),
		  "for cpu 5 busy in NUMA (sd->level 5): performance balance (a group is overloaded) "
		  "[group 4-7, runnable 5300 > 4096 x 125%, util 4500/4096 (cfs 4000, rt+dl+irq 500), 6 runnable]");
	for (int w = 9; w <= 12; w++) {
		static const char * const want[] = {
			"for cpu 5 busy in NUMA (sd->level 5): no balance (no group has room)",
			"for cpu 5 busy in NUMA (sd->level 5): no balance (no other group has tasks to pull)",
			"for cpu 5 busy in NUMA (sd->level 5): no balance (misfit, asym packing or imbalance: left to mainline balance)",
			"for cpu 5 busy in NUMA (sd->level 5): no balance (12?)",
		};
		char name[64];

		set_num(&r, "mode", 0);
		set_num(&r, "why", w);
		snprintf(name, sizeof(name), "v2 balance_mode: why %d", w);
		check_str(name, print(tep, &r, -1), want[w - 9]);
	}

	e = load_format(tep, "v2/lazy_balance_skip", NULL);
	rec_init(&r, e);
	set_num(&r, "cpu", 2);
	set_num(&r, "level", 2);
	set_str(&r, "domain", "MC");
	set_num(&r, "record", 1);
	set_num(&r, "recent", 1);
	set_num(&r, "older", 0);
	set_num(&r, "window_ms", 8);
	set_num(&r, "since_ms", 3);
	set_num(&r, "variant", 1);
	check_str("v2 lazy_balance_skip: the window and the variant", print(tep, &r, -1),
		  "for cpu 2 in MC (sd->level 2): power balance skipped, 1 performance passes in the last 32, "
		  "0 in the 32 before (history 0x0000000000000001), window 8 ms, 3 ms since a performance pass, "
		  "per-domain time history");

	e = load_format(tep, "v2/balance_outcome", NULL);
	rec_init(&r, e);
	set_num(&r, "cpu", 0);
	set_num(&r, "src_cpu", 6);
	set_num(&r, "level", 5);
	set_str(&r, "domain", "NUMA");
	set_num(&r, "idle", 2);
	set_num(&r, "mode", 1);
	set_num(&r, "moved", 2);
	check_str("v2 balance_outcome", print(tep, &r, -1),
		  "for cpu 0 newly idle in NUMA (sd->level 5): power balance from cpu 6, 2 task(s) moved");
	set_num(&r, "moved", 0);
	set_num(&r, "active", 1);
	set_num(&r, "all_pinned", 1);
	set_num(&r, "mode", 3);
	check_str("v2 balance_outcome: active, pinned, an unknown mode", print(tep, &r, -1),
		  "for cpu 0 newly idle in NUMA (sd->level 5): 3? from cpu 6, 0 task(s) moved, "
		  "active balance kicked, every task pinned");

	e = load_format(tep, "v2/balance_migrate", NULL);
	rec_init(&r, e);
	memcpy(r.data + tep_find_field(e, "comm")->offset, "spinloop", 9);
	set_num(&r, "pid", 400);
	set_num(&r, "src_cpu", 6);
	set_num(&r, "dst_cpu", 0);
	set_num(&r, "level", 5);
	set_str(&r, "domain", "NUMA");
	set_num(&r, "idle", 1);
	set_num(&r, "mode", 1);
	set_num(&r, "active", 0);
	check_str("v2 balance_migrate: a power pass", print(tep, &r, -1),
		  "spinloop:400 cpu 6 -> cpu 0: pulled by a power balance pass (idle) in NUMA (sd->level 5)");
	set_num(&r, "active", 1);
	set_num(&r, "mode", 2);
	check_str("v2 balance_migrate: active balance", print(tep, &r, -1),
		  "spinloop:400 cpu 6 -> cpu 0: pushed by active balance, performance balance pass (idle) in NUMA (sd->level 5)");

	e = load_format(tep, "v2/policy_change", NULL);
	rec_init(&r, e);
	memcpy(r.data + tep_find_field(e, "comm")->offset, "sh", 3);
	set_num(&r, "pid", 77);
	set_num(&r, "old", 0);
	set_num(&r, "new", 1);
	check_str("v2 policy_change", print(tep, &r, -1),
		  "policy performance -> powersaving (written by sh:77)");
	set_num(&r, "new", 2);
	check_str("v2 policy_change: a policy a newer kernel added", print(tep, &r, -1),
		  "policy performance -> 2? (written by sh:77)");

	tep_free(tep);
	dlclose(plugin);
	printf("# %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
