/* SPDX-License-Identifier: GPL-2.0 */
/*
 * powersched: turns guest traces into utilization timelines, idle
 * residency, migrations by topology level, the balance-mode timeline and a
 * power estimate.  One file per subcommand; powersched.c dispatches.
 */
#ifndef POWERSCHED_H
#define POWERSCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_CPUS	256
#define MASK_WORDS	(MAX_CPUS / 64)
#define MAX_DOMAINS	8
#define MAX_DGROUPS	512
#define NAME_LEN	16

struct cpumask_s {
	uint64_t bits[MASK_WORDS];
};

static inline void mask_set(struct cpumask_s *m, int cpu)
{
	m->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline bool mask_test(const struct cpumask_s *m, int cpu)
{
	return (m->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* A sched-domain group: one (domain name, span) pair of topology.tsv. */
struct dgroup {
	char domain[NAME_LEN];
	int domain_index;		/* into topology.domains */
	struct cpumask_s cpus;
	char span[64];			/* cpulist as written in topology.tsv */
};

/* A sched domain: one (domain name, span) pair of topology.tsv. */
struct dspan {
	int domain_index;		/* into topology.domains */
	struct cpumask_s cpus;
	char span[64];
};

/* topology.tsv, as written by qemu/guest-init (format: qemu/topology.md). */
struct topology {
	int ncpus;			/* cpu records */
	int nr_cpu_ids;			/* highest cpu + 1 */
	bool present[MAX_CPUS];
	int pkg[MAX_CPUS];		/* dense package index */
	int core[MAX_CPUS];		/* dense core index */
	int thread[MAX_CPUS];
	int node[MAX_CPUS];
	int npkgs, ncores;
	int pkg_id[MAX_CPUS];		/* package index -> physical_package_id */
	int core_id[MAX_CPUS];		/* core index -> core number of topology.tsv */
	char domains[MAX_DOMAINS][NAME_LEN];	/* names, lowest level first */
	int ndomains;
	struct dgroup groups[MAX_DGROUPS];
	int ngroups;
	struct dspan spans[MAX_DGROUPS];	/* the distinct domains of each level */
	int nspans;
	char kernel[128];
};

int topology_read(const char *path, struct topology *t, char *err, size_t errlen);
int parse_cpulist(const char *s, struct cpumask_s *m);

/* The power model (analysis/power-model.conf). */
struct power_model {
	double base_watts;
	double package_watts;
	double core_watts;
	double thread_watts;
	double package_wakeup_joules;
	/* the machine it was calibrated on, 0 when the file does not say */
	int packages, cores_per_package, threads_per_core;
	char path[4096];
};

int power_model_read(const char *path, struct power_model *m, char *err, size_t errlen);
int power_model_write(FILE *f, const struct power_model *m);
double power_model_watts(const struct power_model *m, double active_pkgs,
			 double active_cores, double active_threads,
			 double pkg_wakeups_per_s);
const char *default_model_path(void);
const char *power_model_for_topology(const struct topology *t);
int cmd_model_fit(int argc, char **argv, int first_run, const char *prior, const char *out);

/* flat key/value results (summary.tsv), for compare */
struct kv {
	char key[96];
	char val[160];
};

int kv_read(const char *path, struct kv **out, int *n);
const char *kv_get(const struct kv *kv, int n, const char *key);

/* CLI helpers */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern const char *progname;

int cmd_analyze(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_model(int argc, char **argv);

#endif
