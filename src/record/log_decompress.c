/* log_decompress.c - compressed session logs into a temporary file (include/log_decompress.h).
 *
 * Each kind is a row of codecs[]: its magic, its library, and a loop that feeds the
 * library chunks of the file and writes what comes out.  The libraries' own headers
 * give the prototypes (__typeof__), so calls through the loaded tables are checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "dynlib.h"
#include "log_decompress.h"
#include "progress.h"

#define CHUNK (256u << 10)
#define XZ_MEMLIMIT (1ull << 30)   /* xz -9 needs 65 MiB; a crafted header may ask for more */

/* Where a decompression stands: the files, the buffers, what to say. */
struct pipe {
	int in, out;
	const char *name;
	uint64_t read, size, written;
	unsigned char *inbuf, *outbuf;
	struct progress pg;
	bool at_end;            /* the whole input has been read */
	bool out_full;          /* the last output filled the buffer: more may be pending */
	bool fatal;             /* not the data's fault: nothing is kept */
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

static int pipe_write(struct pipe *p, const unsigned char *buf, size_t len, struct error *err)
{
	p->out_full = len == CHUNK;
	while (len > 0) {
		ssize_t n = write(p->out, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			p->fatal = true;
			return error_set(err, "decompressing into a temporary file: %s", strerror(errno));
		}
		buf += n;
		len -= (size_t)n;
		p->written += (uint64_t)n;
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
	X(ZSTD_isError) X(ZSTD_getErrorName)
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

/* An unlinked file for the decompressed log: on disk when it can be, since a
 * week's log is gigabytes. */
static int temp_file(struct error *err)
{
	const char *dir = secure_getenv("TMPDIR");
	int fd = open(dir && dir[0] ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = memfd_create("ioscope-log", MFD_CLOEXEC);
	if (fd < 0)
		error_errno(err, "a temporary file for the decompressed log", errno);
	return fd;
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

int log_decompress(int fd, const char *name, char *warning, size_t warning_len,
		   struct error *err)
{
	if (warning_len)
		warning[0] = '\0';
	const struct codec *c = codec_of(fd);
	if (!c)
		return fd;
	struct stat st;
	struct pipe p = { .in = fd, .name = name };
	p.size = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error_errno(err, name, errno);
	if ((p.out = temp_file(err)) < 0)
		return -1;
	progress_begin(&p.pg, stderr, name);
	struct error why = { "" };
	int rc = decompress(c, &p, &why);
	progress_end(&p.pg);
	if (rc < 0 && (p.fatal || p.written == 0)) {
		close(p.out);
		return p.fatal ? error_set(err, "%s: %s", name, why.msg)
			       : error_set(err, "%s: %s: %s", name, c->name, why.msg);
	}
	if (rc < 0)
		snprintf(warning, warning_len, "%s: %s: %s: the %llu bytes of the log before it are read",
			 name, c->name, why.msg, (unsigned long long)p.written);
	return p.out;
}
