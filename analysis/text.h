/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from outside (sysfs names, run.json values, directory names) on its
 * way into a TSV column or onto a terminal: a tab or newline would shift
 * the columns, an escape sequence would drive the terminal.
 */
#ifndef TEXT_H
#define TEXT_H

/* Replace every control character of @s by '?', in place; returns @s. */
static inline char *text_printable(char *s)
{
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

#endif
