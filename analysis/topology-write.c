// SPDX-License-Identifier: GPL-2.0
/*
 * topology.tsv of the machine this runs on (format: qemu/topology.md), the
 * one writer the guests and real machines share: qemu/guest-init runs
 * `powersched topology`, and `powersched record` writes the same file beside
 * every trace.
 *
 * cpu records come from sysfs (physical_package_id, thread_siblings_list,
 * the cpuN/nodeM link).  Domain spans come from /proc/schedstat's
 * "domainN MASK" lines, which every kernel with SCHEDSTATS prints without a
 * sched_verbose boot; a domain's groups follow from the spans the way the
 * kernel builds them (build_sched_groups() and build_overlap_sched_groups()
 * walk the span from the cpu, wrapping, and take each uncovered cpu's child
 * domain, or the cpu itself at the lowest level), so the group holding the
 * cpu comes first.  Names and flags come from debugfs
 * (sched/domains/cpuN/domainM/{name,flags}), turning sched/verbose on for
 * the moment of the read when it is off; without debugfs the names are
 * inferred from sysfs (SMT: the thread siblings, CLS: the cluster, MC: the
 * last-level cache, PKG: within one NUMA node, NUMA: beyond) and the flags
 * are "-".
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "powersched.h"
#include "machine.h"
#include "record.h"

#define TW_MAX_LEVELS	16
#define TW_NAME_LEN	16

struct tw_cpu {
	int cpu;
	long pkg;
	int node;
	int thread;
	int first_sibling;
	uint64_t *siblings;
	int nlevels;
	uint64_t *span[TW_MAX_LEVELS];
	char name[TW_MAX_LEVELS][TW_NAME_LEN];
	char *flags[TW_MAX_LEVELS];
};

struct tw {
	int ncpus;
	int nbits;		/* cpu numbers are below this */
	size_t words;
	struct tw_cpu *cpus;	/* ascending cpu numbers */
	int *index;		/* cpu number -> cpus[] index, -1 if none */
	bool names_inferred;
	bool no_schedstat;
	char *err;
	size_t errlen;
};

