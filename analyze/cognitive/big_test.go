package cognitive

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/analyze/token"
)

// TestBigInputs guards against scans that grow with the square of the
// input (an unclosed parameter list read to the end of the file, once per
// def, took 9 s on 140 KB; so would an endless method whose expression
// never closes, without its bound).
func TestBigInputs(t *testing.T) {
	files, _ := filepath.Glob("testdata/tokens/*")
	var all []byte
	for _, p := range files {
		b, _ := os.ReadFile(p)
		all = append(all, b...)
	}
	for _, in := range [][]byte{bytes.Repeat(all, 4), bytes.ReplaceAll(bytes.Repeat(all, 4), []byte("\n"), []byte(" ")), bytes.Repeat([]byte("def f(\n"), 20000), bytes.Repeat([]byte("def f = (\n"), 20000), bytes.Repeat([]byte("(\"'`{"), 20000)} {
		for name := range token.Syntaxes {
			t0 := time.Now()
			Analyze(name, in)
			if d := time.Since(t0); d > 2*time.Second {
				t.Errorf("%s on %d bytes: %v", name, len(in), d)
			}
		}
	}
}

// TestChunkedScoring: a file larger than a chunk is scored a chunk at a
// time; cut after the } of top-level functions, the result equals the
// whole file's.
func TestChunkedScoring(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "function f%d(a,b){return a&&b?`${a?1:2}`:b}", i)
	}
	src := []byte(b.String())
	whole, _ := Analyze("JavaScript", src)
	defer func(n int) { chunkTokens = n }(chunkTokens)
	chunkTokens = 1000
	if len(src) < 4*chunkTokens {
		t.Fatal("the file must be scored in chunks")
	}
	chunked, _ := Analyze("JavaScript", src)
	if len(whole) != 3000 || fmt.Sprint(whole) != fmt.Sprint(chunked) {
		t.Errorf("whole %d functions, chunked %d; first %+v / %+v", len(whole), len(chunked), whole[:1], chunked[:1])
	}
	if whole[0].Complexity != 4 { // +1 ?:, +1 &&, +2 ?: (nesting 1)
		t.Errorf("f0 scores %d, want 4", whole[0].Complexity)
	}
}
