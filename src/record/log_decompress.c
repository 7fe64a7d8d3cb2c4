/* log_decompress.c - compressed session logs into a temporary file (src/record/log_decompress.h).
 *
 * Each kind is a row of codecs[]: its magic, its library, and a loop that feeds the
 * library chunks of the file and writes what comes out.  The libraries' own headers
 * give the prototypes (__typeof__), so calls through the loaded tables are checked.
 * What comes out passes pipe_write, the one place that checks it before it is written:
 * the limits (log_limits.h), the room of the spool (log_spool.h), and line 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "dynlib.h"
#include "line_scanner.h"
#include "log_decompress.h"
#include "log_spool.h"
#include "progress.h"
#include "session_log.h"

#define CHUNK (256u << 10)
#define XZ_MEMLIMIT (1ull << 30)   /* xz -9 needs 65 MiB; a crafted header may ask for more */

/* Where a decompression stands: the files, the buffers, what to say. */
struct pipe {
	int in;
	const char *name, *codec;
	struct log_spool spool;
	struct log_limits limits;
	uint64_t read, size, written;
	unsigned char *inbuf, *outbuf;
	struct progress pg;
	bool at_end;            /* the whole input has been read */
	bool out_full;          /* the last output filled the buffer: more may be pending */
	bool fatal;             /* not the data's fault, or not a log: nothing is kept */
	bool lead_seen;         /* line 1's first byte other than a blank came out */
	bool header_seen;       /* line 1 came out whole and is a session-log header */
};

/* The next chunk of input: its length, 0 at the end, -1 on a read error (err). */
static ssize_t pipe_read(struct pipe *p, struct error *err)
{
	ssize_t n;
	do
		n = read(p->in, p->inbuf, CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		p->fatal = true;
		return error_errno(err, p->name, errno);
	}
	p->read += (uint64_t)n;
	p->at_end = n == 0;
	progress_update(&p->pg, p->read, p->size);
	return n;
}

static int refuse_expansion(const struct pipe *p, uint64_t cap, struct error *err)
{
	char cap_text[32], max_text[32], in_text[32];
	log_size_format(cap, cap_text, sizeof cap_text);
	log_size_format(p->limits.max_bytes, max_text, sizeof max_text);
	log_size_format(p->size > p->read ? p->size : p->read, in_text, sizeof in_text);
	return error_set(err, "%s: it expands past %s, far more than a session log does: refused "
			 "(limits: %s=%s, and %s=%llu times the %s compressed; raise them if "
			 "the log is genuine)", p->codec, cap_text, LOG_LIMIT_BYTES_ENV, max_text,
			 LOG_LIMIT_RATIO_ENV, (unsigned long long)p->limits.max_ratio, in_text);
}

/* Checks before any of the output is written: it does not expand past the limits, there is
 * room for it, and line 1 may still be a header.  -1 (err, fatal) stops the decompression. */
static int pipe_check(struct pipe *p, const unsigned char *buf, size_t len, struct error *err)
{
	uint64_t cap = log_limits_cap(&p->limits, p->size > p->read ? p->size : p->read);
	if (p->written + len > cap)
		return refuse_expansion(p, cap, err);
	if (log_spool_check_room(&p->spool, p->codec, p->written, len, err) < 0)
		return -1;
	for (size_t i = 0; !p->lead_seen && i < len; i++) {
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r')
			continue;
		/* a newline: line 1 is whole, and looked at after the write */
		p->lead_seen = true;
		if (buf[i] != '{' && buf[i] != '\n')
			return error_set(err, "%s: line 1 (offset 0): not an ioscope session log "
					 "(it does not begin with '{'): decompression stopped",
					 p->codec);
	}
	return 0;
}

/* Line 1, as soon as it is whole (or too long to be a header), is looked at as the
 * replay will: a file that is not a session log stops here, not gigabytes later. */
