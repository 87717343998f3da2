package sqlstore

import (
	"encoding/binary"
	"errors"
)

// Line hits are stored as one zig-zag varint per line: -1 (not coverable)
// takes one byte, as do small hit counts, so a 20,000-line file is ~20 KB.

func encodeHits(hits []int64) []byte {
	buf := make([]byte, 0, len(hits)+8)
	buf = binary.AppendUvarint(buf, uint64(len(hits)))
	for _, h := range hits {
		buf = binary.AppendVarint(buf, h)
	}
	return buf
}

func decodeHits(b []byte) ([]int64, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errors.New("corrupt hits blob")
	}
	b = b[k:]
	out := make([]int64, n)
	for i := range out {
		v, k := binary.Varint(b)
		if k <= 0 {
			return nil, errors.New("corrupt hits blob")
		}
		out[i] = v
		b = b[k:]
	}
	return out, nil
}

// countHits returns covered (> 0), missed (0) and omitted (< 0) line counts.
func countHits(hits []int64) (covered, missed, omitted int64) {
	for _, h := range hits {
		switch {
		case h > 0:
			covered++
		case h == 0:
			missed++
		default:
			omitted++
		}
	}
	return
}
