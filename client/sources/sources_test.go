package sources

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/ingest/coverage"
)

// The files of a report come once each, mapped as the server maps them,
// whether the format is given or detected.
func TestReportFiles(t *testing.T) {
	lcov := "SF:/builds/app/src/a.go\nDA:1,1\nend_of_record\nSF:/builds/app/src/b.go\nDA:2,0\nend_of_record\nSF:/builds/app/src/a.go\nDA:3,1\nend_of_record\n"
	for _, format := range []string{"", "lcov"} {
		got, err := ReportFiles(client.Bytes("lcov.info", []byte(lcov)), format, coverage.Options{StripPrefix: "/builds/app"})
		if err != nil {
			t.Fatalf("format %q: %v", format, err)
		}
		if want := []string{"src/a.go", "src/b.go"}; !slices.Equal(got, want) {
			t.Errorf("format %q: %v, want %v", format, got, want)
		}
	}
	gocover := "mode: set\nexample.com/m/pkg/x.go:1.1,2.2 1 1\n"
	got, err := ReportFiles(client.Bytes("cover.out", []byte(gocover)), "", coverage.Options{ModulePath: "example.com/m"})
	if err != nil || !slices.Equal(got, []string{"pkg/x.go"}) {
		t.Errorf("go cover profile: %v, %v", got, err)
	}
	if _, err := ReportFiles(client.Bytes("empty", []byte("  \n")), "", coverage.Options{}); err == nil {
		t.Error("an empty report was accepted")
	}
	if _, err := ReportFiles(client.Bytes("bad", []byte("SF:x\nDA:oops\n")), "lcov", coverage.Options{}); err == nil {
		t.Error("a malformed report was accepted")
	}
}

// Locate keeps the regular files under the directory and names the rest.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, missing := Locate(dir, []string{"src/a.go", "src/gone.go", "src/d"})
	if !slices.Equal(found, []string{"src/a.go"}) || !slices.Equal(missing, []string{"src/gone.go", "src/d"}) {
		t.Errorf("found %v, missing %v", found, missing)
	}
}

// A report's set holds the files the checkout has, read with the strip
// prefix and stored with the add prefix; an analysis' set maps its paths
// as the server maps the analysis (strip, then add).
func TestSets(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lcov := "SF:/builds/app/src/a.go\nDA:1,1\nend_of_record\nSF:/builds/app/src/gone.go\nDA:2,0\nend_of_record\n"
	s, missing, all, err := Reported(dir, client.Bytes("lcov.info", []byte(lcov)), "", coverage.Options{StripPrefix: "/builds/app", AddPrefix: "svc"})
	if err != nil || all != 2 || !slices.Equal(missing, []string{"src/gone.go"}) || !slices.Equal(s.Paths, []string{"src/a.go"}) || s.Dir != dir || s.Name("src/a.go") != "svc/src/a.go" {
		t.Fatalf("reported: %+v, missing %v, all %d, %v", s, missing, all, err)
	}
	if _, _, _, err := Reported(dir, client.Bytes("empty", nil), "", coverage.Options{}); err == nil {
		t.Error("an empty report gave a set")
	}
	a := Analysed(dir, []string{"web/x.ts"}, coverage.Options{StripPrefix: "web", AddPrefix: "front"})
	if a.Name("web/x.ts") != "front/x.ts" || a.Content().Size != 0 {
		t.Errorf("analysed: %q, size %d", a.Name("web/x.ts"), a.Content().Size)
	}
}
