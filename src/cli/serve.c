/*
 * serve.c - coreaudit monitor's metrics for a fleet (serve.h).  The monitor's
 * thread renders both formats at each interval into strings under a lock; the
 * server's thread (libmicrohttpd's internal polling thread) copies the one a
 * scrape asks for: OpenMetrics when its Accept header names
 * application/openmetrics-text, else the Prometheus text format.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "coreaudit/report.h"
#include "serve.h"

#define OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define PROMETHEUS_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct ca_metrics_server {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;
	char *text;		/* Prometheus text format */
	char *openmetrics;
};

/* @audit's metrics as a string the caller frees, or NULL. */
static char *render(const struct ca_audit *audit, bool is_decided, bool is_openmetrics)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		return NULL;
	ca_report_metrics(out, audit, is_decided, is_openmetrics);
	if (fclose(out)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static enum MHD_Result respond(struct MHD_Connection *connection, unsigned int status,
			       const char *type, const char *body)
{
	struct MHD_Response *response = MHD_create_response_from_buffer(
		strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!response)
		return MHD_NO;
	MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(connection, status, response);
	MHD_destroy_response(response);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	struct ca_metrics_server *server = cls;
	const char *accept = MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	bool is_openmetrics = accept && strstr(accept, "application/openmetrics-text");
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return respond(connection, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			       "coreaudit: only GET /metrics\n");
	if (strcmp(url, "/metrics"))
		return respond(connection, MHD_HTTP_NOT_FOUND, "text/plain",
			       "coreaudit: the metrics are at /metrics\n");
	pthread_mutex_lock(&server->lock);
	ret = respond(connection, MHD_HTTP_OK, is_openmetrics ? OPENMETRICS_TYPE : PROMETHEUS_TYPE,
		      (is_openmetrics ? server->openmetrics : server->text) ?
		      (is_openmetrics ? server->openmetrics : server->text) : "");
	pthread_mutex_unlock(&server->lock);
	return ret;
}

/* "ADDR:PORT", ":PORT", "[::1]:PORT" into @host (empty: every address) and @port. */
static int split_listen(const char *listen, char *host, size_t host_len, char *port,
			size_t port_len)
{
	const char *colon = strrchr(listen, ':');
	size_t len;

	if (!colon || !colon[1] || colon[1 + strspn(colon + 1, "0123456789")] ||
	    strlen(colon + 1) >= port_len)
		return -EINVAL;
	snprintf(port, port_len, "%s", colon + 1);
	len = (size_t)(colon - listen);
	if (len >= 2 && listen[0] == '[' && listen[len - 1] == ']') {
		listen++;
		len -= 2;
	}
	if (len >= host_len)
		return -EINVAL;
	snprintf(host, host_len, "%.*s", (int)len, listen);
	return 0;
}

static struct MHD_Daemon *start(struct ca_metrics_server *server, const char *host,
				const char *port, char *err, size_t err_len)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *found = NULL;
	struct MHD_Daemon *daemon;
	int ret;

	if (!*host)	/* every address, IPv4 and IPv6 */
		return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_DUAL_STACK,
					(uint16_t)atoi(port), NULL, NULL, on_request, server,
					MHD_OPTION_END);
	ret = getaddrinfo(host, port, &hints, &found);
	if (ret) {
		snprintf(err, err_len, "%s: %s", host, gai_strerror(ret));
		return NULL;
	}
	daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
				  (found->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				  (uint16_t)atoi(port), NULL, NULL, on_request, server,
				  MHD_OPTION_SOCK_ADDR, found->ai_addr, MHD_OPTION_END);
	freeaddrinfo(found);
	return daemon;
}

struct ca_metrics_server *ca_metrics_serve(const char *listen, char *err, size_t err_len)
{
	struct ca_metrics_server *server = calloc(1, sizeof(*server));
	char host[256], port[8];

	err[0] = '\0';
	if (!server) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	if (split_listen(listen, host, sizeof(host), port, sizeof(port)) || atoi(port) < 1 ||
	    atoi(port) > 65535) {
		snprintf(err, err_len, "expected ADDR:PORT, :PORT or [ADDR6]:PORT (a port from 1 "
			 "to 65535)");
		free(server);
		return NULL;
	}
	pthread_mutex_init(&server->lock, NULL);
	server->daemon = start(server, host, port, err, err_len);
	if (!server->daemon) {
		if (!err[0])
			snprintf(err, err_len, "cannot listen there (the port in use, or not an "
				 "address of this host)");
		pthread_mutex_destroy(&server->lock);
		free(server);
		return NULL;
	}
	return server;
}

void ca_metrics_publish(struct ca_metrics_server *server, const struct ca_audit *audit,
			bool is_decided)
{
	char *text = render(audit, is_decided, false), *openmetrics = render(audit, is_decided, true);

	pthread_mutex_lock(&server->lock);
	free(server->text);
	free(server->openmetrics);
	server->text = text;
	server->openmetrics = openmetrics;
	pthread_mutex_unlock(&server->lock);
}

void ca_metrics_stop(struct ca_metrics_server *server)
{
	if (!server)
		return;
	MHD_stop_daemon(server->daemon);
	pthread_mutex_destroy(&server->lock);
	free(server->text);
	free(server->openmetrics);
	free(server);
}

int ca_metrics_write_file(const char *path, const struct ca_audit *audit, bool is_decided,
			  char *err, size_t err_len)
{
	char temp[4096];
	FILE *out;
	int ret = 0;

	snprintf(temp, sizeof(temp), "%s.%d.tmp", path, (int)getpid());
	out = fopen(temp, "w");
	if (!out) {
		ret = -errno;
		snprintf(err, err_len, "%s: %s", temp, strerror(-ret));
		return ret;
	}
	ca_report_metrics(out, audit, is_decided, false);
	if (ferror(out) | fclose(out))
		ret = -EIO;
	if (!ret && rename(temp, path))
		ret = -errno;
	if (ret) {
		snprintf(err, err_len, "%s: %s", path, strerror(-ret));
		unlink(temp);
	}
	return ret;
}
