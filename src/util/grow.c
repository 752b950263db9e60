/*
 * grow.c - arrays that double as they fill (grow.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int ca_grow(void *array, size_t count, size_t *capacity, size_t item_size)
{
	void **items = array;
	size_t more = *capacity ? *capacity * 2 : 16;
	void *grown;

	if (count < *capacity)
		return 0;
	grown = realloc(*items, more * item_size);
	if (!grown)
		return -ENOMEM;
	*items = grown;
	*capacity = more;
	return 0;
}

int ca_grow_zeroed(void *array, size_t index, size_t *room, size_t item_size)
{
	return ca_grow_filled(array, index, room, item_size, 0);
}

int ca_grow_filled(void *array, size_t index, size_t *room, size_t item_size, int fill)
{
	char **items = array;
	size_t more = *room ? *room : 64;
	char *grown;

	if (index < *room)
		return 0;
	while (more <= index)
		more *= 2;
	grown = realloc(*items, more * item_size);
	if (!grown)
		return -ENOMEM;
	memset(grown + *room * item_size, fill, (more - *room) * item_size);
	*items = grown;
	*room = more;
	return 0;
}
