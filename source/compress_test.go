package source

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// deltaText is a source-like text of n distinct lines, seeded.
func deltaText(seed int64, n int) []byte {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int { return x*%d + %d }\n", i, r.Intn(1000), r.Intn(1000))
	}
	return []byte(b.String())
}

// A content that differs little from its base compresses against it to a
// small frame that reads back only with that base; an unrelated content is
// not worth a delta and comes back as its full frame.
func TestCompressDelta(t *testing.T) {
	base := deltaText(1, 2000)
	edited := append(append([]byte{}, base[:len(base)/2]...), "// one new line\n"...)
	edited = append(edited, base[len(base)/2:]...)
	z, worth, err := CompressDelta(edited, base)
	if err != nil || !worth {
		t.Fatalf("a one-line edit is not worth a delta: %v", err)
	}
	full := Compress(edited)
	if len(z)*20 > len(full) {
		t.Fatalf("the delta of a one-line edit is %d bytes, the full frame %d", len(z), len(full))
	}
	back, err := DecompressDelta(z, base)
	if err != nil || !bytes.Equal(back, edited) {
		t.Fatalf("delta round trip: %v", err)
	}
	if _, err := Decompress(z); err == nil {
		t.Fatal("a delta frame decompressed without its base")
	}
	if back, err := DecompressDelta(z, deltaText(2, 2000)); err == nil && bytes.Equal(back, edited) {
		t.Fatal("a delta frame read back with another base")
	}
	other := deltaText(3, 2000)
	z, worth, err = CompressDelta(other, base)
	if err != nil || worth || !bytes.Equal(z, Compress(other)) {
		t.Fatalf("an unrelated content: worth %v, %v", worth, err)
	}
	if z, worth, err := CompressDelta(edited, nil); err != nil || worth || !bytes.Equal(z, full) {
		t.Fatalf("no base: worth %v, %v", worth, err)
	}
}
