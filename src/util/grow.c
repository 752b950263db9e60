/*
 * grow.c - arrays that double as they fill (grow.h).
 */
#include <errno.h>
#include <stdlib.h>

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
