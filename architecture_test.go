package plumb_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const modulePath = "github.com/plumbhq/plumb"

// TestArchitectureMatchesImports holds docs/architecture.md's layout table
// against the code: every package has a row, every row names a package, and
// no package imports a Plumb package its row does not allow.
func TestArchitectureMatchesImports(t *testing.T) {
	rows := layoutRows(t)
	pkgs := packageImports(t)
	if len(pkgs) < 20 {
		t.Fatalf("found only %d packages: the walk is broken", len(pkgs))
	}
	rowOf := func(pkg string) (string, bool) {
		if _, ok := rows[pkg]; ok {
			return pkg, true
		}
		for name := range rows { // "bench/cmd/*" covers the packages below bench/cmd
			if dir, ok := strings.CutSuffix(name, "/*"); ok && strings.HasPrefix(pkg, dir+"/") {
				return name, true
			}
		}
		return "", false
	}
	used := map[string]bool{}
	for _, pkg := range slices.Sorted(maps.Keys(pkgs)) {
		row, ok := rowOf(pkg)
		if !ok {
			t.Errorf("package %s has no row in docs/architecture.md's layout table", pkg)
			continue
		}
		used[row] = true
		for _, imp := range pkgs[pkg] {
			if imp != pkg && !rows[row][imp] {
				t.Errorf("%s imports %s, which its row (%s) does not allow", pkg, imp, row)
			}
		}
	}
	for name := range rows {
		if !used[name] {
			t.Errorf("the layout table's row %s names no package", name)
		}
	}
}

// layoutRows reads the table: package → the packages it may import.
func layoutRows(t *testing.T) map[string]map[string]bool {
	b, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Layout\n")
	if !ok {
		t.Fatal("docs/architecture.md has no Layout section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	tick := regexp.MustCompile("`([^`]+)`")
	name := func(s string) string {
		s = strings.TrimSuffix(strings.TrimSpace(s), "/")
		if s == "plumb" {
			return "."
		}
		return s
	}
	rows := map[string]map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.HasPrefix(strings.TrimSpace(cells[1]), "**") || strings.HasPrefix(cells[1], "---") {
			continue
		}
		names := tick.FindAllStringSubmatch(cells[1], -1)
		if len(names) == 0 {
			continue
		}
		allowed := map[string]bool{}
		for _, m := range tick.FindAllStringSubmatch(cells[3], -1) {
			allowed[name(m[1])] = true
		}
		for _, m := range names {
			rows[name(strings.Fields(m[1])[0])] = allowed
		}
	}
	if len(rows) == 0 {
		t.Fatal("the layout table has no rows")
	}
	return rows
}

// packageImports lists, per package directory of the module, the module's
// packages its non-test files import.
func packageImports(t *testing.T) map[string][]string {
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := d.Name()
			if p != "." && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if _, ok := out[dir]; !ok {
			out[dir] = nil // a package of tests only has a row too
		}
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			ip := strings.Trim(imp.Path.Value, `"`)
			var rel string
			switch {
			case ip == modulePath:
				rel = "."
			case strings.HasPrefix(ip, modulePath+"/"):
				rel = strings.TrimPrefix(ip, modulePath+"/")
			default:
				continue
			}
			if !slices.Contains(out[dir], rel) {
				out[dir] = append(out[dir], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
