package coverage

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// hostileReport is a report of 25 files, each naming one covered line: the
// highest a report may name (4,194,304).
func hostileReport(f Format) string {
	var b strings.Builder
	each := func(format string) {
		for i := 0; i < 25; i++ {
			fmt.Fprintf(&b, format, i, maxLine)
		}
	}
	switch f {
	case LCOV:
		each("SF:src/f%d.c\nDA:%d,1\nend_of_record\n")
	case Cobertura:
		b.WriteString(`<?xml version="1.0"?><coverage><packages><package name="p"><classes>`)
		each(`<class name="c" filename="src/f%d.c"><lines><line number="%d" hits="1"/></lines></class>`)
		b.WriteString(`</classes></package></packages></coverage>`)
	case JaCoCo:
		b.WriteString(`<?xml version="1.0"?><report name="r"><package name="p">`)
		each(`<sourcefile name="F%d.java"><line nr="%d" mi="0" ci="1" mb="0" cb="0"/></sourcefile>`)
		b.WriteString(`</package></report>`)
	case Clover:
		b.WriteString(`<?xml version="1.0"?><coverage generated="1"><project timestamp="1">`)
		each(`<file name="f%d.php" path="src/f%[1]d.php"><line num="%d" type="stmt" count="1"/></file>`)
		b.WriteString(`</project></coverage>`)
	case Istanbul:
		b.WriteString("{")
		for i := 0; i < 25; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"src/f%d.js":{"path":"src/f%[1]d.js","statementMap":{"0":{"start":{"line":%d,"column":0},"end":{"line":%[2]d,"column":1}}},"s":{"0":1}}`, i, maxLine)
		}
		b.WriteString("}")
	case GoCover:
		b.WriteString("mode: set\n")
		each("m/src/f%d.go:%d.1,%[2]d.2 1 1\n")
	}
	return b.String()
}

// Issue 19 item 18: a parser's memory follows the lines a report gives, not
// the highest line number it names. 25 files of one line at 4,194,304 were
// 25 dense arrays of 32 MiB (800 MiB allocated for a 1 KB report); they are
// now 25 one-line files. Measured in bytes allocated, not in time.
func TestParserMemoryFollowsTheLinesGiven(t *testing.T) {
	for _, f := range []Format{LCOV, Cobertura, JaCoCo, Clover, Istanbul, GoCover} {
		t.Run(string(f), func(t *testing.T) {
			report := hostileReport(f)
			var files, lines int
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			err := Parse(strings.NewReader(report), f, Options{ModulePath: "m", TempDir: t.TempDir()}, func(file File) error {
				files++
				lines += file.Coverable()
				if file.NumLines() != maxLine {
					t.Errorf("%s: %d lines, want %d", file.Path, file.NumLines(), maxLine)
				}
				return nil
			})
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if files != 25 || lines != 25 {
				t.Fatalf("%d files, %d coverable lines, want 25 and 25", files, lines)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d-byte report: %.2f MB allocated", len(report), float64(alloc)/(1<<20))
			if alloc > 4<<20 {
				t.Errorf("parsing a %d-byte report allocated %.1f MB, want at most 4 MB", len(report), float64(alloc)/(1<<20))
			}
		})
	}
}

// A file's lines are kept by line while they are dense enough and one by
// one once a record names a line far beyond: the same hits either way.
func TestLineMapForms(t *testing.T) {
	for _, c := range []struct {
		name   string
		lines  [][2]int64 // line, hits
		sparse bool
	}{
		{"dense", [][2]int64{{1, 1}, {3, 0}, {2, 4}, {3, 2}}, false},
		{"not coverable lines count in the length", [][2]int64{{1, 1}, {9, -1}}, false},
		{"far line", [][2]int64{{1, 1}, {2, 0}, {3000, 5}, {2, 7}, {1, 1}}, true},
		{"far first", [][2]int64{{4000000, 1}, {3, 2}, {4000000, 1}}, true},
		{"far not coverable", [][2]int64{{2, 1}, {5000, -1}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := lineMap{combine: addHits}
			var want []int64
			for _, l := range c.lines {
				for len(want) < int(l[0]) {
					want = append(want, -1)
				}
				switch {
				case l[1] < 0:
				case want[l[0]-1] < 0:
					want[l[0]-1] = l[1]
				default:
					want[l[0]-1] += l[1]
				}
				m.add(int(l[0]), l[1])
			}
			f := m.file("a.c")
			if f.Sparse() != c.sparse {
				t.Errorf("sparse %v, want %v", f.Sparse(), c.sparse)
			}
			if got := dense(f).Hits; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("hits %v, want %v", got, want)
			}
			if f := m.file("b.c"); f.Coverable() != 0 || f.NumLines() != 0 {
				t.Errorf("the next file starts with %+v", f)
			}
		})
	}
}
