/*
 * jsonlist.h - a JSON array whose items are built as it is printed.
 */
#ifndef COREAUDIT_JSONLIST_H
#define COREAUDIT_JSONLIST_H

#include <stddef.h>

#include <json-c/json.h>

/* Item @index of the list, a new object (or NULL: null). */
typedef struct json_object *(*ca_json_item_fn)(void *ctx, size_t index);

/**
 * ca_json_list() - an array of @count items that holds none: printed
 *                  (json_object_to_json_string_ext(), any flags), it builds
 *                  item i with @item, prints it and frees it before the next
 *
 * The text is json-c's own for an array of those items, byte for byte.
 * @free_ctx(@ctx) runs when the array is freed (or at once, on failure).
 * Return: the array; NULL when out of memory.
 */
struct json_object *ca_json_list(size_t count, ca_json_item_fn item, void *ctx,
				 void (*free_ctx)(void *ctx));

#endif
