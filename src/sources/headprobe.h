/*
 * headprobe.h - private to sources/: libtracecmd's header parsing tried in a
 * child process first, so that a trace.dat whose headers make it fault
 * (headprobe.c) is refused without faulting the program that audits it.
 */
#ifndef CA_SOURCES_HEADPROBE_H
#define CA_SOURCES_HEADPROBE_H

#include <stddef.h>

/**
 * ca_headers_probe() - open @path's headers with libtracecmd in a child
 *                      process and see whether it survives
 * Return: 0 when it did (or no child could be made: the caller reads in
 *         process, as it would without the probe); -EINVAL with @error set
 *         when the child faulted, was killed or did not finish.
 */
int ca_headers_probe(const char *path, char *error, size_t error_len);

#endif
