package analyze

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/plumbhq/plumb/analyze/dup"
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

// BenchmarkCloneDetectionTree runs clone detection alone (the step of an
// analysis after the files are measured), on every CPU as an analysis
// does, over the tree named by PLUMB_BENCH_TREE, measured once before the
// loop:
//
//	PLUMB_BENCH_TREE=/tmp/tree go test ./analyze -run '^$' -bench CloneDetectionTree -benchtime 5x
func BenchmarkCloneDetectionTree(b *testing.B) {
	dir := os.Getenv("PLUMB_BENCH_TREE")
	if dir == "" {
		b.Skip("set PLUMB_BENCH_TREE to a directory to analyse")
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		b.Fatal(err)
	}
	w := &walker{root: dir, cfg: cfg}
	if err := w.walk(); err != nil {
		b.Fatal(err)
	}
	var docs []dup.Doc
	groups := map[string]int{}
	var buf []byte
	read := func(string) ([]byte, error) { return buf, nil }
	for _, c := range w.files {
		if buf, err = readInto(buf[:0], c.abs, c.size); err != nil {
			b.Fatal(err)
		}
		if m := measure(c, read, cfg); m.file != nil && m.tokens.List != nil {
			docs = append(docs, dup.Doc{Index: len(docs), Path: c.rel, Group: dupGroup(groups, m.file.Language), Tokens: m.tokens, Anchors: m.anchors})
		}
	}
	o := dup.Options{MinTokens: cfg.Duplication.MinTokens, MinLines: cfg.Duplication.MinLines}
	b.ResetTimer()
	for b.Loop() {
		dup.DetectGroups(docs, o, runtime.GOMAXPROCS(0))
	}
}
