// SPDX-License-Identifier: GPL-2.0
/*
 * powersched: the command; one file per subcommand, dispatched from here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "powersched.h"
#include "record.h"

const char *progname = "powersched";

void warning(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* summary.tsv: "key<TAB>value" lines, '#' comments */
int kv_read(const char *path, struct kv **out, int *n)
{
	FILE *f = fopen(path, "r");
	char line[512];
	struct kv *kv = NULL;
	int cap = 0, cnt = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tab;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = 0;
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = 0;
		if (cnt == cap) {
			struct kv *nkv;

			cap = cap ? cap * 2 : 64;
			nkv = realloc(kv, cap * sizeof(*kv));
			if (!nkv) {
				free(kv);
				fclose(f);
				return -1;
			}
			kv = nkv;
		}
		snprintf(kv[cnt].key, sizeof(kv[cnt].key), "%.95s", line);
		snprintf(kv[cnt].val, sizeof(kv[cnt].val), "%.159s", tab + 1);
		cnt++;
	}
	fclose(f);
	*out = kv;
	*n = cnt;
	return 0;
}

const char *kv_get(const struct kv *kv, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].val;
	return NULL;
}

static const struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} subcommands[] = {
	{ "analyze", cmd_analyze, "TRACE.dat [--topology FILE] [--out DIR] [--bucket MS] [--model FILE] [--phase] [--max-rows N]" },
	{ "export", cmd_export, "TRACE.dat --perfetto FILE.json [--topology FILE]: an interactive timeline" },
	{ "compare", cmd_compare, "RUN_DIR... (analyzed runs) [--out FILE]" },
	{ "model", cmd_model, "[--model FILE] [--fit]: the power model against the SNB-EP table" },
	{ "record", cmd_record, "[-o DIR] [--duration S] [--events LIST] [--buffer-kb N] [-- COMMAND...]" },
	{ "topology", cmd_topology, "[-o FILE]: topology.tsv of this machine" },
	{ "record-exec", cmd_record_exec, NULL },	/* record's helper, not for users */
};

static void usage(FILE *f)
{
	fprintf(f, "usage: %s COMMAND [ARGS]\n", progname);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (subcommands[i].summary)
			fprintf(f, "  %s %s %s\n", progname, subcommands[i].name, subcommands[i].summary);
	fprintf(f, "'%s COMMAND --help' for the options of one.\n", progname);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		int ret;

		if (strcmp(argv[1], subcommands[i].name))
			continue;
		ret = subcommands[i].fn(argc - 1, argv + 1);
		/* a table printed to a full disk or a closed pipe is not a success */
		if ((fflush(stdout) | ferror(stdout)) && !ret) {
			warning("standard output: write error: %s", strerror(errno));
			ret = 1;
		}
		return ret;
	}
	warning("unknown command '%s'", argv[1]);
	usage(stderr);
	return 2;
}
