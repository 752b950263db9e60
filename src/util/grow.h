/*
 * grow.h - private to the library: room for one more item in an array that
 * doubles as it fills (grow.c).
 */
#ifndef CA_UTIL_GROW_H
#define CA_UTIL_GROW_H

#include <stddef.h>

/**
 * ca_grow() - make room for item @count in the array *@array (a pointer to
 *             the array's pointer) of *@capacity items of @item_size bytes
 * Return: 0, or -ENOMEM with the array as it was.
 */
int ca_grow(void *array, size_t count, size_t *capacity, size_t item_size);

/**
 * ca_grow_zeroed() - make room for index @index in the array *@array of *@room
 *                    items of @item_size bytes (doubling from 64), the new
 *                    items zeroed: for tables indexed by CPU or core
 * Return: 0, or -ENOMEM with the array as it was.
 */
int ca_grow_zeroed(void *array, size_t index, size_t *room, size_t item_size);

/**
 * ca_grow_filled() - as ca_grow_zeroed(), every byte of the new items @fill
 *                    (0xff: integers of -1, "none" in a table indexed by CPU)
 * Return: 0, or -ENOMEM with the array as it was.
 */
int ca_grow_filled(void *array, size_t index, size_t *room, size_t item_size, int fill);

#endif
