// SPDX-License-Identifier: GPL-2.0
/*
 * powersched record-exec: the program trace-cmd record runs as its command,
 * so that everything it does happens with tracing on.  Not for users:
 * powersched record starts it as
 *
 *   trace-cmd record ... -- powersched record-exec DURATION_S [-- COMMAND...]
 *
 * with $POWERSCHED_RECORD_STATUS naming the file it reports into (one
 * "key<TAB>value" line each) and $POWERSCHED_RECORD_TRACEFS the tracefs
 * directory for its markers.
 *
 * First it makes every online cpu switch once: a cpu that runs one task for
 * the whole recording emits no sched_switch, and the trace could not tell
 * it from an idle one.  A short child pinned to each cpu switches in and
 * out there.  Then it runs COMMAND in its own process group (so that the
 * duration limit and an early stop end all of it), for at most DURATION_S
 * seconds when that is not 0, or, without a command, waits DURATION_S or
 * until SIGINT/SIGTERM.  SIGINT and SIGTERM (Ctrl-C, or powersched record
 * stopping early because the disk fills) are passed on to the command's
 * group; SIGKILL follows 5 s later.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "powersched.h"
#include "record.h"

#define KILL_GRACE_S	5

static int status_fd = -1;
static int marker_fd = -1;
static sigset_t waited, saved_mask;	/* INT TERM ALRM CHLD: taken by sigwaitinfo() */
static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (status_fd >= 0 && write(status_fd, buf, n) != n)
		warning("record-exec: cannot write the status file: %s", strerror(errno));
}

static void marker(const char *what)
{
	char buf[128];
	int n = snprintf(buf, sizeof(buf), "powersched-record: %s\n", what);

	if (marker_fd >= 0 && write(marker_fd, buf, n) != n)
		warning("record-exec: cannot write a trace marker: %s", strerror(errno));
}

static void set_alarm(double s)
{
	struct itimerval it = { 0 };

	it.it_value.tv_sec = (time_t)s;
	it.it_value.tv_usec = (suseconds_t)((s - (double)it.it_value.tv_sec) * 1e6);
	if (!it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* A child pinned to each online cpu: it switches in there, and out. */
static void kick_cpus(void)
{
	int *cpus, n = sys_cpulist("/sys/devices/system/cpu/online", &cpus), ok = 0, nfail = 0;
	char failed[256] = "";
	size_t flen = 0;
	pid_t *pids;

	if (n <= 0) {
		report("kick\t0\tno online cpu list");
		free(cpus);
		return;
	}
	pids = calloc(n, sizeof(pid_t));
	if (!pids) {
		report("kick\t0\tout of memory");
		free(cpus);
		return;
	}
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			size_t sz = CPU_ALLOC_SIZE(cpus[i] + 1);
			cpu_set_t *set = CPU_ALLOC(cpus[i] + 1);

			if (!set)
				_exit(2);
			CPU_ZERO_S(sz, set);
			CPU_SET_S(cpus[i], sz, set);
			if (sched_setaffinity(0, sz, set))
				_exit(2);
			for (int k = 0; k < 100 && sched_getcpu() != cpus[i]; k++)
				sched_yield();
			_exit(sched_getcpu() == cpus[i] ? 0 : 1);
		}
	}
	for (int i = 0; i < n; i++) {
		int status;

		if (pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			ok++;
			continue;
		}
		nfail++;
		if (flen < sizeof(failed) - 16)
			flen += snprintf(failed + flen, sizeof(failed) - flen, "%s%d", flen ? "," : "", cpus[i]);
	}
	report("kick\t%d\t%s", ok, nfail ? failed : "-");
	free(pids);
	free(cpus);
}

