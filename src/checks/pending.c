/*
 * pending.c - the isolation check's pending windows (pending.h): slots that
 * stay put (a free list reuses them, so memory follows the windows pending at
 * once, not the trace), and per CPU the ids of the windows it has to
 * confirm.  An event costs a look at its own CPU's list, whatever the number
 * of cores.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/pending.h"
#include "util/grow.h"

int ca_pending_size(struct ca_pending *set, size_t cpu_count)
{
	memset(set, 0, sizeof(*set));
	set->cpus = calloc(cpu_count ? cpu_count : 1, sizeof(*set->cpus));
	if (!set->cpus)
		return -ENOMEM;
	set->cpu_count = cpu_count;
	return 0;
}

void ca_pending_free(struct ca_pending *set)
{
	for (size_t cpu = 0; set->cpus && cpu < set->cpu_count; cpu++)
		free(set->cpus[cpu].ids);
	free(set->cpus);
	free(set->slots);
	free(set->free_ids);
	free(set->confirmed);
	memset(set, 0, sizeof(*set));
}

static int wait_on(struct ca_pending *set, int cpu, uint32_t id)
{
	struct ca_pending_cpu *c;

	if (cpu < 0 || (size_t)cpu >= set->cpu_count)
		return 0;	/* a CPU beyond the tables never confirms: the end judges it */
	c = &set->cpus[cpu];
	if (ca_grow(&c->ids, c->count, &c->room, sizeof(*c->ids)))
		return -ENOMEM;
	c->ids[c->count++] = id;
	return 0;
}

static long take_slot(struct ca_pending *set)
{
	if (set->free_count)
		return set->free_ids[--set->free_count];
	/* Room in the free list for every slot: ca_pending_remove() cannot fail. */
	if (set->slot_count >= UINT32_MAX ||
	    ca_grow(&set->slots, set->slot_count, &set->slot_room, sizeof(*set->slots)) ||
	    ca_grow(&set->free_ids, set->slot_count, &set->free_room, sizeof(*set->free_ids)))
		return -ENOMEM;
	return (long)set->slot_count++;
}

long ca_pending_add(struct ca_pending *set, const struct ca_window *window,
		    const bool is_confirmed[2])
{
	long id = take_slot(set);

	if (id < 0)
		return id;
	set->slots[id] = (struct ca_pending_window){
		.window = *window, .is_confirmed = { is_confirmed[0], is_confirmed[1] },
		.seq = set->next_seq++,
	};
	set->count++;
	for (int side = 0; side < 2; side++)
		if (!is_confirmed[side] && wait_on(set, window->cpus[side], (uint32_t)id))
			return -ENOMEM;
	return id;
}

struct ca_pending_window *ca_pending_get(struct ca_pending *set, uint32_t id)
{
	return &set->slots[id];
}

void ca_pending_remove(struct ca_pending *set, uint32_t id)
{
	set->free_ids[set->free_count++] = id;	/* room made when the slot was */
	set->count--;
}

struct seq_id {
	uint64_t seq;
	uint32_t id;
};

static int compare_seq(const void *a, const void *b)
{
	uint64_t x = ((const struct seq_id *)a)->seq, y = ((const struct seq_id *)b)->seq;

	return x < y ? -1 : x > y;
}

static void sort_ids(const struct ca_pending *set, uint32_t *ids, size_t count)
{
	struct seq_id *order;

	if (count < 2)
		return;
	order = malloc(count * sizeof(*order));
	if (!order) {	/* insertion sort in place: slower, never wrong */
		for (size_t i = 1; i < count; i++)
			for (size_t j = i; j > 0 && set->slots[ids[j]].seq < set->slots[ids[j - 1]].seq;
			     j--) {
				uint32_t held = ids[j];

				ids[j] = ids[j - 1];
				ids[j - 1] = held;
			}
		return;
	}
	for (size_t i = 0; i < count; i++)
		order[i] = (struct seq_id){ set->slots[ids[i]].seq, ids[i] };
	qsort(order, count, sizeof(*order), compare_seq);
	for (size_t i = 0; i < count; i++)
		ids[i] = order[i].id;
	free(order);
}

long ca_pending_all(const struct ca_pending *set, uint32_t **ids)
{
	bool *is_free = calloc(set->slot_count + 1, sizeof(*is_free));
	size_t count = 0;

	*ids = malloc((set->count + 1) * sizeof(**ids));
	if (!is_free || !*ids) {
		free(is_free);
		free(*ids);
		*ids = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < set->free_count; i++)
		is_free[set->free_ids[i]] = true;
	for (size_t id = 0; id < set->slot_count && count < set->count; id++)
		if (!is_free[id])
			(*ids)[count++] = (uint32_t)id;
	free(is_free);
	sort_ids(set, *ids, count);
	return (long)count;
}

int ca_pending_confirmed(struct ca_pending *set, uint32_t id)
{
	if (ca_grow(&set->confirmed, set->confirmed_count, &set->confirmed_room,
		    sizeof(*set->confirmed)))
		return -ENOMEM;
	set->confirmed[set->confirmed_count++] = id;
	return 0;
}

size_t ca_pending_take(struct ca_pending *set, uint32_t **ids)
{
	size_t count = set->confirmed_count;

	sort_ids(set, set->confirmed, count);
	*ids = set->confirmed;
	set->confirmed_count = 0;
	return count;
}
