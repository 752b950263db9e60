/*
 * longest.c - a bounded list kept longest first (longest.h).
 */
#include <string.h>

#include "util/longest.h"

void ca_keep_longest(void *list, size_t *listed, size_t capacity, size_t size, const void *item,
		     uint64_t (*length_of)(const void *item))
{
	char *items = list;
	uint64_t length = length_of(item);
	size_t at = *listed;

	if (!capacity)
		return;
	if (at == capacity) {
		if (length_of(items + (at - 1) * size) >= length)
			return;
		at--;
	} else {
		(*listed)++;
	}
	while (at > 0 && length_of(items + (at - 1) * size) < length)
		at--;
	memmove(items + (at + 1) * size, items + at * size, (*listed - 1 - at) * size);
	memcpy(items + at * size, item, size);
}
