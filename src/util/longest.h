/*
 * longest.h - private to the library: a bounded list kept longest first,
 * for the findings a check keeps with their detail (longest.c).
 */
#ifndef CA_UTIL_LONGEST_H
#define CA_UTIL_LONGEST_H

#include <stddef.h>
#include <stdint.h>

/**
 * ca_keep_longest() - put @item into @list (*@listed items of @size bytes,
 *                     room for @capacity), longest first by @length_of; on a
 *                     full list the shortest falls off (or @item, when it is
 *                     the shortest)
 */
void ca_keep_longest(void *list, size_t *listed, size_t capacity, size_t size, const void *item,
		     uint64_t (*length_of)(const void *item));

#endif
