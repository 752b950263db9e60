/*
 * probe.h - private to sources/: what libtracecmd would do with a trace.dat,
 * tried in a child process first (probe.c), so that a file that makes it
 * fault is refused without faulting the program that audits it.
 */
#ifndef CA_SOURCES_PROBE_H
#define CA_SOURCES_PROBE_H

#include <stddef.h>

/**
 * ca_probe_headers() - open @path's headers with libtracecmd in a child
 *                      process and see whether it survives
 * Return: 0 when it did (or no child could be made: the caller reads in
 *         process, as it would without the probe); -EINVAL with @error set
 *         when the child faulted, was killed or did not finish.
 */
int ca_probe_headers(const char *path, char *error, size_t error_len);

/**
 * ca_probe_records() - the same for libtracecmd reading every record of
 *                      every CPU: for files whose pages coreaudit cannot
 *                      check before libtracecmd reads them (a layout it
 *                      does not know)
 * Return: as ca_probe_headers().
 */
int ca_probe_records(const char *path, char *error, size_t error_len);

#endif
