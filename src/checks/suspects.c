/*
 * suspects.c - would-be findings held until their core has shown past them
 * (suspects.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/suspects.h"
#include "state/state.h"

static size_t slot_size(const struct ca_suspects *set)
{
	return sizeof(struct ca_suspect_key) + set->size;
}

void ca_suspects_init(struct ca_suspects *set, size_t size)
{
	memset(set, 0, sizeof(*set));
	set->size = size;
}

void ca_suspects_free(struct ca_suspects *set)
{
	free(set->slots);
	set->slots = NULL;
	set->count = 0;
	set->capacity = 0;
}

int ca_suspects_add(struct ca_suspects *set, int core, uint64_t end_ns, const void *item)
{
	struct ca_suspect_key key = { .core = core, .end_ns = end_ns };
	char *slot;

	if (set->count == set->capacity) {
		size_t capacity = set->capacity ? set->capacity * 2 : 16;
		char *slots = realloc(set->slots, capacity * slot_size(set));

		if (!slots)
			return -ENOMEM;
		set->slots = slots;
		set->capacity = capacity;
	}
	slot = set->slots + set->count++ * slot_size(set);
	memcpy(slot, &key, sizeof(key));
	memcpy(slot + sizeof(key), item, set->size);
	return 0;
}

void ca_suspects_release(struct ca_suspects *set, const struct ca_state *state, bool is_final,
			 ca_suspect_fn judge, void *ctx)
{
	size_t kept = 0, size = slot_size(set);

	for (size_t i = 0; i < set->count; i++) {
		char *slot = set->slots + i * size;
		struct ca_suspect_key key;

		memcpy(&key, slot, sizeof(key));
		if (is_final || ca_state_core_settled(state, key.core, key.end_ns))
			judge(ctx, state, slot + sizeof(key));
		else if (kept++ != i)
			memmove(set->slots + (kept - 1) * size, slot, size);
	}
	set->count = kept;
}
