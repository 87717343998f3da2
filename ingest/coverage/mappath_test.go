package coverage

import "testing"

func TestMapPath(t *testing.T) {
	cases := []struct {
		in   string
		opt  Options
		want string
		ok   bool
	}{
		{"src/a.go", Options{}, "src/a.go", true},
		{"./src//a.go", Options{}, "src/a.go", true},
		{`src\win\a.go`, Options{}, "src/win/a.go", true},
		{"/home/ci/repo/src/a.go", Options{StripPrefix: "/home/ci/repo"}, "src/a.go", true},
		{"/home/ci/repo/src/a.go", Options{StripPrefix: "/home/ci/repo/"}, "src/a.go", true},
		{"a.go", Options{AddPrefix: "pkg/x"}, "pkg/x/a.go", true},
		{"/home/ci/repo", Options{StripPrefix: "/home/ci/repo"}, "", false},
		{"../outside.go", Options{}, "", false},
		{"src/../../outside.go", Options{}, "", false},
		{"src/../in.go", Options{}, "in.go", true},
		{"", Options{}, "", false},
		{"a.go", Options{AddPrefix: "../up"}, "", false},
		{"docs/über ß.md", Options{}, "docs/über ß.md", true},
	}
	for _, c := range cases {
		got, ok := MapPath(c.in, c.opt)
		if got != c.want || ok != c.ok {
			t.Errorf("MapPath(%q, %+v) = %q, %v; want %q, %v", c.in, c.opt, got, ok, c.want, c.ok)
		}
	}
}
