// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace: writes a trace.dat (file version 6, uncompressed) from event
 * formats and a text list of records, for tests that need a trace with
 * exactly the records they name.
 *
 * usage: mktrace [--formats DIR]... [--system SYSTEM:DIR]... [--cpus N]
 *                -o TRACE.dat RECORDS.txt
 *
 *   --formats DIR   DIR/header_page, DIR/header_event (the kernel's ring
 *                   buffer layout, as trace-cmd dump --head-page prints it)
 *                   and DIR/SYSTEM/EVENT.format (as in tracefs)
 *   --system S:DIR  every DIR/EVENT.format, as events of system S
 *   --cpus N        cpus in the trace (default: the highest cpu used + 1)
 *   --omit EVENT    leave this event's format out (a kernel or a recording
 *                   without it); repeatable
 *
 * RECORDS.txt, one record a line ('#' starts a comment):
 *
 *   CPU SECONDS EVENT [FIELD=VALUE]...
 *
 * taken in time order (lines of equal time in the order written).
 * EVENT is "name" or "system:name"; VALUE is a number (0x.. too), a string
 * for char arrays and __data_loc strings (no blanks; "" quotes one with
 * blanks), a cpu list ("0-3,8", "none") for cpumasks.  Fields not given
 * are 0 or empty.
 * Directives, which act on the next record of CPU:
 *
 *   CPU SECONDS @page              start a new ring-buffer page
 *   CPU SECONDS @page shift=S      ... whose header timestamp is off by S
 *                                  seconds (a corrupt page timestamp)
 *   CPU SECONDS @missed N          ... marked with N lost events (-1: an
 *                                  unknown number), as after an overrun
 *   CPU SECONDS @garbage           a page of garbage that claims to hold
 *                                  128 MB and a count of lost events beyond
 *                                  it (libtraceevent reads past the page)
 *
 * The file format is trace-cmd.dat.v6(5).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#define PAGE_SIZE	4096
#define PAGE_HDR	16		/* u64 timestamp, u64 commit */
#define PAGE_DATA	(PAGE_SIZE - PAGE_HDR)
#define MAX_CPUS	256
#define MAX_EVENTS	256

#define TYPE_TIME_EXTEND	30
#define TS_SHIFT		27
#define MISSING_EVENTS		(1ULL << 31)
#define MISSING_STORED		(1ULL << 30)

static const char *records_path;
static int lineno;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mktrace: ");
	if (records_path && lineno)
		fprintf(stderr, "%s:%d: ", records_path, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static char *read_text(const char *path, size_t *size)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0)
		die("%s: cannot read", path);
	rewind(f);
	buf = calloc(1, n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n)
		die("%s: cannot read", path);
	fclose(f);
	*size = n;
	return buf;
}

/* ------------------------------------------------------------ formats */

struct format {
	char system[64];
	char *text;
	size_t size;
	struct tep_event *event;
};

static struct format formats[MAX_EVENTS];
static int nformats;
static const char *omit[MAX_EVENTS];
static int nomit;
static char *header_page, *header_event;
static size_t header_page_size, header_event_size;
static struct tep_handle *tep;

static void add_format(const char *system, const char *path)
{
	struct format *f;

	if (nformats == MAX_EVENTS)
		die("more than %d event formats", MAX_EVENTS);
	f = &formats[nformats];
	snprintf(f->system, sizeof(f->system), "%s", system);
	f->text = read_text(path, &f->size);
	if (!f->text)
		die("%s: %s", path, strerror(errno));
	if (tep_parse_format(tep, &f->event, f->text, f->size, system) || !f->event)
		die("%s: not an event format libtraceevent can parse", path);
	for (int i = 0; i < nomit; i++)
		if (!strcmp(omit[i], f->event->name)) {
			free(f->text);
			return;
		}
	for (int i = 0; i < nformats; i++)
		if (formats[i].event->id == f->event->id)
			die("%s: event id %d is also %s's", path, f->event->id, formats[i].event->name);
	nformats++;
}

static void add_dir(const char *system, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	if (n < 0)
		die("%s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		size_t len = strlen(ents[i]->d_name);
		char path[4096];

		if (len > 7 && !strcmp(ents[i]->d_name + len - 7, ".format")) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			add_format(system, path);
		}
		free(ents[i]);
	}
	free(ents);
}

static void add_formats_dir(const char *dir)
{
	struct dirent **ents;
	char path[4096];
	int n;

	if (!header_page) {
		snprintf(path, sizeof(path), "%s/header_page", dir);
		header_page = read_text(path, &header_page_size);
		snprintf(path, sizeof(path), "%s/header_event", dir);
		header_event = read_text(path, &header_event_size);
	}
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		die("%s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && ents[i]->d_type == DT_DIR)
			add_dir(ents[i]->d_name, path);
		free(ents[i]);
	}
	free(ents);
}

