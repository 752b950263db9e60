/*
 * suspects.h - private to checks/: would-be findings held until every CPU of
 * their core has shown an event past their end (a CPU silent there may turn
 * out unobserved: its events missing), then handed back to be judged
 * (suspects.c).  A container: what a finding is stays the check's.
 */
#ifndef CA_CHECKS_SUSPECTS_H
#define CA_CHECKS_SUSPECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ca_state;

/* What each held item waits for: its core, shown past its end. */
struct ca_suspect_key {
	int core;
	uint64_t end_ns;
};

struct ca_suspects {
	char *slots;		/* a key, then the item, each */
	size_t count;
	size_t capacity;
	size_t size;		/* of an item */
};

/* Called for each item released: the check judges it. */
typedef void (*ca_suspect_fn)(void *ctx, const struct ca_state *state, const void *item);

/** ca_suspects_init() - an empty set of items of @size bytes (a multiple of 8) */
void ca_suspects_init(struct ca_suspects *set, size_t size);
void ca_suspects_free(struct ca_suspects *set);

/** ca_suspects_add() - hold a copy of @item until @core shows past @end_ns. Return: 0, -ENOMEM. */
int ca_suspects_add(struct ca_suspects *set, int core, uint64_t end_ns, const void *item);

/**
 * ca_suspects_release() - hand @judge the items whose core has shown past
 * their end (all of them, @is_final), in the order they came, and forget them
 */
void ca_suspects_release(struct ca_suspects *set, const struct ca_state *state, bool is_final,
			 ca_suspect_fn judge, void *ctx);

#endif
