package sqlstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
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
