/*
 * lttng-none.c - built without LTTng-UST: findings are not emitted as events.
 */
#include "coreaudit/report.h"

void ca_report_lttng(FILE *out, const struct ca_audit *audit, const struct ca_report_options *opts)
{
	(void)out;
	(void)audit;
	(void)opts;
}
