/*
 * pending.h - private to checks/: the isolation check's closed windows that
 * wait for their CPUs' next events (pending.c).  A container, not a check:
 * what a confirmation means is isolation.c's.
 */
#ifndef CA_CHECKS_PENDING_H
#define CA_CHECKS_PENDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/isolation.h"

/**
 * ca_pending_size() - an empty set for windows of CPUs below @cpu_count
 * Return: 0, or -ENOMEM.
 */
int ca_pending_size(struct ca_pending *set, size_t cpu_count);
void ca_pending_free(struct ca_pending *set);

/**
 * ca_pending_add() - a copy of @window, each side confirmed as @is_confirmed
 *                    says; it waits on the CPU of each side that is not
 * Return: its id, or -ENOMEM.
 */
long ca_pending_add(struct ca_pending *set, const struct ca_window *window,
		    const bool is_confirmed[2]);

/** ca_pending_get() - Return: the pending window @id (moved by ca_pending_add). */
struct ca_pending_window *ca_pending_get(struct ca_pending *set, uint32_t id);

/** ca_pending_remove() - @id is judged: its slot is free again (not its CPUs' lists). */
void ca_pending_remove(struct ca_pending *set, uint32_t id);

/**
 * ca_pending_confirmed() - note that both CPUs of @id confirmed it: it is
 *                          judged with the others at the next ca_pending_take()
 * Return: 0, or -ENOMEM.
 */
int ca_pending_confirmed(struct ca_pending *set, uint32_t id);

/**
 * ca_pending_take() - the ids noted confirmed, as their windows closed; the
 *                     caller judges and removes each, and the list is empty
 *                     again for the next call
 * Return: how many, *@ids pointing to them (valid until the next call).
 */
size_t ca_pending_take(struct ca_pending *set, uint32_t **ids);

/**
 * ca_pending_all() - the ids of every pending window, as they closed
 * Return: how many, with *@ids allocated (free() it); -ENOMEM.
 */
long ca_pending_all(const struct ca_pending *set, uint32_t **ids);

#endif
