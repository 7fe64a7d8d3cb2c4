/* prom_http_none.c - --listen in a build without libmicrohttpd's headers. */
#include "prom_sink.h"

struct prom_http *prom_http_start(const char *listen, struct error *err)
{
	error_set(err, "--listen: this ioscope was built without libmicrohttpd "
		  "(install libmicrohttpd-dev and rebuild)");
	return NULL;
}

int prom_http_publish(struct prom_http *h, const struct prom_buf *text, const struct prom_buf *om)
{
	return 0;
}

void prom_http_stop(struct prom_http *h)
{
}