static struct format *find_format(const char *spec)
{
	const char *colon = strchr(spec, ':');
	struct format *found = NULL;

	for (int i = 0; i < nformats; i++) {
		struct format *f = &formats[i];

		if (colon) {
			if (!strncmp(spec, f->system, colon - spec) && !f->system[colon - spec] &&
			    !strcmp(colon + 1, f->event->name))
				return f;
		} else if (!strcmp(spec, f->event->name)) {
			if (found)
				die("event '%s' is in systems %s and %s: say which (SYSTEM:EVENT)",
				    spec, found->system, f->system);
			found = f;
		}
	}
	if (!found)
		die("no format for event '%s'", spec);
	return found;
}

/* ------------------------------------------------------------ records */

static bool is_cpumask(const struct tep_format_field *f)
{
	return strstr(f->type, "cpumask") != NULL;
}

static long long parse_num(const char *field, const char *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(v, &end, 0);
	if (errno == ERANGE)
		x = (long long)strtoull(v, &end, 0);
	if (end == v || *end)
		die("%s=%s: not a number", field, v);
	return x;
}

/* "0-3,8" or "none" -> bits; the mask is one 64-bit word per 64 cpus. */
static int parse_mask(const char *field, const char *v, uint64_t *bits, int words)
{
	int maxcpu = -1;

	memset(bits, 0, words * 8);
	if (!strcmp(v, "none") || !*v)
		return 1;
	while (*v) {
		char *end;
		long a = strtol(v, &end, 10), b = a;

		if (end == v || a < 0 || a >= words * 64)
			die("%s=%s: not a cpu list", field, v);
		v = end;
		if (*v == '-') {
			b = strtol(v + 1, &end, 10);
			if (end == v + 1 || b < a || b >= words * 64)
				die("%s: not a cpu list", field);
			v = end;
		}
		for (long c = a; c <= b; c++)
			bits[c / 64] |= 1ULL << (c % 64);
		if (b > maxcpu)
			maxcpu = b;
		if (*v == ',')
			v++;
		else if (*v)
			die("%s: not a cpu list", field);
	}
	return maxcpu / 64 + 1;
}

/* Lays out one record's payload from its FIELD=VALUE words. */
static int build_payload(struct format *fmt, char **words, int nwords, unsigned char *buf, int room)
{
	struct tep_event *e = fmt->event;
	struct tep_format_field *f;
	int size = 0;

	for (f = e->format.common_fields; f; f = f->next)
		if (f->offset + f->size > size)
			size = f->offset + f->size;
	for (f = e->format.fields; f; f = f->next)
		if (f->offset + f->size > size)
			size = f->offset + f->size;
	if (size > room)
		die("record too large");
	memset(buf, 0, size);
	f = tep_find_common_field(e, "common_type");
	if (f)
		memcpy(buf + f->offset, &(unsigned short){ e->id }, 2);
	/* a switch is recorded by the task switching out, unless told otherwise */
	for (int i = 0; i < nwords; i++)
		if (!strncmp(words[i], "prev_pid=", 9) && (f = tep_find_common_field(e, "common_pid"))) {
			int pid = (int)parse_num("prev_pid", words[i] + 9);

			memcpy(buf + f->offset, &pid, 4);
		}

	for (int i = 0; i < nwords; i++) {
		char *eq = strchr(words[i], '='), *name = words[i], *v;

		if (!eq)
			die("'%s': not FIELD=VALUE", words[i]);
		*eq = 0;
		v = eq + 1;
		f = tep_find_any_field(e, name);
		if (!f)
			die("%s has no field '%s'", e->name, name);
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			unsigned int loc, len;

			if (is_cpumask(f)) {
				uint64_t bits[MAX_CPUS / 64];

				len = parse_mask(name, v, bits, MAX_CPUS / 64) * 8;
				if (size + (int)len > room)
					die("record too large");
				memcpy(buf + size, bits, len);
			} else {
				len = strlen(v) + 1;
				if (size + (int)len > room)
					die("record too large");
				memcpy(buf + size, v, len);
			}
			loc = len << 16 | (unsigned int)size;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				loc = len << 16 | (unsigned int)(size - f->offset - f->size);
			memcpy(buf + f->offset, &loc, 4);
			size += len;
		} else if (f->size == 0) {
			/* a trailing char buf[]: the rest of the record */
			int len = strlen(v) + 1;

			if (f->offset + len > room)
				die("record too large");
			memcpy(buf + f->offset, v, len);
			if (f->offset + len > size)
				size = f->offset + len;
		} else if ((f->flags & TEP_FIELD_IS_ARRAY) || (f->flags & TEP_FIELD_IS_STRING)) {
			int len = strlen(v);

			if (len > f->size)
				die("%s=%s: longer than %d bytes", name, v, f->size);
			memset(buf + f->offset, 0, f->size);
			memcpy(buf + f->offset, v, len);
		} else {
			long long x = parse_num(name, v);

			if (f->size > 8)
				die("%s: a %d-byte number", name, f->size);
			memcpy(buf + f->offset, &x, f->size);	/* little-endian host */
		}
	}
	return size;
}

