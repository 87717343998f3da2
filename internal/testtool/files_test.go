package testtool

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFiles makes the directories a path needs and writes each file.
func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	WriteFiles(t, dir, map[string]string{"a.txt": "a", "deep/er/b.go": "package b\n"})
	for name, want := range map[string]string{"a.txt": "a", "deep/er/b.go": "package b\n"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
}
