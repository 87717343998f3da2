package cognitive

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/plumbhq/plumb/analyze/token"
)

// TestBigInputs guards against scans that grow with the square of the
// input (an unclosed parameter list read to the end of the file, once per
// def, took 9 s on 140 KB).
func TestBigInputs(t *testing.T) {
	files, _ := filepath.Glob("testdata/tokens/*")
	var all []byte
	for _, p := range files {
		b, _ := os.ReadFile(p)
		all = append(all, b...)
	}
	for _, in := range [][]byte{bytes.Repeat(all, 4), bytes.ReplaceAll(bytes.Repeat(all, 4), []byte("\n"), []byte(" ")), bytes.Repeat([]byte("def f(\n"), 20000), bytes.Repeat([]byte("(\"'`{"), 20000)} {
		for name := range token.Syntaxes {
			t0 := time.Now()
			Analyze(name, in)
			if d := time.Since(t0); d > 2*time.Second {
				t.Errorf("%s on %d bytes: %v", name, len(in), d)
			}
		}
	}
}