/* ------------------------------------------------------ the ring buffer */

struct cpubuf {
	unsigned char *pages;
	size_t npages, cap;	/* pages used, pages allocated */
	size_t used;		/* bytes of the current page's data */
	uint64_t page_ts;	/* timestamp of the current page's header */
	uint64_t last_ts;	/* of the last record written */
	bool open;		/* a current page exists */
	bool have_records;
	/* for the next record */
	bool new_page;
	long long missed;	/* 0: none */
	bool have_missed;
	long long shift;	/* page timestamp error, ns */
};

static struct cpubuf cpus[MAX_CPUS];
static int max_cpu = -1;

static unsigned char *page(struct cpubuf *c)
{
	return c->pages + (c->npages - 1) * PAGE_SIZE;
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Finish the current page: its commit word says how much data it holds. */
static void close_page(struct cpubuf *c)
{
	uint64_t commit;

	if (!c->open)
		return;
	commit = c->used;
	if (c->have_missed) {
		commit |= MISSING_EVENTS;
		if (c->missed >= 0) {
			commit |= MISSING_STORED;
			put64(page(c) + PAGE_HDR + c->used, (uint64_t)c->missed);
		}
	}
	put64(page(c) + 8, commit);
	c->open = false;
	c->have_missed = false;
}

/* One more page at the end of @c's buffer (grown by doubling) */
static void new_page(struct cpubuf *c)
{
	if (c->npages == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->pages = realloc(c->pages, c->cap * PAGE_SIZE);
		if (!c->pages)
			die("out of memory");
	}
	c->npages++;
}

static void open_page(struct cpubuf *c, uint64_t ts)
{
	close_page(c);
	new_page(c);
	memset(page(c), 0, PAGE_SIZE);
	c->page_ts = ts;
	put64(page(c), ts + c->shift);
	c->used = 0;
	c->open = true;
	c->shift = 0;
}

static void add_garbage_page(struct cpubuf *c)
{
	close_page(c);
	new_page(c);
	memset(page(c), 0xa5, PAGE_SIZE);
	put64(page(c), c->last_ts);
	put64(page(c) + 8, MISSING_EVENTS | MISSING_STORED | ((1ULL << 27) - 16));
}

static void add_record(struct cpubuf *c, uint64_t ts, const unsigned char *data, int len)
{
	int alen = (len + 3) & ~3;
	bool small = alen <= 28 * 4;
	size_t need = 4 + (small ? 0 : 4) + alen;
	uint64_t delta;

	if (c->have_records && ts < c->last_ts)
		die("records of a cpu must be in time order");
	/* room for the event, a time extend and a stored count of lost events */
	if (!c->open || c->new_page || c->used + need + 8 + 8 > PAGE_DATA) {
		bool missed = c->have_missed;
		long long n = c->missed;

		c->have_missed = false;
		open_page(c, ts);
		c->have_missed = missed;
		c->missed = n;
		c->new_page = false;
	}
	delta = ts - c->page_ts - 0;
	if (delta >= (1ULL << TS_SHIFT)) {
		unsigned char *p = page(c) + PAGE_HDR + c->used;

		put32(p, TYPE_TIME_EXTEND | (uint32_t)(delta & ((1U << TS_SHIFT) - 1)) << 5);
		put32(p + 4, (uint32_t)(delta >> TS_SHIFT));
		c->used += 8;
		c->page_ts = ts;
		delta = 0;
	} else {
		c->page_ts = ts;
	}
	{
		unsigned char *p = page(c) + PAGE_HDR + c->used;

		if (small) {
			put32(p, (uint32_t)(alen / 4) | (uint32_t)delta << 5);
			memset(p + 4, 0, alen);
			memcpy(p + 4, data, len);
		} else {
			put32(p, (uint32_t)delta << 5);
			put32(p + 4, alen + 4);
			memset(p + 8, 0, alen);
			memcpy(p + 8, data, len);
		}
		c->used += need;
	}
	c->last_ts = ts;
	c->have_records = true;
}

/* ------------------------------------------------------------- parsing */

static uint64_t parse_seconds(const char *s)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		die("'%s': not a time in seconds", s);
	while (isdigit((unsigned char)*p))
		sec = sec * 10 + (*p++ - '0');
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			if (digits < 9) {
				frac = frac * 10 + (*p - '0');
				digits++;
			}
			p++;
		}
	}
	if (*p)
		die("'%s': not a time in seconds", s);
	while (digits++ < 9)
		frac *= 10;
	return sec * 1000000000ULL + frac;
}

