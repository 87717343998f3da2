package coverage

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGoModulePath(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"module github.com/acme/shop\n\ngo 1.26\n":    "github.com/acme/shop",
		"// comment\nmodule \"example.com/quoted\"\n": "example.com/quoted",
		"go 1.26\nrequire x v1\n":                     "",
		"modulex notamodule\n":                        "",
		"\tmodule   example.com/spaced  \n":           "example.com/spaced",
	}
	for content, want := range cases {
		p := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := ModulePathOf(p); got != want {
			t.Errorf("ModulePathOf(%q) = %q, want %q", content, got, want)
		}
	}
	if got := ModulePathOf(filepath.Join(dir, "missing.mod")); got != "" {
		t.Errorf("missing go.mod gave %q", got)
	}
}