static int run_command(char **argv, double duration)
{
	int status, killed = 0;
	pid_t pid;

	marker("command start");
	report("command_start\t%.9f", mono_ns() / 1e9);
	pid = fork();
	if (pid < 0) {
		report("command_error\tcannot fork: %s", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		sigprocmask(SIG_SETMASK, &saved_mask, NULL);
		/* in a process group of its own it must not read the terminal */
		if (isatty(STDIN_FILENO)) {
			int fd = open("/dev/null", O_RDONLY);

			if (fd >= 0) {
				dup2(fd, STDIN_FILENO);
				close(fd);
			}
		}
		execvp(argv[0], argv);
		report("command_error\tcannot run '%s': %s", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	if (duration > 0)
		set_alarm(duration);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		int sig;

		if (w == pid)
			break;
		if (w < 0) {
			report("command_error\twaitpid: %s", strerror(errno));
			return 1;
		}
		sig = sigwaitinfo(&waited, NULL);
		if (sig < 0 || sig == SIGCHLD)
			continue;
		if (!killed) {
			report("stopped\t%s", sig == SIGALRM ? "duration" : "request");
			kill(-pid, SIGTERM);
			killed = 1;
			set_alarm(KILL_GRACE_S);
		} else if (sig == SIGALRM) {
			kill(-pid, SIGKILL);
		}
	}
	{
		struct itimerval off = { 0 };

		setitimer(ITIMER_REAL, &off, NULL);
	}
	report("command_end\t%.9f", mono_ns() / 1e9);
	marker("command end");
	if (WIFEXITED(status))
		report("command_exit\t%d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		report("command_signal\t%d", WTERMSIG(status));
	/* what the group left behind goes too */
	kill(-pid, SIGKILL);
	return 0;
}

static void wait_only(double duration)
{
	int sig;

	if (duration > 0)
		set_alarm(duration);
	do
		sig = sigwaitinfo(&waited, NULL);
	while (sig < 0 || sig == SIGCHLD);
	report("stopped\t%s", sig == SIGALRM ? "duration" : "request");
}

int cmd_record_exec(int argc, char **argv)
{
	const char *status = getenv(REC_STATUS_ENV), *tracefs = getenv(REC_TRACEFS_ENV);
	char path[4200], *end;
	double duration;
	char **cmd = NULL;

	if (argc < 2 || !status) {
		warning("record-exec is started by '%s record', not by hand", progname);
		return 2;
	}
	duration = strtod(argv[1], &end);
	if (*end || duration < 0) {
		warning("record-exec: bad duration '%s'", argv[1]);
		return 2;
	}
	if (argc > 2) {
		if (strcmp(argv[2], "--") || argc < 4) {
			warning("record-exec: expected -- COMMAND after the duration");
			return 2;
		}
		cmd = argv + 3;
	}
	status_fd = open(status, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (status_fd < 0) {
		warning("record-exec: %s: %s", status, strerror(errno));
		return 1;
	}
	if (tracefs) {
		snprintf(path, sizeof(path), "%s/trace_marker", tracefs);
		marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	/* blocked, and taken synchronously: none can slip between two checks */
	sigemptyset(&waited);
	sigaddset(&waited, SIGINT);
	sigaddset(&waited, SIGTERM);
	sigaddset(&waited, SIGALRM);
	sigaddset(&waited, SIGCHLD);
	sigprocmask(SIG_BLOCK, &waited, &saved_mask);

	report("pid\t%d", (int)getpid());
	marker("start");
	kick_cpus();
	marker("cpus kicked");
	if (cmd)
		run_command(cmd, duration);
	else
		wait_only(duration);
	marker("end");
	close(status_fd);
	if (marker_fd >= 0)
		close(marker_fd);
	return 0;
}

/* The status file, as the recording left it. */
int rec_status_read(const char *path, struct rec_status *st)
{
	FILE *f = fopen(path, "re");
	char line[1024];

	memset(st, 0, sizeof(*st));
	st->command_exit = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *val;

		line[strcspn(line, "\n")] = 0;
		if (!tab)
			continue;
		*tab = 0;
		val = tab + 1;
		if (!strcmp(line, "pid")) {
			st->helper_pid = atoi(val);
		} else if (!strcmp(line, "kick")) {
			char *t2 = strchr(val, '\t');

			st->kicked = atoi(val);
			if (t2 && strcmp(t2 + 1, "-"))
				snprintf(st->kick_failed, sizeof(st->kick_failed), "%s", t2 + 1);
		} else if (!strcmp(line, "command_start")) {
			st->have_command = st->command_started = true;
			st->command_start = strtod(val, NULL);
		} else if (!strcmp(line, "command_end")) {
			st->command_end = strtod(val, NULL);
		} else if (!strcmp(line, "command_exit")) {
			st->command_exit = atoi(val);
		} else if (!strcmp(line, "command_signal")) {
			st->command_signal = atoi(val);
		} else if (!strcmp(line, "command_error")) {
			snprintf(st->command_error, sizeof(st->command_error), "%s", val);
		} else if (!strcmp(line, "stopped")) {
			if (!strcmp(val, "duration"))
				st->stopped_by_duration = true;
			else
				st->stopped_by_request = true;
		}
	}
	fclose(f);
	return 0;
}