static long long parse_signed_seconds(const char *s)
{
	return *s == '-' ? -(long long)parse_seconds(s + 1) : (long long)parse_seconds(s + (*s == '+'));
}

/* Split @line into words; "..." quotes a word with blanks. */
static int split_words(char *line, char **w, int max)
{
	int n = 0;
	char *p = line;

	while (*p && n < max) {
		char *out;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		w[n++] = out = p;
		while (*p && !isspace((unsigned char)*p)) {
			if (*p == '"') {
				p++;
				while (*p && *p != '"')
					*out++ = *p++;
				if (*p == '"')
					p++;
			} else {
				*out++ = *p++;
			}
		}
		if (*p)
			p++;
		*out = 0;
	}
	return n;
}

struct line {
	uint64_t ts;
	int lineno;
	char *text;
};

static int by_time(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->lineno - y->lineno;
}

/*
 * The records are taken in time order (lines of equal time in file order),
 * so that a test may write them cpu by cpu or interleaved.
 */
static void read_records(const char *path)
{
	FILE *f = fopen(path, "r");
	struct line *lines = NULL;
	int nlines = 0, cap = 0;
	char line[8192];

	if (!f)
		die("%s: %s", path, strerror(errno));
	records_path = path;
	while (fgets(line, sizeof(line), f)) {
		char copy[8192], *w[64];

		lineno++;
		memcpy(copy, line, sizeof(copy));
		if (split_words(copy, w, 64) < 2)
			continue;
		if (nlines == cap) {
			cap = cap ? cap * 2 : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				die("out of memory");
		}
		lines[nlines].ts = parse_seconds(w[1]);
		lines[nlines].lineno = lineno;
		lines[nlines].text = strdup(line);
		if (!lines[nlines].text)
			die("out of memory");
		nlines++;
	}
	fclose(f);
	qsort(lines, nlines, sizeof(*lines), by_time);

	for (int i = 0; i < nlines; i++) {
		char *w[64];
		int n, cpu;
		uint64_t ts;
		struct cpubuf *c;

		lineno = lines[i].lineno;
		n = split_words(lines[i].text, w, 64);
		if (n < 3)
			die("expected: CPU SECONDS EVENT [FIELD=VALUE]...");
		cpu = (int)parse_num("cpu", w[0]);
		if (cpu < 0 || cpu >= MAX_CPUS)
			die("cpu %d: beyond %d cpus", cpu, MAX_CPUS);
		ts = lines[i].ts;
		c = &cpus[cpu];
		if (cpu > max_cpu)
			max_cpu = cpu;
		if (!strcmp(w[2], "@page")) {
			c->new_page = true;
			for (int k = 3; k < n; k++) {
				if (strncmp(w[k], "shift=", 6))
					die("@page takes shift=SECONDS");
				c->shift = parse_signed_seconds(w[k] + 6);
			}
		} else if (!strcmp(w[2], "@missed")) {
			if (n != 4)
				die("@missed takes a count (-1: unknown)");
			c->new_page = true;
			c->have_missed = true;
			c->missed = parse_num("count", w[3]);
		} else if (!strcmp(w[2], "@garbage")) {
			add_garbage_page(c);
		} else if (w[2][0] == '@') {
			die("unknown directive %s", w[2]);
		} else {
			struct format *fmt = find_format(w[2]);
			unsigned char buf[2048];
			int len = build_payload(fmt, w + 3, n - 3, buf, sizeof(buf));

			add_record(c, ts, buf, len);
		}
		free(lines[i].text);
	}
	free(lines);
	lineno = 0;
}

/* ---------------------------------------------------------------- output */

static FILE *out;
static const char *out_path;

static void w(const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, out) != n)
		die("%s: %s", out_path, strerror(errno));
}

static void w32(uint32_t v) { w(&v, 4); }
static void w64(uint64_t v) { w(&v, 8); }
static void ws(const char *s) { w(s, strlen(s) + 1); }

