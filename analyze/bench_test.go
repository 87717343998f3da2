package analyze

import (
	"context"
	"os"
	"testing"
)

// BenchmarkRunTree runs the whole analysis over the tree named by
// PLUMB_BENCH_TREE (with its own .plumb.yml), for profiles:
//
//	PLUMB_BENCH_TREE=/tmp/tree go test ./analyze -run '^$' -bench RunTree -benchtime 3x -cpuprofile cpu.out
func BenchmarkRunTree(b *testing.B) {
	dir := os.Getenv("PLUMB_BENCH_TREE")
	if dir == "" {
		b.Skip("set PLUMB_BENCH_TREE to a directory to analyse")
	}
	for b.Loop() {
		res, err := Run(context.Background(), Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Files) == 0 {
			b.Fatal("no file measured")
		}
	}
}
