// SPDX-License-Identifier: GPL-2.0
/*
 * Output files (output.h): checked writes, and nothing partial left
 * behind when a command fails.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "powersched.h"
#include "output.h"

bool path_join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);

	if (dl + 1 + nl + 1 > len)
		return false;
	memcpy(buf, dir, dl);
	buf[dl] = '/';
	memcpy(buf + dl + 1, name, nl + 1);
	return true;
}

struct output *output_open(struct outputs *outs, const char *name)
{
	char path[4200];
	struct output *o;
	struct stat st;
	char **paths;

	if (!path_join(path, sizeof(path), outs->dir, name)) {
		warning("%s: path too long", outs->dir);
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	paths = realloc(outs->paths, (outs->n + 1) * sizeof(*paths));
	if (!o || !paths) {
		free(o);
		if (paths)
			outs->paths = paths;
		warning("%s: out of memory", path);
		return NULL;
	}
	outs->paths = paths;
	o->path = strdup(path);
	if (!o->path) {
		free(o);
		warning("%s: out of memory", path);
		return NULL;
	}
	o->f = fopen(path, "w");
	if (!o->f) {
		warning("%s: cannot write: %s", path, strerror(errno));
		free(o->path);
		free(o);
		return NULL;
	}
	/*
	 * Only a regular file is ours to remove after a failure: --perfetto
	 * /dev/stdout, or a results file that is a link to a device, is not.
	 */
	if (!fstat(fileno(o->f), &st) && S_ISREG(st.st_mode)) {
		outs->paths[outs->n] = strdup(path);
		if (outs->paths[outs->n])
			outs->n++;
	}
	return o;
}

int output_close(struct output *o)
{
	int ret = 0, err = 0;

	if (!o)
		return 0;
	errno = 0;
	if (fflush(o->f) || ferror(o->f)) {
		err = errno ? errno : EIO;
		ret = -1;
	}
	if (fclose(o->f) && !ret) {
		err = errno;
		ret = -1;
	}
	if (ret)
		warning("%s: write error: %s", o->path, strerror(err));
	free(o->path);
	free(o);
	return ret;
}

void output_remove_all(struct outputs *outs)
{
	struct stat st;

	for (int i = 0; i < outs->n; i++)
		if (!lstat(outs->paths[i], &st) && S_ISREG(st.st_mode))
			unlink(outs->paths[i]);
}

void outputs_free(struct outputs *outs)
{
	for (int i = 0; i < outs->n; i++)
		free(outs->paths[i]);
	free(outs->paths);
	outs->paths = NULL;
	outs->n = 0;
}

/* Length of the valid UTF-8 sequence at @s, 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned int c;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values beyond Unicode */
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

/* Bytes that are not UTF-8 (a corrupt comm, a file name) become U+FFFD. */
void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int n = utf8_len(s);

		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}