static void write_file(int ncpus)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char systems[MAX_EVENTS][64];
	int nsys = 0, nftrace = 0;
	long pos;
	uint64_t offset;

	w(magic, sizeof(magic));
	ws("6");
	w("\0\x08", 2);		/* little endian, 8-byte longs */
	w32(PAGE_SIZE);
	w("header_page", 12);
	w64(header_page_size);
	w(header_page, header_page_size);
	w("header_event", 13);
	w64(header_event_size);
	w(header_event, header_event_size);

	for (int i = 0; i < nformats; i++)
		nftrace += !strcmp(formats[i].system, "ftrace");
	w32(nftrace);
	for (int i = 0; i < nformats; i++)
		if (!strcmp(formats[i].system, "ftrace")) {
			w64(formats[i].size);
			w(formats[i].text, formats[i].size);
		}
	for (int i = 0; i < nformats; i++) {
		int j;

		if (!strcmp(formats[i].system, "ftrace"))
			continue;
		for (j = 0; j < nsys && strcmp(systems[j], formats[i].system); j++)
			;
		if (j == nsys)
			snprintf(systems[nsys++], 64, "%s", formats[i].system);
	}
	w32(nsys);
	for (int s = 0; s < nsys; s++) {
		int n = 0;

		ws(systems[s]);
		for (int i = 0; i < nformats; i++)
			n += !strcmp(formats[i].system, systems[s]);
		w32(n);
		for (int i = 0; i < nformats; i++)
			if (!strcmp(formats[i].system, systems[s])) {
				w64(formats[i].size);
				w(formats[i].text, formats[i].size);
			}
	}
	w32(0);			/* kallsyms */
	w32(0);			/* trace_printk formats */
	w64(0);			/* saved cmdlines */
	w32(ncpus);
	w("options  ", 10);
	w("\0\0", 2);		/* no options */
	w("flyrecord", 10);

	/* the cpu data starts page-aligned after the per-cpu offset table */
	pos = ftell(out);
	offset = ((uint64_t)pos + 16 * ncpus + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		uint64_t size = cpus[cpu].npages * PAGE_SIZE;

		w64(size ? offset : 0);
		w64(size);
		offset += size;
	}
	pos = ftell(out);
	for (long p = pos; p % PAGE_SIZE; p++)
		w("", 1);
	for (int cpu = 0; cpu < ncpus; cpu++)
		w(cpus[cpu].pages, cpus[cpu].npages * PAGE_SIZE);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: mktrace [--formats DIR]... [--system SYSTEM:DIR]... [--cpus N] [--omit EVENT]...\n"
		"               -o TRACE.dat RECORDS.txt\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "formats", required_argument, NULL, 'f' },
		{ "system", required_argument, NULL, 's' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "omit", required_argument, NULL, 'x' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ncpus = 0;

	tep = tep_alloc();
	if (!tep)
		die("out of memory");
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	/* --omit applies to every format, whatever the order of the options */
	for (int i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], "--omit") && nomit < MAX_EVENTS)
			omit[nomit++] = argv[i + 1];
	while ((c = getopt_long(argc, argv, "f:s:c:o:x:h", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			break;
		case 'f':
			add_formats_dir(optarg);
			break;
		case 's': {
			char *colon = strchr(optarg, ':');

			if (!colon)
				die("--system wants SYSTEM:DIR");
			*colon = 0;
			add_dir(optarg, colon + 1);
			break;
		}
		case 'c':
			ncpus = atoi(optarg);
			if (ncpus < 1 || ncpus > MAX_CPUS)
				die("--cpus %s: between 1 and %d", optarg, MAX_CPUS);
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 || !out_path) {
		usage(stderr);
		return 2;
	}
	if (!header_page || !header_event)
		die("no header_page/header_event: give --formats DIR");
	read_records(argv[optind]);
	if (!ncpus)
		ncpus = max_cpu + 1;
	if (max_cpu >= ncpus)
		die("records on cpu %d, but --cpus %d", max_cpu, ncpus);
	for (int cpu = 0; cpu < ncpus; cpu++)
		close_page(&cpus[cpu]);
	out = fopen(out_path, "w");
	if (!out)
		die("%s: %s", out_path, strerror(errno));
	write_file(ncpus);
	if (fclose(out))
		die("%s: %s", out_path, strerror(errno));
	for (int i = 0; i < nformats; i++)
		free(formats[i].text);
	for (int cpu = 0; cpu < MAX_CPUS; cpu++)
		free(cpus[cpu].pages);
	free(header_page);
	free(header_event);
	tep_free(tep);
	return 0;
}
