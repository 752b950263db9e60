/*
 * livefit.c - what the live source needs of the machine per CPU, fitted to
 * it before tracefs is touched: file descriptors against RLIMIT_NOFILE, and
 * the ring buffers' memory against the machine's.  On a 512-CPU host the
 * defaults (a soft limit of 1024 files, 8 MiB a CPU) do not fit.  Not the
 * live source itself (live.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "coreaudit/topology.h"
#include "sources/livefit.h"

/*
 * A CPU's trace_pipe_raw, and the pipe tracefs_cpu_buffered_read() splices
 * through (two ends); the rest of the process (tracefs files, the output,
 * the writer's temporary file) needs a few dozen at most.
 */
#define FILES_PER_CPU 3
#define FILES_SPARE 64

/* Ring buffers take at most this share of the machine's memory, all CPUs together. */
#define MEMORY_SHARE 16
#define MIN_BUFFER_KB 256

static void append(char *note, size_t len, const char *text)
{
	size_t used = strlen(note);

	if (used + 2 < len)
		snprintf(note + used, len - used, "%s%s", used ? "; " : "", text);
}

int ca_live_fit_files(int cpu_count, char *note, size_t note_len, char *error, size_t error_len)
{
	rlim_t need = (rlim_t)cpu_count * FILES_PER_CPU + FILES_SPARE;
	struct rlimit limit;
	char text[200];

	if (getrlimit(RLIMIT_NOFILE, &limit) || limit.rlim_cur >= need)
		return 0;
	if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < need) {
		snprintf(error, error_len, "%d CPUs need %llu open files (%d each), and the hard "
			 "limit is %llu: raise it (ulimit -Hn, or LimitNOFILE= in a systemd unit)",
			 cpu_count, (unsigned long long)need, FILES_PER_CPU,
			 (unsigned long long)limit.rlim_max);
		return -EMFILE;
	}
	snprintf(text, sizeof(text), "the open-file limit raised from %llu to %llu (%d files for "
		 "each of %d CPUs)", (unsigned long long)limit.rlim_cur, (unsigned long long)need,
		 FILES_PER_CPU, cpu_count);
	limit.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &limit)) {
		snprintf(error, error_len, "cannot raise the open-file limit to %llu for %d CPUs: %s",
			 (unsigned long long)need, cpu_count, strerror(errno));
		return -EMFILE;
	}
	append(note, note_len, text);
	return 0;
}

int ca_live_cpu_space(void)
{
	FILE *file = fopen("/sys/devices/system/cpu/possible", "r");
	char list[4096] = "";
	long highest = -1;

	if (file) {
		if (!fgets(list, sizeof(list), file))
			list[0] = '\0';
		fclose(file);
	}
	/* "0-3,8-11": the last number is the highest possible CPU */
	for (const char *p = list; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == list || p[-1] < '0' || p[-1] > '9'))
			highest = strtol(p, NULL, 10);
	if (highest < 0)
		highest = sysconf(_SC_NPROCESSORS_CONF) - 1;
	return highest < 0 ? 1 : highest >= CA_CPU_LIMIT ? CA_CPU_LIMIT : (int)highest + 1;
}

size_t ca_live_fit_buffer_kb(size_t requested_kb, int cpu_count, char *note, size_t note_len)
{
	long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
	unsigned long long memory_kb = pages > 0 && page_size > 0 ?
				       (unsigned long long)pages * (page_size / 1024) : 0;
	unsigned long long room_kb = memory_kb / MEMORY_SHARE / (cpu_count > 0 ? cpu_count : 1);
	char text[200];

	if (!memory_kb || requested_kb <= room_kb || requested_kb <= MIN_BUFFER_KB)
		return requested_kb;
	if (room_kb < MIN_BUFFER_KB)
		room_kb = MIN_BUFFER_KB;
	snprintf(text, sizeof(text), "ring buffers of %llu KiB a CPU, not %zu: %d CPUs share 1/%d "
		 "of the machine's %llu MiB", room_kb, requested_kb, cpu_count, MEMORY_SHARE,
		 memory_kb / 1024);
	append(note, note_len, text);
	return (size_t)room_kb;
}
