/*
 * livefit.h - private to sources/: the live source's needs per CPU fitted to
 * the machine (livefit.c).
 */
#ifndef CA_SOURCES_LIVEFIT_H
#define CA_SOURCES_LIVEFIT_H

#include <stddef.h>

/**
 * ca_live_fit_files() - make room for @cpu_count CPUs' files under
 *                       RLIMIT_NOFILE: the soft limit raised up to the hard
 *                       one when it is short, and said in @note (appended)
 * Return: 0, or -EMFILE with @error set (the hard limit is too low).
 */
int ca_live_fit_files(int cpu_count, char *note, size_t note_len, char *error, size_t error_len);

/**
 * ca_live_cpu_space() - the highest possible CPU + 1 (sysfs "possible": CPU
 *                       numbers may be sparse, "0-3,8-11"), below CA_CPU_LIMIT
 * Return: that count, at least 1.
 */
int ca_live_cpu_space(void);

/**
 * ca_live_fit_buffer_kb() - the per-CPU ring buffer for @cpu_count CPUs:
 *                           @requested_kb, or less so that all of them take
 *                           at most 1/16 of the machine's memory (never below
 *                           256 KiB, nor above what was asked); a smaller
 *                           size is said in @note (appended)
 * Return: the size in KiB.
 */
size_t ca_live_fit_buffer_kb(size_t requested_kb, int cpu_count, char *note, size_t note_len);

#endif
