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
