//go:build cgo

package encoding

// With cgo, libzstd itself writes the blocks referenceBlock does not reproduce, with the calls the
// reference's zstd crate makes: a stream at level 3, the data written (ZSTD_e_continue), then the
// frame ended (ZSTD_e_end). So the frame is the reference's byte for byte, whatever the data.
//
// libzstd is the copy github.com/DataDog/zstd builds (1.5.7, the version the zstd crate of the
// reference bundles); pebble links it already. That package makes a new stream for every frame
// (about 0.4 ms at level 3, most of it the 2 MiB window and tables it allocates and touches), so
// the few functions used here are declared below and called on contexts kept for reuse (the tests
// hold their frames to the package's own new streams).

/*
#include <stddef.h>

typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct { const void* src; size_t size; size_t pos; } ZSTD_inBuffer;
typedef struct { void* dst; size_t size; size_t pos; } ZSTD_outBuffer;

ZSTD_CCtx* ZSTD_createCCtx(void);
size_t ZSTD_freeCCtx(ZSTD_CCtx* cctx);
size_t ZSTD_CCtx_reset(ZSTD_CCtx* cctx, int reset);
size_t ZSTD_CCtx_setParameter(ZSTD_CCtx* cctx, int param, int value);
size_t ZSTD_compressStream2(ZSTD_CCtx* cctx, ZSTD_outBuffer* output, ZSTD_inBuffer* input, int endOp);
unsigned ZSTD_isError(size_t code);
size_t ZSTD_compressBound(size_t srcSize);

// Values of libzstd's stable API (zstd.h): ZSTD_reset_session_only, ZSTD_c_compressionLevel, ZSTD_e_continue,
// ZSTD_e_end.
enum { resetSessionOnly = 1, cCompressionLevel = 100, eContinue = 0, eEnd = 2 };

// newContext returns a context set to level, or NULL.
static ZSTD_CCtx* newContext(int level) {
	ZSTD_CCtx* cctx = ZSTD_createCCtx();
	if (cctx != NULL && ZSTD_isError(ZSTD_CCtx_setParameter(cctx, cCompressionLevel, level))) {
		ZSTD_freeCCtx(cctx);
		return NULL;
	}
	return cctx;
}

// stream compresses src[0:n] into dst[0:cap] as one frame: written, then ended. It returns the frame's size, or 0
// when libzstd failed or dst was too small.
// A session reset keeps the parameters and the workspace: the next frame's tables are not cleared but their
// entries fall outside its window, so it is compressed as by a new context, without clearing megabytes.
static size_t stream(ZSTD_CCtx* cctx, const void* src, size_t n, void* dst, size_t cap) {
	if (ZSTD_isError(ZSTD_CCtx_reset(cctx, resetSessionOnly))) return 0;
	ZSTD_outBuffer out = { dst, cap, 0 };
	ZSTD_inBuffer in = { src, n, 0 };
	while (in.pos < in.size) {
		size_t r = ZSTD_compressStream2(cctx, &out, &in, eContinue);
		if (ZSTD_isError(r) || (out.pos == out.size && in.pos < in.size)) return 0;
	}
	ZSTD_inBuffer none = { NULL, 0, 0 };
	for (;;) {
		size_t r = ZSTD_compressStream2(cctx, &out, &none, eEnd);
		if (ZSTD_isError(r)) return 0;
		if (r == 0) return out.pos;
		if (out.pos == out.size) return 0;
	}
}
*/
import "C"

import (
	"runtime"
	"unsafe"

	_ "github.com/DataDog/zstd" // links libzstd, whose functions are declared above
)

// libzstdAvailable reports whether the blocks come from libzstd.
const libzstdAvailable = true

// libzstdLevel is the level the reference asks for: 0, which libzstd takes as its default, 3.
const libzstdLevel = 3

// zstdContexts keeps up to one context a processor (each holds about 3 MiB of C memory, which Go does not
// see); a context not taken back is freed.
var zstdContexts = make(chan *C.ZSTD_CCtx, runtime.GOMAXPROCS(0))

// libzstdStream compresses data as the reference's streaming writer does.
func libzstdStream(data []byte) ([]byte, bool) {
	var cctx *C.ZSTD_CCtx
	select {
	case cctx = <-zstdContexts:
	default:
		if cctx = C.newContext(libzstdLevel); cctx == nil {
			return nil, false
		}
	}
	// Room for the frame whatever the data: libzstd's bound, plus the header and the end of an empty frame.
	dst := make([]byte, int(C.ZSTD_compressBound(C.size_t(len(data))))+32)
	var src unsafe.Pointer
	if len(data) > 0 {
		src = unsafe.Pointer(&data[0])
	}
	// dst and data are Go memory that libzstd only reads and writes during the call.
	n := C.stream(cctx, src, C.size_t(len(data)), unsafe.Pointer(&dst[0]), C.size_t(len(dst)))
	runtime.KeepAlive(data)
	select {
	case zstdContexts <- cctx:
	default:
		C.ZSTD_freeCCtx(cctx)
	}
	if n == 0 {
		return nil, false
	}
	return dst[:n], true
}

func emptyZstdFrame() ([]byte, bool) { return libzstdStream(nil) }

func otherZstdBlocks(data []byte) ([]byte, bool) {
	frame, ok := libzstdStream(data)
	if !ok || len(frame) < len(referenceZstdHeader) || [6]byte(frame[:6]) != referenceZstdHeader {
		return nil, false
	}
	return frame[6:], true
}
