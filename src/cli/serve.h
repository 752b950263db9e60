/*
 * serve.h - coreaudit monitor's metrics for a fleet: an OpenMetrics endpoint
 * (libmicrohttpd, its own thread) and node_exporter's textfile, both of what
 * ca_report_metrics() says at each interval.
 */
#ifndef CA_CLI_SERVE_H
#define CA_CLI_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "coreaudit/audit.h"

struct ca_metrics_server;

/**
 * ca_metrics_serve() - serve GET /metrics on @listen ("ADDR:PORT", ":PORT" for every
 *                      address, "[::1]:PORT") until ca_metrics_stop()
 * Return: the server, or NULL with @err set.
 */
struct ca_metrics_server *ca_metrics_serve(const char *listen, char *err, size_t err_len);

/** ca_metrics_publish() - what scrapes get from now on: @audit's metrics as they are */
void ca_metrics_publish(struct ca_metrics_server *server, const struct ca_audit *audit,
			bool is_decided);

/** ca_metrics_stop() - stop serving and free @server (NULL: nothing) */
void ca_metrics_stop(struct ca_metrics_server *server);

/**
 * ca_metrics_write_file() - @audit's metrics in the Prometheus text format to @path,
 *                           atomically (a temporary file beside it, renamed)
 * Return: 0, or a negative errno with @err set.
 */
int ca_metrics_write_file(const char *path, const struct ca_audit *audit, bool is_decided,
			  char *err, size_t err_len);

#endif