static int pipe_check_header(struct pipe *p, const unsigned char *buf, size_t len,
			     struct error *err)
{
	if (p->header_seen || (!memchr(buf, '\n', len) && p->written < LINE_SCANNER_MAX))
		return 0;
	struct error why;
	if (session_log_check_header(p->spool.fd, p->codec, &why) < 0)
		return error_set(err, "%s: decompression stopped", why.msg);
	p->header_seen = true;
	return 0;
}

static int pipe_write(struct pipe *p, const unsigned char *buf, size_t len, struct error *err)
{
	p->out_full = len == CHUNK;
	if (len == 0)
		return 0;
	if (pipe_check(p, buf, len, err) < 0) {
		p->fatal = true;
		return -1;
	}
	const unsigned char *at = buf;
	for (size_t left = len; left > 0;) {
		ssize_t n = write(p->spool.fd, at, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			p->fatal = true;
			return error_set(err, "%s: decompressing into a temporary file in %s: %s",
					 p->codec, p->spool.where, strerror(errno));
		}
		at += n;
		left -= (size_t)n;
		p->written += (uint64_t)n;
	}
	if (pipe_check_header(p, buf, len, err) < 0) {
		p->fatal = true;
		return -1;
	}
	return 0;
}

/* ---- gzip (zlib) ---- */

#define ZLIB_FUNCTIONS(X) X(inflateInit2_) X(inflate) X(inflateEnd) X(inflateReset)
struct zlib_lib {
#define FIELD(f) __typeof__(f) *f;
	ZLIB_FUNCTIONS(FIELD)
};

static int zlib_step(struct pipe *p, const struct zlib_lib *z, z_stream *s, struct error *err)
{
	if (s->avail_in == 0 && !p->out_full) {
		ssize_t n = pipe_read(p, err);
		if (n < 0)
			return -1;
		s->next_in = p->inbuf;
		s->avail_in = (uInt)n;
		if (n == 0)
			return 1;
	}
	s->next_out = p->outbuf;
	s->avail_out = CHUNK;
	int rc = z->inflate(s, Z_NO_FLUSH);
	if (pipe_write(p, p->outbuf, CHUNK - s->avail_out, err) < 0)
		return -1;
	if (rc == Z_STREAM_END)   /* gzip members may follow one another */
		return z->inflateReset(s) == Z_OK ? 0 : error_set(err, "zlib: reset failed");
	if (rc != Z_OK && rc != Z_BUF_ERROR)
		return error_set(err, "%s", s->msg ? s->msg : "damaged data");
	return 0;
}

static int run_gzip(struct pipe *p, void *lib, struct error *err)
{
	const struct zlib_lib *z = lib;
	z_stream s = { .next_in = NULL };
	if (z->inflateInit2_(&s, 16 + MAX_WBITS, ZLIB_VERSION, (int)sizeof s) != Z_OK)
		return error_set(err, "zlib: out of memory");
	int rc;
	while ((rc = zlib_step(p, z, &s, err)) == 0)
		;
	/* the input ended inside a member: not all of the log came out */
	if (rc == 1 && s.total_in != 0)
		rc = error_set(err, "the compressed data end early");
	z->inflateEnd(&s);
	return rc < 0 ? -1 : 0;
}

/* ---- xz (liblzma) ---- */

#define LZMA_FUNCTIONS(X) X(lzma_stream_decoder) X(lzma_code) X(lzma_end)
struct lzma_lib {
	LZMA_FUNCTIONS(FIELD)
};

static const char *lzma_message(lzma_ret rc)
{
	switch (rc) {
	case LZMA_MEM_ERROR: return "out of memory";
	case LZMA_MEMLIMIT_ERROR: return "it needs more memory than 1 GiB to decompress";
	case LZMA_FORMAT_ERROR: return "not in the xz format";
	case LZMA_DATA_ERROR: return "damaged data";
	case LZMA_BUF_ERROR: return "the compressed data end early";
	default: return "liblzma failed";
	}
}

