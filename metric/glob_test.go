package metric

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		glob string
		path string
		want bool
	}{
		// `*` crosses directories.
		{"src/*", "src/a/b/c.go", true},
		{"src/*", "src/main.go", true},
		{"src/*", "src/", true},
		{"src/*", "src", false},
		{"src/*", "lib/src/a.go", false},
		{"src/*", "Src/a.go", false}, // case-sensitive
		{"*.go", "main.go", true},
		{"*.go", "a/b/c/main.go", true},
		{"*.go", "main.go.txt", false},
		{"*.go", "main.Go", false},
		{"*.go", ".go", true},
		{"*_test.go", "metric/glob_test.go", true},
		{"*_test.go", "metric/glob.go", false},
		{"*_test.go", "_test.go", true},
		{"*/*_test.go", "_test.go", false},
		{"src/*/*.go", "src/a/b.go", true},
		{"src/*/*.go", "src/a/b/c.go", true},
		{"src/*/*.go", "src/b.go", false},
		{"*/vendor/*", "a/vendor/b", true},
		{"*/vendor/*", "vendor/b", false},
		{"*vendor*", "vendor", true},
		// `**` is just two stars: it needs the slash that follows it.
		{"**/x", "a/b/x", true},
		{"**/x", "/x", true},
		{"**/x", "x", false},
		{"**", "", true},
		{"*", "", true},
		{"*", "any/thing at all", true},
		// Exact paths.
		{"go.mod", "go.mod", true},
		{"go.mod", "a/go.mod", false},
		{"go.mod", "go.mod.bak", false},
		{"docs/api.md", "docs/api.md", true},
		// Every other character is literal.
		{"a?.go", "a?.go", true},
		{"a?.go", "ab.go", false},
		{"[ab].go", "[ab].go", true},
		{"[ab].go", "a.go", false},
		{"*.go", "mainxgo", false}, // `.` is not "any character"
		{`a\*b`, `a\xyzb`, true},   // no escapes: `\` is literal, `*` is a star
		{`a\*b`, "a*b", false},
		{"{a;b}", "a", false},
		{"{a;b}", "{a;b}", true},
		{"^src$", "^src$", true},
		{"src/(x)+", "src/(x)+", true},
		// Spaces.
		{"My Documents/*", "My Documents/a b.txt", true},
		{"* *", "a b", true},
		{"* *", "ab", false},
		// Non-ASCII, compared byte for byte.
		{"docs/über/*", "docs/über/ß.md", true},
		{"docs/*/ß.md", "docs/über/ß.md", true},
		{"docs/uber/*", "docs/über/ß.md", false},
		{"docs/über/ss.md", "docs/über/ß.md", false},
		{"*.md", "docs/über/ß.md", true},
		{"文档/*", "文档/设计/说明.md", true},
		{"*说明*", "文档/设计/说明.md", true},
		{"*説明*", "文档/设计/说明.md", false}, // a different (Japanese) character
		{"café", "cafe\u0301", false},  // no Unicode normalisation
		// Empty path.
		{"a", "", false},
		{"*a", "", false},
		// Prefix and suffix must not overlap.
		{"ab*ba", "aba", false},
		{"ab*ba", "abba", true},
		{"a*a*a", "aa", false},
		{"a*a*a", "aaa", true},
		// Middle literals in order, leftmost first.
		{"*a*b*c*", "xxaxxbxxcxx", true},
		{"*a*b*c*", "xxcxxbxxaxx", false},
		{"*ab*ab*", "abab", true},
		{"*ab*ab*", "aba", false},
	}
	for _, tt := range tests {
		g, err := CompileGlob(tt.glob)
		if err != nil {
			t.Fatalf("CompileGlob(%q): %v", tt.glob, err)
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("glob %q, path %q: Match = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
		if got := reference(tt.glob).MatchString(tt.path); got != tt.want {
			t.Errorf("glob %q, path %q: the reference says %v: the table is wrong", tt.glob, tt.path, got)
		}
		if g.String() != tt.glob {
			t.Errorf("String() = %q, want %q", g.String(), tt.glob)
		}
	}
}

func TestMatcher(t *testing.T) {
	m, err := CompileGlobs([]string{"cmd/*", "*.sql", "README.md"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		"cmd/plumb/main.go":              true,
		"store/migrations/0001_init.sql": true,
		"README.md":                      true,
		"docs/README.md":                 false,
		"metric/glob.go":                 false,
		"":                               false,
	} {
		if got := m.Match(path); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
	if (Matcher{}).Match("anything") {
		t.Error("the zero Matcher matches")
	}
}

func TestValidateGlob(t *testing.T) {
	long := strings.Repeat("é", MaxGlobLength) // 1000 characters, 2000 bytes
	tests := []struct {
		glob    string
		wantErr string // a part of the message; "" for valid
	}{
		{"src/*", ""},
		{"*", ""},
		{"a?[b]{c}", ""},
		{" ", ""},
		{"docs/über/ß.md", ""},
		{long, ""},
		{"", "empty"},
		{long + "x", "1001 characters long; the maximum is 1000"},
		{"src/*,lib/*", `"src/*,lib/*" contains a comma`},
		{",", "contains a comma"},
		{"src/*\n", `"src/*\n" contains a line break`},
		{"a\rb", "line break (carriage return or line feed)"},
		{"a\r\nb", "line break"},
		{"a\xffb", "not valid UTF-8"},
	}
	for _, tt := range tests {
		err := ValidateGlob(tt.glob)
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("ValidateGlob(%q) = %v, want nil", tt.glob, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ValidateGlob(%q) = %v, want an error containing %q", tt.glob, err, tt.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "path glob") {
			t.Errorf("ValidateGlob(%q) = %v: the message does not say what it is about", tt.glob, err)
		}
		if _, cerr := CompileGlob(tt.glob); cerr == nil {
			t.Errorf("CompileGlob(%q) accepted an invalid glob", tt.glob)
		}
	}
}

func TestValidateGlobs(t *testing.T) {
	if errs := ValidateGlobs([]string{"a", "*"}); errs != nil {
		t.Errorf("valid list: %v", errs)
	}
	errs := ValidateGlobs(nil)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "at least one") {
		t.Errorf("empty list: %v", errs)
	}
	errs = ValidateGlobs([]string{"ok/*", "", "a,b", "fine"})
	if len(errs) != 2 || !strings.HasPrefix(errs[0].Error(), "pathGlobs[1]: path glob is empty") ||
		!strings.HasPrefix(errs[1].Error(), `pathGlobs[2]: path glob "a,b" contains a comma`) {
		t.Errorf("errors = %q", errs)
	}
	many := make([]string, MaxGlobs+1)
	for i := range many {
		many[i] = "*"
	}
	if errs := ValidateGlobs(many); len(errs) != 1 || !strings.Contains(errs[0].Error(), "1001 elements; the maximum is 1000") {
		t.Errorf("too many: %v", errs)
	}
	if errs := ValidateGlobs(many[:MaxGlobs]); errs != nil {
		t.Errorf("%d globs: %v", MaxGlobs, errs)
	}

	_, err := CompileGlobs([]string{"x", "a\nb", ""})
	if err == nil || !strings.Contains(err.Error(), "pathGlobs[1]") || !strings.Contains(err.Error(), "pathGlobs[2]") {
		t.Errorf("CompileGlobs error = %v, want both invalid elements named", err)
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 2 {
		t.Errorf("CompileGlobs error %v does not hold the 2 errors", err)
	}
}

func TestGlobPathological(t *testing.T) {
	path := strings.Repeat("a", 100_000)
	for _, glob := range []string{"*a*a*a*a*a*b", "*a*a*a*a*a*b*", "a*a*a*a*a*a*a*a*a*a*ab", "*aaaaaaaaaaaaaab*"} {
		g := newGlob(glob)
		if g.Match(path) {
			t.Errorf("%q matches a run of a's", glob)
		}
		if !g.Match(path + "b") {
			t.Errorf("%q does not match a run of a's and a b", glob)
		}
	}
}

func TestGlobMatchDoesNotAllocate(t *testing.T) {
	m, err := CompileGlobs([]string{"*.go", "src/*/x*y*z", "exact/path", "docs/über/*"})
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"a/b/c.go", "src/q/x1y2z", "exact/path", "docs/über/ß.md", "nothing/here.txt"}
	allocs := testing.AllocsPerRun(100, func() {
		for _, p := range paths {
			m.Match(p)
		}
	})
	if allocs != 0 {
		t.Errorf("Match allocates %v times per run", allocs)
	}
}

func BenchmarkGlobPathological(b *testing.B) {
	g := newGlob("*a*a*a*a*a*b*")
	path := strings.Repeat("a", 10_000)
	for b.Loop() {
		g.Match(path)
	}
}

func BenchmarkMatcher(b *testing.B) {
	m, _ := CompileGlobs([]string{"cmd/*", "internal/*/store/*.go", "*_test.go", "docs/*"})
	paths := []string{"internal/api/store/sqlite.go", "web/static/app.js", "metric/series_test.go", "cmd/plumb/main.go"}
	for b.Loop() {
		for _, p := range paths {
			m.Match(p)
		}
	}
}

// reference is the glob rule written as a regular expression: `*` is `.*`
// (with (?s), so it crosses newlines too), everything else literal, anchored.
func reference(glob string) *regexp.Regexp {
	parts := strings.Split(glob, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`(?s)\A` + strings.Join(parts, ".*") + `\z`)
}

func FuzzGlob(f *testing.F) {
	seeds := [][2]string{
		{"src/*", "src/a/b/c.go"}, {"*.go", "main.go"}, {"**/x", "x"}, {"*a*a*b", "aaaab"},
		{"ab*ba", "aba"}, {"docs/über/*", "docs/über/ß.md"}, {"文档/*", "文档/设计"}, {"a?[b].", "a?[b]."},
		{"*", ""}, {"", ""}, {"x", ""}, {"*\n*", "a\nb"}, {"a*b*c", "abcabc"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, path string) {
		// The reference works on runes; on valid UTF-8 bytes and runes agree.
		if !utf8.ValidString(glob) || !utf8.ValidString(path) {
			t.Skip()
		}
		got := newGlob(glob).Match(path)
		want := reference(glob).MatchString(path)
		if got != want {
			t.Fatalf("glob %q, path %q: Match = %v, reference = %v", glob, path, got, want)
		}
		if ValidateGlob(glob) == nil {
			m, err := CompileGlobs([]string{glob})
			if err != nil {
				t.Fatalf("CompileGlobs(%q): %v", glob, err)
			}
			if m.Match(path) != want {
				t.Fatalf("glob %q, path %q: Matcher.Match = %v, reference = %v", glob, path, !want, want)
			}
		}
	})
}
