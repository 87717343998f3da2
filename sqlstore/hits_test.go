package sqlstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/plumbhq/plumb"
)

// The sparse form round-trips, reads blobs of the former dense form, counts
// and streams JSON equal to the expanded array.
func TestHitsFormat(t *testing.T) {
	for _, hits := range [][]int64{{}, {-1}, {0}, {5}, {-1, -1, 3}, {1, 0, -1, 3}, {-1, 0, 0, -1, -1, 7, -1}, {2, -1, -1}} {
		dense := binary.AppendUvarint(nil, uint64(len(hits)))
		for _, h := range hits {
			dense = binary.AppendVarint(dense, h)
		}
		for name, blob := range map[string][]byte{"sparse": encodeHits(hits), "dense": dense} {
			got, err := decodeHits(blob)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(hits) {
				t.Errorf("%s %v: decoded %v, %v", name, hits, got, err)
			}
			var b bytes.Buffer
			if err := Hits(blob).WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(hits)
			if b.String() != string(want) {
				t.Errorf("%s %v: JSON %s, want %s", name, hits, b.String(), want)
			}
			c, err := Hits(blob).Counts()
			cov, mis, om := plumb.CountHits(hits)
			if err != nil || c != (plumb.HitCounts{Covered: cov, Missed: mis, Omitted: om, Total: int64(len(hits))}) {
				t.Errorf("%s %v: counts %+v, %v", name, hits, c, err)
			}
		}
	}
	big := make([]int64, 4_000_000)
	for i := range big {
		big[i] = -1
	}
	big[3_999_999] = 1
	if n := len(encodeHits(big)); n > 16 {
		t.Errorf("one line at 4,000,000 takes %d bytes", n)
	}
}

// randomHits is a file of n lines, about a third of them not coverable.
func randomHits(rng *rand.Rand, n int) []int64 {
	h := make([]int64, n)
	for i := range h {
		h[i] = int64(rng.IntN(4)) - 1
	}
	return h
}

func sparseOf(hits []int64) plumb.CoverageFile {
	f := plumb.CoverageFile{Lines: []plumb.LineHit{}, Total: len(hits)}
	for i, h := range hits {
		if h >= 0 {
			f.Lines = append(f.Lines, plumb.LineHit{Line: i + 1, Hits: h})
		}
	}
	return f
}

// The merge over cursors (an upload's file, dense or sparse, with a stored
// blob of either format) gives what merging dense arrays gives: the same
// blob, the same counts, the same union counts.
func TestMergeOverCursorsMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 500; round++ {
		stored := randomHits(rng, rng.IntN(200))
		upload := randomHits(rng, rng.IntN(200))
		other := randomHits(rng, rng.IntN(200))
		want := plumb.MergeHits(stored, upload)
		wc, wm, _ := plumb.CountHits(want)
		uc, um, _ := plumb.CountHits(unionHits(want, other))
		for _, f := range []plumb.CoverageFile{{Hits: upload}, sparseOf(upload)} {
			for _, blob := range [][]byte{encodeHits(stored), legacyDense(stored)} {
				base := newBlobCursor(blob)
				enc := newHitEncoder(max(base.total, f.NumLines()))
				c, m := mergeHits(base, fileCursor(f), enc)
				got := enc.bytes()
				if base.err != nil {
					t.Fatal(base.err)
				}
				if !bytes.Equal(got, encodeHits(want)) || c != wc || m != wm {
					dec, _ := decodeHits(got)
					t.Fatalf("round %d (sparse %v): merged %v (%d, %d), want %v (%d, %d)", round, f.Sparse(), dec, c, m, want, wc, wm)
				}
				gc, gm := unionCounts([]hitCursor{newBlobCursor(got), newBlobCursor(encodeHits(other))})
				if gc != uc || gm != um {
					t.Fatalf("round %d: union counts %d, %d, want %d, %d", round, gc, gm, uc, um)
				}
			}
		}
	}
}

// legacyDense is the format before sparse blobs: the number of lines, then
// one varint per line.
func legacyDense(hits []int64) []byte {
	var b []byte
	b = appendUvarint(b, uint64(len(hits)))
	for _, h := range hits {
		b = appendVarint(b, h)
	}
	return b
}

func appendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
func appendVarint(b []byte, v int64) []byte   { return binary.AppendVarint(b, v) }
