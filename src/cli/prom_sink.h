/* prom_sink.h - where the exposition goes: a file replaced whole each interval
 * (--textfile), an HTTP endpoint (--listen).  Both are opened before the first sample,
 * so that a bad path or a busy port is said at once (exit 1), with nothing written. */
#ifndef IOSCOPE_PROM_SINK_H
#define IOSCOPE_PROM_SINK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "batch_view.h"
#include "error.h"
#include "prom.h"
#include "sink.h"

/* --textfile PATH: each exposition goes to a new file PATH.tmp.XXXXXX (a random name,
 * created with O_EXCL), is fsynced and renamed onto PATH, so a reader (node_exporter's
 * textfile collector) sees the old file or the new one, never a part, and nothing
 * planted beside PATH is ever opened.  PATH's directory is opened once
 * (dirpath_open_parent) and every step is made in it: a directory swapped for a symlink
 * later is never written through. */
struct prom_textfile {
	char *path;                      /* as given, for messages */
	int dirfd;                       /* its directory, opened once */
	char name[NAME_MAX + 1];         /* its last component, in dirfd */
	char tmp[NAME_MAX + 1];          /* the latest temporary name, in dirfd */
	dev_t dev;                       /* the directory's, to tell when the path */
	ino_t ino;                       /* leads elsewhere */
	bool said_in_the_way;            /* a directory at PATH, said */
	bool said_moved;                 /* the path leads elsewhere, said */
};
/* Checks that PATH can be written (its directory exists and takes a file, PATH is no
 * symlink, directory or device) by creating and removing the temporary file. */
int prom_textfile_open(struct prom_textfile *t, const char *path, struct error *err);
/* -1 with err: the run ends (a full disk, the directory gone).  0, with note->msg set
 * when something is to be said once on stderr: a directory put at PATH (not written
 * until it is gone, tried again each interval), PATH written again after it, PATH's
 * directory moved or replaced (written on in the one opened). */
int prom_textfile_write(struct prom_textfile *t, const char *text, size_t len,
			struct error *note, struct error *err);
void prom_textfile_close(struct prom_textfile *t);

/* "[ADDR:]PORT" -> a socket address (ADDR default 127.0.0.1; "[::1]:9586" for IPv6).
 * -1 with err on bad syntax. */
int prom_listen_address(const char *arg, struct sockaddr_storage *sa, socklen_t *len,
			struct error *err);
/* A listening TCP socket on arg's address; -1 with err ("ADDR:PORT: Address already
 * in use"). */
int prom_listen_socket(const char *arg, struct error *err);

/* --listen: /metrics served by libmicrohttpd on its own thread, opened (dlopen) only
 * here.  The sampling thread publishes each exposition (a copy under a mutex); a slow or
 * stuck client is served from the copy and never waits on, nor delays, sampling. */
struct prom_http;
struct prom_http *prom_http_start(const char *listen, struct error *err);
/* Makes text (Prometheus 0.0.4) and om (OpenMetrics) what the next scrapes get.
 * -1 on ENOMEM (the previous ones stay). */
int prom_http_publish(struct prom_http *h, const struct prom_buf *text, const struct prom_buf *om);
void prom_http_stop(struct prom_http *h);

/* Batch mode's exporter, a sink of its session (sink.h): the change counters, the latest
 * exposition and every destination the options ask for.  Each sample the session hands it
 * is counted and rendered, and goes to the file and the server; the baseline (the first
 * sample, no figures yet) too, so that a scrape gets the settings at once. */
struct options;
struct prom_output {
	struct sink sink;                /* first: the session's view of it (prom_output_sink) */
	struct prom_exporter x;
	struct prom_buf text, om;
	struct batch_view view;          /* what batch shows of the sample (batch_view.h) */
	bool with_tasks;                 /* --tasks */
	bool to_stdout;                  /* --format prometheus: neither --textfile nor --listen */
	bool have_file;
	struct prom_textfile file;       /* --textfile */
	struct prom_http *http;          /* --listen */
	bool failed;
	struct error failure;            /* the last sample's, while failed */
	struct error note;               /* to be said once (prom_output_take_note); "" when none */
};
/* Opens the destinations (nothing sampled yet).  -1 with err: exit status 1.  Batch
 * opens it as its format's sink (prom_output_open_sink, batch_format.h). */
int prom_output_open(struct prom_output *o, const struct options *opts, struct error *err);
/* The exporter as a session's output; its close is prom_output_close, and frees o
 * (malloc'd: prom_output_open_sink). */
struct sink *prom_output_sink(struct prom_output *o);
/* --format prometheus: the latest sample's exposition to out (batch prints one per
 * interval, never the baseline's).  -1 with err. */
int prom_output_print(struct prom_output *o, FILE *out, struct error *err);
/* What the last sample's writing has to say on stderr once (a directory at --textfile's
 * path, its directory moved), into note, then forgotten; false when nothing. */
bool prom_output_take_note(struct prom_output *o, struct error *note);
void prom_output_close(struct prom_output *o);

#endif
