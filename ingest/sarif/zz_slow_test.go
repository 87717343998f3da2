package sarif

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
	"time"
)

func TestZZHang(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.sarif")
	var seeds [][]byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if len(b) < 20000 {
			seeds = append(seeds, b)
		}
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		b := append([]byte(nil), seeds[rng.Intn(len(seeds))]...)
		for k := rng.Intn(4) + 1; k > 0; k-- {
			p := rng.Intn(len(b))
			switch rng.Intn(4) {
			case 0:
				b[p] = byte(rng.Intn(256))
			case 1:
				b = append(b[:p], b[min(len(b), p+rng.Intn(20)):]...)
			case 2:
				q := rng.Intn(len(b))
				b = append(b[:p], append(append([]byte(nil), b[q:min(len(b), q+rng.Intn(40))]...), b[p:]...)...)
			case 3:
				b = b[:p]
			}
			if len(b) == 0 {
				b = []byte("{")
			}
		}
		done := make(chan bool)
		go func() {
			Parse(bytes.NewReader(b), Options{StripPrefix: "src", AddPrefix: "app", RepoRoot: "/r"})
			Parse(iotest.OneByteReader(bytes.NewReader(b)), Options{StripPrefix: "src", AddPrefix: "app", RepoRoot: "/r"})
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			os.WriteFile("/tmp/hang.sarif", b, 0o644)
			t.Fatalf("hang at %d", i)
		}
	}
}
