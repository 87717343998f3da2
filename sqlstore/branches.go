package sqlstore

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/plumbhq/plumb"
)

// A file's branch figures are stored beside its hits, sparse: only the lines
// a report gave branch data for. The blob is a 1 byte (the format), the
// number of lines, then per line the gap from the previous line (the first
// from line 0), its number of branches and how many of them ran, all
// uvarints: about 3 bytes a line. A file without branch data has no blob
// (NULL).

var errCorruptBranches = errors.New("corrupt branches blob")

// encodeBranches encodes figures in ascending line order (checked by
// checkBranches); nil for none.
func encodeBranches(bs []plumb.LineBranches) []byte {
	if len(bs) == 0 {
		return nil
	}
	out := make([]byte, 0, 2+3*len(bs))
	out = append(out, 1)
	out = binary.AppendUvarint(out, uint64(len(bs)))
	prev := 0
	for _, b := range bs {
		out = binary.AppendUvarint(out, uint64(b.Line-prev))
		out = binary.AppendUvarint(out, uint64(b.Total))
		out = binary.AppendUvarint(out, uint64(b.Covered))
		prev = b.Line
	}
	return out
}

// decodeBranches decodes a blob of encodeBranches (nil for none).
func decodeBranches(b []byte) ([]plumb.LineBranches, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] != 1 {
		return nil, errCorruptBranches
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errCorruptBranches
	}
	b = b[k:]
	out := make([]plumb.LineBranches, n)
	line := uint64(0)
	for i := range out {
		var v [3]uint64
		for j := range v {
			v[j], k = binary.Uvarint(b)
			if k <= 0 {
				return nil, errCorruptBranches
			}
			b = b[k:]
		}
		line += v[0]
		if v[0] == 0 || line > 1<<31 || v[1] == 0 || v[1] > plumb.MaxBranches || v[2] > v[1] {
			return nil, errCorruptBranches
		}
		out[i] = plumb.LineBranches{Line: int(line), Total: int(v[1]), Covered: int(v[2])}
	}
	if len(b) > 0 {
		return nil, errCorruptBranches
	}
	return out, nil
}

// checkBranches says what is wrong with a file's branch figures, if
// anything: lines out of order, repeated or below 1, a line without
// branches or with more than plumb.MaxBranches, or more covered than it has.
func checkBranches(bs []plumb.LineBranches) string {
	prev := 0
	for _, b := range bs {
		switch {
		case b.Line <= prev:
			return fmt.Sprintf("branches: line %d comes after line %d; lines are given once each, in order, from 1", b.Line, prev)
		case b.Total < 1 || b.Total > plumb.MaxBranches:
			return fmt.Sprintf("branches: line %d has %d branches; a line has 1 to %d", b.Line, b.Total, plumb.MaxBranches)
		case b.Covered < 0 || b.Covered > b.Total:
			return fmt.Sprintf("branches: line %d has %d of its %d branches covered; covered is 0 to the line's branches", b.Line, b.Covered, b.Total)
		}
		prev = b.Line
	}
	return ""
}

// mergeBranchBlob merges a stored blob with a report's figures
// (plumb.MergeBranches' rule) and encodes the result.
func mergeBranchBlob(stored []byte, bs []plumb.LineBranches) ([]byte, error) {
	if len(bs) == 0 {
		return stored, nil
	}
	old, err := decodeBranches(stored)
	if err != nil {
		return nil, err
	}
	return encodeBranches(plumb.MergeBranches(old, bs)), nil
}
