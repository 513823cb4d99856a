// SPDX-License-Identifier: GPL-2.0
/*
 * Reading topology.tsv (qemu/topology.md): the only source of the
 * cpu -> core -> package -> sched-domain-group mapping, since a trace.dat
 * carries none.  Every problem is reported with the file and line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "powersched.h"

/* "0-3,8" -> mask; -1 on malformed input or cpus beyond MAX_CPUS. */
int parse_cpulist(const char *s, struct cpumask_s *m)
{
	memset(m, 0, sizeof(*m));
	if (!*s)
		return -1;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a >= MAX_CPUS)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= MAX_CPUS)
				return -1;
			s = end;
		}
		for (long c = a; c <= b; c++)
			mask_set(m, c);
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int split(char *line, char **f, int max)
{
	int n = 0;
	char *save, *tok;

	for (tok = strtok_r(line, "\t\r\n", &save); tok && n < max;
	     tok = strtok_r(NULL, "\t\r\n", &save))
		f[n++] = tok;
	return n;
}

/* Domain names become column names and JSON keys: keep them plain. */
static bool name_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

static bool num(const char *s, int *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < 0 || x > 1000000)
		return false;
	*v = (int)x;
	return true;
}

int topology_read(const char *path, struct topology *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int lineno = 0, pkg_ids[MAX_CPUS], core_ids[MAX_CPUS], npk = 0, nco = 0;
	int rawpkg[MAX_CPUS], rawcore[MAX_CPUS];

	memset(t, 0, sizeof(*t));
	if (!f)
		return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));

	while (fgets(line, sizeof(line), f)) {
		char *fld[8];
		int n, cpu, v[4];

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			fclose(f);
			return fail(err, errlen, "%s:%d: line too long", path, lineno);
		}
		if (!strncmp(line, "# kernel\t", 9)) {
			snprintf(t->kernel, sizeof(t->kernel), "%.127s", line + 9);
			t->kernel[strcspn(t->kernel, "\t\r\n")] = 0;
			continue;
		}
		if (line[0] == '#' || line[0] == '\n' || line[0] == '\r')
			continue;
		n = split(line, fld, 8);
		if (n == 0)
			continue;
		if (!strcmp(fld[0], "cpu")) {
			if (n != 6 || !num(fld[1], &cpu) || !num(fld[2], &v[0]) ||
			    !num(fld[3], &v[1]) || !num(fld[4], &v[2]) || !num(fld[5], &v[3])) {
				fclose(f);
				return fail(err, errlen, "%s:%d: a cpu record needs 5 numbers: cpu package core thread node", path, lineno);
			}
			if (cpu >= MAX_CPUS) {
				fclose(f);
				return fail(err, errlen, "%s:%d: cpu %d is beyond the %d cpus supported", path, lineno, cpu, MAX_CPUS);
			}
			if (t->present[cpu]) {
				fclose(f);
				return fail(err, errlen, "%s:%d: cpu %d listed twice", path, lineno, cpu);
			}
			t->present[cpu] = true;
			t->ncpus++;
			if (cpu + 1 > t->nr_cpu_ids)
				t->nr_cpu_ids = cpu + 1;
			rawpkg[cpu] = v[0];
			rawcore[cpu] = v[1];
			t->thread[cpu] = v[2];
			t->node[cpu] = v[3];
		} else if (!strcmp(fld[0], "domain")) {
			struct cpumask_s span;
			int level, d, k;
			char *groups, *save, *g;

			if (n < 6 || !num(fld[1], &cpu) || !num(fld[2], &level) ||
			    strlen(fld[3]) >= NAME_LEN || parse_cpulist(fld[4], &span)) {
				fclose(f);
				return fail(err, errlen, "%s:%d: a domain record needs: cpu level name span groups [flags]", path, lineno);
			}
			if (!name_ok(fld[3])) {
				fclose(f);
				return fail(err, errlen, "%s:%d: domain name '%s': letters, digits, '_' and '-' only",
					    path, lineno, fld[3]);
			}
			for (d = 0; d < t->ndomains; d++)
				if (!strcmp(t->domains[d], fld[3]))
					break;
			if (d == t->ndomains) {
				if (d == MAX_DOMAINS) {
					fclose(f);
					return fail(err, errlen, "%s:%d: more than %d domain levels", path, lineno, MAX_DOMAINS);
				}
				snprintf(t->domains[d], NAME_LEN, "%s", fld[3]);
				t->ndomains++;
			}
			for (k = 0; k < t->nspans; k++)
				if (t->spans[k].domain_index == d && !memcmp(&t->spans[k].cpus, &span, sizeof(span)))
					break;
			if (k == t->nspans) {
				if (t->nspans == MAX_DGROUPS) {
					fclose(f);
					return fail(err, errlen, "%s:%d: more than %d sched domains", path, lineno, MAX_DGROUPS);
				}
				t->spans[k].domain_index = d;
				t->spans[k].cpus = span;
				snprintf(t->spans[k].span, sizeof(t->spans[k].span), "%s", fld[4]);
				t->nspans++;
			}
			groups = fld[5];
			for (g = strtok_r(groups, ";", &save); g; g = strtok_r(NULL, ";", &save)) {
				struct cpumask_s gm;

				if (parse_cpulist(g, &gm)) {
					fclose(f);
					return fail(err, errlen, "%s:%d: bad group cpulist '%s'", path, lineno, g);
				}
				for (k = 0; k < t->ngroups; k++)
					if (t->groups[k].domain_index == d &&
					    !memcmp(&t->groups[k].cpus, &gm, sizeof(gm)))
						break;
				if (k < t->ngroups)
					continue;
				if (t->ngroups == MAX_DGROUPS) {
					fclose(f);
					return fail(err, errlen, "%s:%d: more than %d sched groups", path, lineno, MAX_DGROUPS);
				}
				t->groups[k].cpus = gm;
				t->groups[k].domain_index = d;
				snprintf(t->groups[k].domain, NAME_LEN, "%s", fld[3]);
				snprintf(t->groups[k].span, sizeof(t->groups[k].span), "%s", g);
				t->ngroups++;
			}
		}
		/* other record types: ignored, later versions may add some */
	}
	fclose(f);

	if (!t->ncpus)
		return fail(err, errlen, "%s: no cpu records: not a topology.tsv written by qemu/run", path);

	/* dense package and core indices, in order of the cpus */
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		int i;

		if (!t->present[cpu])
			continue;
		for (i = 0; i < npk && pkg_ids[i] != rawpkg[cpu]; i++)
			;
		if (i == npk)
			pkg_ids[npk++] = rawpkg[cpu];
		t->pkg[cpu] = i;
		t->pkg_id[i] = rawpkg[cpu];
		for (i = 0; i < nco && core_ids[i] != rawcore[cpu]; i++)
			;
		if (i == nco)
			core_ids[nco++] = rawcore[cpu];
		t->core[cpu] = i;
		t->core_id[i] = rawcore[cpu];
	}
	t->npkgs = npk;
	t->ncores = nco;

	/* a core lives in one package; groups only hold listed cpus */
	for (int a = 0; a < t->nr_cpu_ids; a++)
		for (int b = a + 1; b < t->nr_cpu_ids; b++)
			if (t->present[a] && t->present[b] && t->core[a] == t->core[b] &&
			    t->pkg[a] != t->pkg[b])
				return fail(err, errlen, "%s: inconsistent: cpus %d and %d share core %d but not a package",
					    path, a, b, rawcore[a]);
	for (int k = 0; k < t->ngroups; k++)
		for (int cpu = 0; cpu < MAX_CPUS; cpu++)
			if (mask_test(&t->groups[k].cpus, cpu) && (cpu >= t->nr_cpu_ids || !t->present[cpu]))
				return fail(err, errlen, "%s: inconsistent: %s group %s holds cpu %d, which has no cpu record",
					    path, t->groups[k].domain, t->groups[k].span, cpu);
	for (int k = 0; k < t->nspans; k++)
		for (int cpu = 0; cpu < MAX_CPUS; cpu++)
			if (mask_test(&t->spans[k].cpus, cpu) && (cpu >= t->nr_cpu_ids || !t->present[cpu]))
				return fail(err, errlen, "%s: inconsistent: %s domain %s holds cpu %d, which has no cpu record",
					    path, t->domains[t->spans[k].domain_index], t->spans[k].span, cpu);
	return 0;
}