static int fail(struct tw *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, t->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t *bm_new(struct tw *t)
{
	return calloc(t->words, sizeof(uint64_t));
}

static void bm_set(uint64_t *m, int b)
{
	m[b / 64] |= 1ULL << (b % 64);
}

static bool bm_test(const uint64_t *m, int b)
{
	return (m[b / 64] >> (b % 64)) & 1;
}

static bool bm_equal(const struct tw *t, const uint64_t *a, const uint64_t *b)
{
	return !memcmp(a, b, t->words * sizeof(uint64_t));
}

static bool bm_subset(const struct tw *t, const uint64_t *a, const uint64_t *b)
{
	for (size_t i = 0; i < t->words; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

/* "0-3,8" (a sysfs cpulist); -1 when malformed or beyond nbits */
static int bm_parse_list(const struct tw *t, const char *s, uint64_t *m)
{
	memset(m, 0, t->words * sizeof(uint64_t));
	while (*s) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(s, &end, 10);
		if (errno || end == s || a < 0 || a >= t->nbits)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			b = strtol(s, &end, 10);
			if (errno || end == s || b < a || b >= t->nbits)
				return -1;
			s = end;
		}
		for (long c = a; c <= b; c++)
			bm_set(m, (int)c);
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

/* "000000ff,ffffffff" (the kernel's %*pb); -1 when malformed or too wide */
static int bm_parse_hex(const struct tw *t, const char *s, uint64_t *m)
{
	int bit = 0;
	size_t n = strlen(s);

	memset(m, 0, t->words * sizeof(uint64_t));
	if (!n)
		return -1;
	for (size_t i = n; i-- > 0;) {
		int v;

		if (s[i] == ',')
			continue;
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		v = isdigit((unsigned char)s[i]) ? s[i] - '0' : tolower((unsigned char)s[i]) - 'a' + 10;
		for (int k = 0; k < 4; k++, bit++)
			if (v & (1 << k)) {
				if (bit >= t->nbits)
					return -1;
				bm_set(m, bit);
			}
	}
	return 0;
}

static void bm_print_list(FILE *f, const struct tw *t, const uint64_t *m)
{
	bool first = true;

	for (int a = 0; a < t->nbits; a++) {
		int b;

		if (!bm_test(m, a))
			continue;
		for (b = a; b + 1 < t->nbits && bm_test(m, b + 1); b++)
			;
		fprintf(f, b > a ? "%s%d-%d" : "%s%d", first ? "" : ",", a, b);
		first = false;
		a = b;
	}
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The cpus with a topology directory, ascending. */
static int list_cpus(struct tw *t)
{
	char path[4096];
	struct dirent *de;
	int *nums = NULL, n = 0, cap = 0, max = -1;
	DIR *d;

	if (sys_path(path, sizeof(path), "/sys/devices/system/cpu") || !(d = opendir(path)))
		return fail(t, "%s: cannot list the cpus: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		char *end;
		long c;

		if (strncmp(de->d_name, "cpu", 3) || !isdigit((unsigned char)de->d_name[3]))
			continue;
		c = strtol(de->d_name + 3, &end, 10);
		if (*end || c < 0 || c > 1 << 20)
			continue;
		if (!sys_exists("/sys/devices/system/cpu/%s/topology", de->d_name))
			continue;	/* offline at boot: no topology */
		if (n == cap) {
			int *nn = realloc(nums, (cap = cap ? 2 * cap : 64) * sizeof(int));

			if (!nn) {
				free(nums);
				closedir(d);
				return fail(t, "out of memory");
			}
			nums = nn;
		}
		nums[n++] = (int)c;
		if (c > max)
			max = (int)c;
	}
	closedir(d);
	if (!n) {
		free(nums);
		return fail(t, "%s: no cpu with a topology directory", path);
	}
	qsort(nums, n, sizeof(int), cmp_int);

	/* masks wide enough for every cpu the kernel may name */
	t->nbits = max + 1;
	{
		char buf[256];
		char *dash;

		if (!sys_read(buf, sizeof(buf), "/sys/devices/system/cpu/possible")) {
			dash = strrchr(buf, '-');
			long last = strtol(dash ? dash + 1 : buf, NULL, 10);

			if (last + 1 > t->nbits && last < 1 << 20)
				t->nbits = (int)last + 1;
		}
	}
	t->words = (t->nbits + 63) / 64;
	t->cpus = calloc(n, sizeof(*t->cpus));
	t->index = malloc(t->nbits * sizeof(int));
	if (!t->cpus || !t->index) {
		free(nums);
		return fail(t, "out of memory");
	}
	for (int i = 0; i < t->nbits; i++)
		t->index[i] = -1;
	for (int i = 0; i < n; i++) {
		t->cpus[i].cpu = nums[i];
		t->index[nums[i]] = i;
	}
	t->ncpus = n;
	free(nums);
	return 0;
}

static int read_cpu(struct tw *t, struct tw_cpu *c)
{
	char buf[4096], path[4096];
	struct dirent *de;
	char *end;
	DIR *d;

	if (sys_read(buf, sizeof(buf), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c->cpu))
		return fail(t, "%s/sys/devices/system/cpu/cpu%d/topology/physical_package_id: %s",
			    sysroot(), c->cpu, strerror(errno));
	errno = 0;
	c->pkg = strtol(buf, &end, 10);
	if (errno || end == buf || *end)
		return fail(t, "%s/sys/devices/system/cpu/cpu%d/topology/physical_package_id: not a number: '%s'",
			    sysroot(), c->cpu, buf);
	if (c->pkg < 0)		/* some platforms say -1: one package */
		c->pkg = 0;

	c->siblings = bm_new(t);
	if (!c->siblings)
		return fail(t, "out of memory");
	if (sys_read(buf, sizeof(buf), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c->cpu))
		return fail(t, "%s/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list: %s",
			    sysroot(), c->cpu, strerror(errno));
	if (bm_parse_list(t, buf, c->siblings) || !bm_test(c->siblings, c->cpu))
		return fail(t, "%s/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list: bad cpulist '%s'",
			    sysroot(), c->cpu, buf);
	c->first_sibling = -1;
	c->thread = 0;
	for (int s = 0; s < t->nbits; s++)
		if (bm_test(c->siblings, s)) {
			if (c->first_sibling < 0)
				c->first_sibling = s;
			if (s < c->cpu)
				c->thread++;
		}

	c->node = 0;
	if (sys_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", c->cpu) == 0 && (d = opendir(path))) {
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "node", 4) && isdigit((unsigned char)de->d_name[4]))
				c->node = atoi(de->d_name + 4);
		closedir(d);
	}
	return 0;
}

/* /proc/schedstat: "cpuN ..." then its "domainK [NAME] MASK ..." lines */
static int read_schedstat(struct tw *t)
{
	FILE *f = sys_fopen("/proc/schedstat");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, cur = -1, version = 0, ret = -1;

	if (!f) {
		t->no_schedstat = true;
		return 0;
	}
	while (getline(&line, &cap, f) > 0) {
		char *tok[3] = { NULL }, *save = NULL;
		struct tw_cpu *c;
		const char *mask;
		int k = 0, level;

		lineno++;
		for (char *p = strtok_r(line, " \n", &save); p && k < 3; p = strtok_r(NULL, " \n", &save))
			tok[k++] = p;
		if (!k)
			continue;
		if (!strcmp(tok[0], "version") && tok[1]) {
			version = atoi(tok[1]);
			continue;
		}
		if (!strncmp(tok[0], "cpu", 3) && isdigit((unsigned char)tok[0][3])) {
			int n = atoi(tok[0] + 3);

			cur = n < t->nbits ? t->index[n] : -1;
			continue;
		}
		if (strncmp(tok[0], "domain", 6) || !isdigit((unsigned char)tok[0][6]) || cur < 0)
			continue;
		level = atoi(tok[0] + 6);
		c = &t->cpus[cur];
		/* version 17 puts the domain's name before the mask */
		mask = version >= 17 ? tok[2] : tok[1];
		if (level != c->nlevels || level >= TW_MAX_LEVELS || !mask) {
			fail(t, "%s/proc/schedstat:%d: unexpected domain line for cpu %d (level %d)",
			     sysroot(), lineno, c->cpu, level);
			goto out;
		}
		c->span[level] = bm_new(t);
		if (!c->span[level]) {
			fail(t, "out of memory");
			goto out;
		}
		if (bm_parse_hex(t, mask, c->span[level]) || !bm_test(c->span[level], c->cpu)) {
			fail(t, "%s/proc/schedstat:%d: bad domain span '%s' for cpu %d",
			     sysroot(), lineno, mask, c->cpu);
			goto out;
		}
		if (version >= 17)
			snprintf(c->name[level], TW_NAME_LEN, "%s", tok[1]);
		c->nlevels++;
	}
	if (!version) {
		fail(t, "%s/proc/schedstat: no version line: not a schedstat file", sysroot());
		goto out;
	}
	ret = 0;
out:
	free(line);
	fclose(f);
	return ret;
}

static char *read_flags(int cpu, int level)
{
	char buf[2048], *out, *p;
	size_t n = 0;

	if (sys_read(buf, sizeof(buf), "/sys/kernel/debug/sched/domains/cpu%d/domain%d/flags", cpu, level))
		return NULL;
	out = malloc(strlen(buf) + 2);
	if (!out)
		return NULL;
	/* "SD_A SD_B \n" -> "SD_A|SD_B" */
	for (p = strtok(buf, " \t\n"); p; p = strtok(NULL, " \t\n"))
		n += sprintf(out + n, "%s%s", n ? "|" : "", p);
	if (!n) {
		free(out);
		return NULL;
	}
	return out;
}

static bool debugfs_domains(void)
{
	return sys_exists("/sys/kernel/debug/sched/domains/cpu0") ||
	       sys_exists("/sys/kernel/debug/sched/domains");
}

/* sysfs cpulists used to name domains when debugfs cannot */
static uint64_t *read_list(struct tw *t, const char *fmt, int arg)
{
	char buf[4096], rel[256];
	uint64_t *m;

	snprintf(rel, sizeof(rel), fmt, arg);
	if (sys_read(buf, sizeof(buf), "%s", rel) || !buf[0])
		return NULL;
	m = bm_new(t);
	if (m && bm_parse_list(t, buf, m)) {
		free(m);
		return NULL;
	}
	return m;
}

static uint64_t *read_llc(struct tw *t, int cpu)
{
	uint64_t *best = NULL;
	int best_level = -1;

	for (int i = 0; i < 16; i++) {
		char buf[32], rel[128];
		int level;

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
		if (sys_read(buf, sizeof(buf), "%s", rel))
			continue;
		level = atoi(buf);
		if (level > best_level) {
			uint64_t *m;

			snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%%d/cache/index%d/shared_cpu_list", i);
			m = read_list(t, rel, cpu);
			if (m) {
				free(best);
				best = m;
				best_level = level;
			}
		}
	}
	return best;
}

static void infer_names(struct tw *t, struct tw_cpu *c)
{
	uint64_t *cls = read_list(t, "/sys/devices/system/cpu/cpu%d/topology/cluster_cpus_list", c->cpu);
	uint64_t *pkg = read_list(t, "/sys/devices/system/cpu/cpu%d/topology/package_cpus_list", c->cpu);
	uint64_t *node = read_list(t, "/sys/devices/system/node/node%d/cpulist", c->node);
	uint64_t *llc = read_llc(t, c->cpu);

	if (!pkg)
		pkg = read_list(t, "/sys/devices/system/cpu/cpu%d/topology/core_siblings_list", c->cpu);
	for (int l = 0; l < c->nlevels; l++) {
		const uint64_t *s = c->span[l];
		const char *name;

		if (c->name[l][0])
			continue;
		if (bm_equal(t, s, c->siblings))
			name = "SMT";
		else if (cls && bm_equal(t, s, cls))
			name = "CLS";
		else if (llc ? bm_equal(t, s, llc) : pkg && bm_equal(t, s, pkg))
			name = "MC";
		else if (node ? bm_subset(t, s, node) : pkg && bm_subset(t, s, pkg))
			name = "PKG";
		else
			name = "NUMA";
		snprintf(c->name[l], TW_NAME_LEN, "%s", name);
		t->names_inferred = true;
	}
	free(cls);
	free(pkg);
	free(node);
	free(llc);
}

static void read_names(struct tw *t)
{
	bool turned_on = false;
	char v[8];

	/* the domains directory exists only while sched/verbose is on */
	if (!debugfs_domains() && !sys_read(v, sizeof(v), "/sys/kernel/debug/sched/verbose") &&
	    v[0] == 'N' && !sys_write("Y", "/sys/kernel/debug/sched/verbose"))
		turned_on = true;
	for (int i = 0; i < t->ncpus; i++) {
		struct tw_cpu *c = &t->cpus[i];

		for (int l = 0; l < c->nlevels; l++) {
			char name[64];

			if (!sys_read(name, sizeof(name), "/sys/kernel/debug/sched/domains/cpu%d/domain%d/name",
				      c->cpu, l) && name[0] && strlen(name) < TW_NAME_LEN &&
			    !strpbrk(name, "\t\n "))
				memcpy(c->name[l], name, strlen(name) + 1);
			c->flags[l] = read_flags(c->cpu, l);
		}
		infer_names(t, c);
	}
	if (turned_on)
		sys_write("N", "/sys/kernel/debug/sched/verbose");
}

/* The groups of cpu c's domain at level l, the one holding c first. */
static int print_groups(FILE *f, struct tw *t, const struct tw_cpu *c, int l)
{
	uint64_t *covered = bm_new(t), *single = bm_new(t);
	const uint64_t *span = c->span[l];
	bool first = true;

	if (!covered || !single) {
		free(covered);
		free(single);
		return fail(t, "out of memory");
	}
	for (int k = 0; k < t->nbits; k++) {
		int i = (c->cpu + k) % t->nbits, idx;
		const uint64_t *g;

		if (!bm_test(span, i) || bm_test(covered, i))
			continue;
		idx = t->index[i];
		if (l > 0 && idx >= 0 && t->cpus[idx].nlevels >= l) {
			g = t->cpus[idx].span[l - 1];
		} else {
			memset(single, 0, t->words * sizeof(uint64_t));
			bm_set(single, i);
			g = single;
		}
		fputs(first ? "" : ";", f);
		bm_print_list(f, t, g);
		for (size_t w = 0; w < t->words; w++)
			covered[w] |= g[w];
		bm_set(covered, i);
		first = false;
	}
	free(covered);
	free(single);
	return 0;
}

static void tw_free(struct tw *t)
{
	for (int i = 0; i < t->ncpus; i++) {
		free(t->cpus[i].siblings);
		for (int l = 0; l < TW_MAX_LEVELS; l++) {
			free(t->cpus[i].span[l]);
			free(t->cpus[i].flags[l]);
		}
	}
	free(t->cpus);
	free(t->index);
}

int topology_write(FILE *out, char *note, size_t notelen, char *err, size_t errlen)
{
	struct tw t = { .err = err, .errlen = errlen };
	char release[256] = "", version[512] = "";
	int *core_of_first, ncores = 0, ret = -1;

	note[0] = 0;
	if (list_cpus(&t))
		goto out;
	for (int i = 0; i < t.ncpus; i++)
		if (read_cpu(&t, &t.cpus[i]))
			goto out;
	if (read_schedstat(&t))
		goto out;
	read_names(&t);

	if (sys_read(release, sizeof(release), "/proc/sys/kernel/osrelease"))
		snprintf(release, sizeof(release), "unknown");
	if (sys_read(version, sizeof(version), "/proc/sys/kernel/version"))
		snprintf(version, sizeof(version), "unknown");
	for (char *p = version; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';

	fprintf(out, "# powersched topology v1 (format: qemu/topology.md in the powersched sources)\n");
	fprintf(out, "# kernel\t%s\t%s\n", release, version);
	fprintf(out, "# nr_cpus\t%d\n", t.ncpus);
	fprintf(out, "# cpu\tcpu\tpackage\tcore\tthread\tnode\n");
	core_of_first = malloc(t.nbits * sizeof(int));
	if (!core_of_first) {
		fail(&t, "out of memory");
		goto out;
	}
	for (int i = 0; i < t.nbits; i++)
		core_of_first[i] = -1;
	for (int i = 0; i < t.ncpus; i++) {
		struct tw_cpu *c = &t.cpus[i];

		/* global core index, in order of the cores' first cpus */
		if (core_of_first[c->first_sibling] < 0)
			core_of_first[c->first_sibling] = ncores++;
		fprintf(out, "cpu\t%d\t%ld\t%d\t%d\t%d\n", c->cpu, c->pkg,
			core_of_first[c->first_sibling], c->thread, c->node);
	}
	free(core_of_first);
	if (t.names_inferred)
		fprintf(out, "# domain names inferred from sysfs (no debugfs sched/domains): flags unknown\n");
	if (t.no_schedstat)
		fprintf(out, "# no /proc/schedstat (a kernel without CONFIG_SCHEDSTATS): no domain records\n");
	fprintf(out, "# domain\tcpu\tlevel\tname\tspan\tgroups\tflags\n");
	for (int i = 0; i < t.ncpus; i++) {
		struct tw_cpu *c = &t.cpus[i];

		for (int l = 0; l < c->nlevels; l++) {
			fprintf(out, "domain\t%d\t%d\t%s\t", c->cpu, l, c->name[l]);
			bm_print_list(out, &t, c->span[l]);
			fputc('\t', out);
			if (print_groups(out, &t, c, l))
				goto out;
			fprintf(out, "\t%s\n", c->flags[l] ? c->flags[l] : "-");
		}
	}
	if (t.no_schedstat)
		snprintf(note, notelen, "%s/proc/schedstat is missing (CONFIG_SCHEDSTATS off): topology.tsv has no sched-domain records",
			 sysroot());
	else if (t.names_inferred)
		snprintf(note, notelen, "debugfs sched/domains is not available: domain names inferred from sysfs, flags unknown");
	ret = 0;
out:
	tw_free(&t);
	return ret;
}

/* Written to PATH.tmp and renamed: a reader never sees half a file. */
int topology_write_file(const char *path, char *note, size_t notelen, char *err, size_t errlen)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
		return -1;
	}
	if (topology_write(f, note, notelen, err, errlen)) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
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

static void topology_usage(FILE *f)
{
	fprintf(f, "usage: %s topology [-o FILE]\n"
		"  Writes topology.tsv of this machine (format: qemu/topology.md) to FILE\n"
		"  or standard output: cpus from sysfs, sched-domain spans from /proc/schedstat,\n"
		"  names and flags from debugfs (inferred from sysfs without it).\n"
		"  $%s reads everything below another root directory.\n", progname, SYSROOT_ENV);
}

int cmd_topology(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	char note[512], err[1024];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': topology_usage(stdout); return 0;
		default: topology_usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		topology_usage(stderr);
		return 2;
	}
	if (out ? topology_write_file(out, note, sizeof(note), err, sizeof(err))
		: topology_write(stdout, note, sizeof(note), err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	if (!out && (fflush(stdout) || ferror(stdout))) {
		warning("standard output: write error: %s", strerror(errno));
		return 1;
	}
	if (note[0])
		warning("%s", note);
	return 0;
}
