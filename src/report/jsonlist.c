/*
 * jsonlist.c - a JSON array whose items are built as it is printed, one at a
 * time, each freed before the next is built.
 *
 * json-c prints a tree it holds whole: a 10,000-window list is 50,000
 * objects (30,000 of them with a hash table of their own) built, printed,
 * then freed (glibc's malloc_consolidate() over them all at the first large
 * free).  On a 256-CPU tiling that was 82 ms of the report, after a 500 ms
 * read on two threads (bench/RESULTS.md, session 21).  The array made here
 * holds no items: its serializer (json_object_set_serializer(), json-c's
 * hook for a type of one's own) builds each item with the caller's
 * function, prints it with json-c at level 0 and the caller's flags, copies
 * that text in at the array's depth (a line break in it is always layout:
 * json-c escapes those in strings) and frees the item, whose memory the next
 * one reuses.  The brackets, commas and indents are json_object_array's
 * (json-c 0.16, json_object.c), checked against a built array in
 * tests/unit/test-json.c.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/printbuf.h>

#include "report/jsonlist.h"

struct list {
	size_t count;
	ca_json_item_fn item;
	void *ctx;
	void (*free_ctx)(void *ctx);
};

static int indent(struct printbuf *pb, int level, int flags)
{
	if (!(flags & JSON_C_TO_STRING_PRETTY) || level <= 0)
		return 0;
	if (flags & JSON_C_TO_STRING_PRETTY_TAB)
		return printbuf_memset(pb, -1, '\t', level);
	return printbuf_memset(pb, -1, ' ', level * 2);
}

static int append(struct printbuf *pb, const char *text)
{
	return printbuf_memappend(pb, text, (int)strlen(text)) < 0 ? -1 : 0;
}

/* @text, printed at level 0, into @pb at @level: every line after the first indented. */
static int append_at(struct printbuf *pb, const char *text, int level, int flags)
{
	const char *line_end;

	while ((line_end = strchr(text, '\n'))) {
		if (printbuf_memappend(pb, text, (int)(line_end + 1 - text)) < 0 ||
		    indent(pb, level, flags) < 0)
			return -1;
		text = line_end + 1;
	}
	return append(pb, text);
}

/* Item @index, built, printed into @pb at @level and freed. */
static int append_item(const struct list *list, size_t index, struct printbuf *pb, int level,
		       int flags)
{
	struct json_object *item = list->item(list->ctx, index);
	const char *text = item ? json_object_to_json_string_ext(item, flags) : "null";
	int ret = text ? append_at(pb, text, level, flags) : -1;

	json_object_put(item);
	return ret;
}

/* json_object_array_to_json_string()'s layout, the items built on the way. */
static int print_list(struct json_object *jso, struct printbuf *pb, int level, int flags)
{
	const struct list *list = json_object_get_userdata(jso);
	bool is_pretty = flags & JSON_C_TO_STRING_PRETTY;
	bool is_spaced = (flags & JSON_C_TO_STRING_SPACED) && !is_pretty;
	int ret = append(pb, is_pretty ? "[\n" : "[");

	for (size_t i = 0; !ret && i < list->count; i++) {
		if (i)
			ret = append(pb, is_pretty ? ",\n" : ",");
		if (!ret && is_spaced)
			ret = append(pb, " ");
		if (!ret)
			ret = indent(pb, level + 1, flags) < 0 ? -1 : 0;
		if (!ret)
			ret = append_item(list, i, pb, level + 1, flags);
	}
	if (!ret && is_pretty && list->count)
		ret = append(pb, "\n");
	if (!ret && is_pretty)
		ret = indent(pb, level, flags) < 0 ? -1 : 0;
	return ret ? ret : append(pb, is_spaced ? " ]" : "]");
}

static void free_list(struct json_object *jso, void *userdata)
{
	struct list *list = userdata;

	(void)jso;
	if (list->free_ctx)
		list->free_ctx(list->ctx);
	free(list);
}

struct json_object *ca_json_list(size_t count, ca_json_item_fn item, void *ctx,
				 void (*free_ctx)(void *ctx))
{
	struct json_object *array = json_object_new_array();
	struct list *list = malloc(sizeof(*list));

	if (!array || !list) {
		json_object_put(array);
		free(list);
		if (free_ctx)
			free_ctx(ctx);
		return NULL;
	}
	*list = (struct list){ .count = count, .item = item, .ctx = ctx, .free_ctx = free_ctx };
	json_object_set_serializer(array, print_list, list, free_list);
	return array;
}
