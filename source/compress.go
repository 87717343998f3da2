package source

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// The one encoder and decoder of the process: EncodeAll and DecodeAll are
// safe for concurrent use. The decoder refuses a frame that would grow past
// MaxMaxFileSize, so a hostile stored or imported frame cannot exhaust
// memory.
var (
	encoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(2), zstd.WithLowerEncoderMem(true))
	decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(2), zstd.WithDecoderMaxMemory(uint64(MaxMaxFileSize)),
		zstd.WithDecoderMaxWindow(uint64(MaxMaxFileSize)))
)

// Compress returns content as one zstd frame (the form a content is kept
// and exported in). The same content gives the same bytes.
func Compress(content []byte) []byte {
	return encoder.EncodeAll(content, make([]byte, 0, len(content)/3+64))
}

// Decompress returns the content of a zstd frame, refusing one that is not
// zstd or that holds more than MaxMaxFileSize bytes.
func Decompress(frame []byte) ([]byte, error) {
	b, err := decoder.DecodeAll(frame, nil)
	if err != nil {
		return nil, fmt.Errorf("decompress source: %w", err)
	}
	return b, nil
}

// deltaDictID is the dictionary id a delta frame names in its header: a
// frame read without its base then fails ("dictionary not found") instead of
// answering wrong bytes.
const deltaDictID = 0x706c6d62 // "plmb"

// A delta is kept only when it is at most deltaKeepNum/deltaKeepDen of the
// content's full frame: a larger one means the base has drifted, and the
// content is better kept as a full frame that later contents of the path
// take as their base.
const (
	deltaKeepNum = 1
	deltaKeepDen = 2
)

// CompressDelta returns content as one zstd frame compressed against base
// (a raw zstd dictionary: the earlier content of the same path), and
// whether it is worth keeping instead of Compress(content), the full frame:
// it is when it is at most half its size. Reading it back needs the same
// base (DecompressDelta).
func CompressDelta(content, base []byte) (frame []byte, worth bool, err error) {
	full := Compress(content)
	if len(base) == 0 {
		return full, false, nil
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1),
		zstd.WithLowerEncoderMem(true), zstd.WithEncoderDictRaw(deltaDictID, base))
	if err != nil {
		return nil, false, fmt.Errorf("compress source against its base: %w", err)
	}
	defer enc.Close()
	delta := enc.EncodeAll(content, make([]byte, 0, len(full)))
	if len(delta)*deltaKeepDen > len(full)*deltaKeepNum {
		return full, false, nil
	}
	return delta, true, nil
}

// DecompressDelta returns the content of a frame CompressDelta made against
// base, with the limits of Decompress.
func DecompressDelta(frame, base []byte) ([]byte, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(MaxMaxFileSize)),
		zstd.WithDecoderMaxWindow(uint64(MaxMaxFileSize)), zstd.WithDecoderDictRaw(deltaDictID, base))
	if err != nil {
		return nil, fmt.Errorf("decompress source: %w", err)
	}
	defer dec.Close()
	b, err := dec.DecodeAll(frame, nil)
	if err != nil {
		return nil, fmt.Errorf("decompress source against its base: %w", err)
	}
	return b, nil
}