static int run_xz(struct pipe *p, void *lib, struct error *err)
{
	const struct lzma_lib *x = lib;
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret rc = x->lzma_stream_decoder(&s, XZ_MEMLIMIT, LZMA_CONCATENATED);
	while (rc == LZMA_OK) {
		if (s.avail_in == 0 && !p->at_end) {
			ssize_t n = pipe_read(p, err);
			if (n < 0)
				break;
			s.next_in = p->inbuf;
			s.avail_in = (size_t)n;
		}
		s.next_out = p->outbuf;
		s.avail_out = CHUNK;
		rc = x->lzma_code(&s, p->at_end ? LZMA_FINISH : LZMA_RUN);
		if (pipe_write(p, p->outbuf, CHUNK - s.avail_out, err) < 0)
			break;
	}
	x->lzma_end(&s);
	if (rc == LZMA_STREAM_END)
		return 0;
	if (err->msg[0] == '\0')
		error_set(err, "%s", lzma_message(rc));
	return -1;
}

/* ---- zstd (libzstd) ---- */

#define ZSTD_FUNCTIONS(X)                                                                          \
	X(ZSTD_createDStream) X(ZSTD_initDStream) X(ZSTD_decompressStream) X(ZSTD_freeDStream)   \
	X(ZSTD_isError) X(ZSTD_getErrorName) X(ZSTD_getErrorCode)
struct zstd_lib {
	ZSTD_FUNCTIONS(FIELD)
};

static int zstd_step(struct pipe *p, const struct zstd_lib *z, ZSTD_DStream *ds,
		     ZSTD_inBuffer *in, size_t *hint, struct error *err)
{
	if (in->pos == in->size && !p->out_full) {
		ssize_t n = pipe_read(p, err);
		if (n <= 0)
			return n < 0 ? -1 : 1;
		*in = (ZSTD_inBuffer){ p->inbuf, (size_t)n, 0 };
	}
	ZSTD_outBuffer out = { p->outbuf, CHUNK, 0 };
	*hint = z->ZSTD_decompressStream(ds, &out, in);
	/* zstd --long=31 needs a 2 GiB window; the library refuses over 128 MiB unless told */
	if (z->ZSTD_isError(*hint) &&
	    z->ZSTD_getErrorCode(*hint) == ZSTD_error_frameParameter_windowTooLarge)
		return error_set(err, "%s (it was compressed with --long): decompress it by hand, "
				 "zstd -d --long=31 %s", z->ZSTD_getErrorName(*hint), p->name);
	if (z->ZSTD_isError(*hint))
		return error_set(err, "%s", z->ZSTD_getErrorName(*hint));
	return pipe_write(p, p->outbuf, out.pos, err);
}

static int run_zstd(struct pipe *p, void *lib, struct error *err)
{
	const struct zstd_lib *z = lib;
	ZSTD_DStream *ds = z->ZSTD_createDStream();
	if (!ds || z->ZSTD_isError(z->ZSTD_initDStream(ds))) {
		z->ZSTD_freeDStream(ds);
		return error_set(err, "libzstd: out of memory");
	}
	ZSTD_inBuffer in = { p->inbuf, 0, 0 };
	size_t hint = 0;   /* 0: a frame has just ended */
	int rc;
	while ((rc = zstd_step(p, z, ds, &in, &hint, err)) == 0)
		;
	z->ZSTD_freeDStream(ds);
	if (rc == 1 && hint != 0)
		rc = error_set(err, "the compressed data end early");
	return rc < 0 ? -1 : 0;
}

/* ---- the kinds ---- */

