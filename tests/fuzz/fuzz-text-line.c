/*
 * fuzz-text-line.c - libFuzzer harness: one line of `trace-cmd report` text
 * through ca_text_parse_line(), with what a parsed event promises checked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sources/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct ca_event ev;
	int ret;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	ret = ca_text_parse_line(line, &ev);
	if (ret != 1 && ret != 0 && ret != -EINVAL && ret != -ERANGE)
		abort();
	if (ret == 1 && (ev.cpu < 0 || ev.cpu >= CA_CPU_LIMIT))
		abort();
	if (ret == 1 && ev.kind == CA_EV_LOST && ev.lost.count == 0)
		abort();
	if (ret == 1 && ev.kind == CA_EV_WAKEUP &&
	    (ev.wakeup.target_cpu < 0 || ev.wakeup.target_cpu >= CA_CPU_LIMIT))
		abort();
	free(line);
	return 0;
}
