/*
 * probe.h - private to sources/: what libtracecmd would do with a trace.dat,
 * tried in a child process first (probe.c), so that a file that makes it
 * fault is refused without faulting the program that audits it.
 */
#ifndef CA_SOURCES_PROBE_H
#define CA_SOURCES_PROBE_H

#include <stddef.h>

/**
 * ca_probe_headers_start() - open @path's headers with libtracecmd in a child
 *                            process, which runs while the caller goes on
 *                            (with its own checks of the file, say)
 * Return: the probe, for ca_probe_headers_end() or ca_probe_cancel().
 */
int ca_probe_headers_start(const char *path);

/**
 * ca_probe_headers_end() - whether the child of @probe survived
 * Return: 0 when it did (or no child could be made: the caller reads in
 *         process, as it would without the probe); -EINVAL with @error set
 *         when the child faulted, was killed or did not finish.
 */
int ca_probe_headers_end(int probe, char *error, size_t error_len);

/* ca_probe_cancel() - the child of @probe killed and reaped: its answer is not needed. */
void ca_probe_cancel(int probe);

/**
 * ca_probe_records() - as the headers' probe, start to end, for libtracecmd
 *                      reading every record of every CPU: for files whose
 *                      pages coreaudit cannot check before libtracecmd reads
 *                      them (a layout it does not know)
 * Return: as ca_probe_headers_end().
 */
int ca_probe_records(const char *path, char *error, size_t error_len);

#endif