#define SYMBOL(type, f) { #f, offsetof(struct type, f) },
#define ZLIB_SYMBOL(f) SYMBOL(zlib_lib, f)
#define LZMA_SYMBOL(f) SYMBOL(lzma_lib, f)
#define ZSTD_SYMBOL(f) SYMBOL(zstd_lib, f)
static const struct dynlib_symbol zlib_symbols[] = { ZLIB_FUNCTIONS(ZLIB_SYMBOL) };
static const struct dynlib_symbol lzma_symbols[] = { LZMA_FUNCTIONS(LZMA_SYMBOL) };
static const struct dynlib_symbol zstd_symbols[] = { ZSTD_FUNCTIONS(ZSTD_SYMBOL) };

struct codec {
	const char *name;
	const unsigned char *magic;
	size_t magic_len;
	const char *soname, *package;     /* the library, and the Debian package that has it */
	const struct dynlib_symbol *symbols;
	size_t nsymbols;
	int (*run)(struct pipe *p, void *lib, struct error *err);
};

#define N(a) (sizeof a / sizeof a[0])
static const struct codec codecs[] = {
	{ "gzip", (const unsigned char *)"\x1f\x8b", 2, "libz.so.1", "zlib1g",
	  zlib_symbols, N(zlib_symbols), run_gzip },
	{ "xz", (const unsigned char *)"\xfd" "7zXZ\0", 6, "liblzma.so.5", "liblzma5",
	  lzma_symbols, N(lzma_symbols), run_xz },
	{ "zstd", (const unsigned char *)"\x28\xb5\x2f\xfd", 4, "libzstd.so.1", "libzstd1",
	  zstd_symbols, N(zstd_symbols), run_zstd },
};

static const struct codec *codec_of(int fd)
{
	unsigned char head[8];
	ssize_t n = pread(fd, head, sizeof head, 0);
	for (size_t i = 0; n > 0 && i < N(codecs); i++)
		if ((size_t)n >= codecs[i].magic_len &&
		    memcmp(head, codecs[i].magic, codecs[i].magic_len) == 0)
			return &codecs[i];
	return NULL;
}

const char *log_compression(int fd)
{
	const struct codec *c = codec_of(fd);
	return c ? c->name : NULL;
}

static int decompress(const struct codec *c, struct pipe *p, struct error *err)
{
	union {
		struct zlib_lib z;
		struct lzma_lib x;
		struct zstd_lib s;
	} lib;
	struct error why = { "" };
	if (dynlib_load(c->soname, c->symbols, c->nsymbols, &lib, &why) < 0) {
		p->fatal = true;
		return error_set(err, "a %s-compressed log needs %s, which could not be loaded (%s); "
				 "install it (Debian: %s) or decompress the log first",
				 c->name, c->soname, why.msg, c->package);
	}
	p->inbuf = malloc(CHUNK);
	p->outbuf = malloc(CHUNK);
	p->fatal = !p->inbuf || !p->outbuf;
	int rc = !p->fatal ? c->run(p, &lib, err) : error_set(err, "out of memory");
	free(p->inbuf);
	free(p->outbuf);
	return rc;
}

int log_decompress(int fd, const char *name, const struct log_limits *limits, char *warning,
		   size_t warning_len, struct error *err)
{
	if (warning_len)
		warning[0] = '\0';
	const struct codec *c = codec_of(fd);
	if (!c)
		return fd;
	struct stat st;
	struct pipe p = { .in = fd, .name = name, .codec = c->name, .limits = *limits };
	p.size = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error_errno(err, name, errno);
	if (log_spool_open(&p.spool, name, c->name, err) < 0)
		return -1;
	progress_begin(&p.pg, stderr, name);
	struct error why = { "" };
	int rc = decompress(c, &p, &why);
	progress_end(&p.pg);
	if (rc < 0 && (p.fatal || p.written == 0)) {
		close(p.spool.fd);
		return p.fatal ? error_set(err, "%s: %s", name, why.msg)
			       : error_set(err, "%s: %s: %s", name, c->name, why.msg);
	}
	if (rc < 0)
		snprintf(warning, warning_len, "%s: %s: %s: the %llu bytes of the log before it are read",
			 name, c->name, why.msg, (unsigned long long)p.written);
	return p.spool.fd;
}
