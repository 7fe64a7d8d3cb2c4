/* trace_json.h - the block-layer view's histograms as JSON (batch JSON and the session
 * log's `trace` record write the same shape). */
#ifndef IOSCOPE_TRACE_JSON_H
#define IOSCOPE_TRACE_JSON_H

#include <stdbool.h>

#include "jsonw.h"
#include "trace.h"

/* "read", "write", "flush": the keys of a histogram's directions. */
extern const char *const trace_dir_names[TRACE_DIRS];

/* "lat_us": {"read": {BUCKET_LOW: count...}, "write", "flush"}, "q2c_us": {...},
 * "size_kb": {"read", "write"}: only the non-empty buckets. */
void trace_json_histograms(struct jsonw *w, const struct trace_device *d);
/* "top": [{"pid", "comm", "ios", "kB"}] (batch) or "bytes" (exact, the session log). */
void trace_json_top(struct jsonw *w, const struct trace_device *d, bool bytes_as_kb);

#endif
