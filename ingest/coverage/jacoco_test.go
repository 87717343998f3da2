package coverage

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plumbhq/plumb"
)

// jacocoCounters is a JaCoCo report's own LINE counters: the report total
// and each source file's.
type jacocoCounters struct {
	Total    jacocoCounter
	PerFile  map[string]jacocoCounter // package folder + "/" + file name
	Packages int
}

type jacocoCounter struct{ Missed, Covered int }

// readJaCoCoCounters reads the <counter type="LINE"> elements with a plain
// xml.Unmarshal (not Plumb's reader).
func readJaCoCoCounters(t *testing.T, name string) jacocoCounters {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	type counter struct {
		Type    string `xml:"type,attr"`
		Missed  int    `xml:"missed,attr"`
		Covered int    `xml:"covered,attr"`
	}
	var doc struct {
		Packages []struct {
			Name        string `xml:"name,attr"`
			Sourcefiles []struct {
				Name     string    `xml:"name,attr"`
				Counters []counter `xml:"counter"`
			} `xml:"sourcefile"`
		} `xml:"package"`
		Counters []counter `xml:"counter"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	line := func(cs []counter) jacocoCounter {
		for _, c := range cs {
			if c.Type == "LINE" {
				return jacocoCounter{c.Missed, c.Covered}
			}
		}
		t.Fatal("no LINE counter")
		return jacocoCounter{}
	}
	out := jacocoCounters{Total: line(doc.Counters), PerFile: map[string]jacocoCounter{}, Packages: len(doc.Packages)}
	for _, p := range doc.Packages {
		for _, s := range p.Sourcefiles {
			name := s.Name
			if p.Name != "" {
				name = p.Name + "/" + s.Name
			}
			out.PerFile[name] = line(s.Counters)
		}
	}
	return out
}

// TestJaCoCoRealTool: the report JaCoCo 0.8.6 wrote (testdata/jacoco/make.sh)
// gives the covered and missed lines of its own LINE counters, in total and
// per source file, and with AddPrefix for the source root the package
// folders become the repository paths of the sources.
func TestJaCoCoRealTool(t *testing.T) {
	const report = "testdata/jacoco/jacoco.xml"
	files := parseFixture(t, JaCoCo, report, Options{AddPrefix: "src"})
	tool := readJaCoCoCounters(t, report)
	want := []string{"src/Tool.java", "src/com/acme/Main.java", "src/com/acme/shop/Cart.java", "src/com/acme/util/Money.java"}
	wantPaths(t, files, want)
	for _, p := range want {
		if _, err := os.Stat(filepath.Join("testdata/jacoco", p)); err != nil {
			t.Errorf("%s is not a source of the fixture: %v", p, err)
		}
		c, m := countLines(files[p])
		if w := tool.PerFile[p[len("src/"):]]; c != w.Covered || m != w.Missed {
			t.Errorf("%s: Plumb %d covered, %d missed; JaCoCo LINE covered=%d missed=%d", p, c, m, w.Covered, w.Missed)
		}
	}
	c, m := countFiles(files)
	if c != tool.Total.Covered || m != tool.Total.Missed {
		t.Errorf("Plumb %d covered, %d missed; JaCoCo LINE covered=%d missed=%d", c, m, tool.Total.Covered, tool.Total.Missed)
	}
	t.Logf("JaCoCo LINE covered=%d missed=%d; Plumb %d covered + %d missed", tool.Total.Covered, tool.Total.Missed, c, m)
}

func TestJaCoCo(t *testing.T) {
	const report = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd">
<report name="shop">
  <sessioninfo id="vm-1" start="1" dump="2"/>
  <group name="shop-core">
    <package name="com/acme/shop">
      <class name="com/acme/shop/Cart" sourcefilename="Cart.java">
        <method name="add" desc="(J)V" line="3"><counter type="LINE" missed="0" covered="2"/></method>
        <counter type="LINE" missed="1" covered="2"/>
      </class>
      <sourcefile name="Cart.java">
        <line nr="3" mi="0" ci="4" mb="0" cb="2"/>
        <line nr="4" mi="2" ci="1" mb="1" cb="1"/>
        <line nr="6" mi="5" ci="0" mb="0" cb="0"/>
        <line nr="7" mi="0" ci="0" mb="0" cb="0"/>
        <line nr="8" mi="3"/>
        <line nr="9"/>
        <counter type="LINE" missed="2" covered="2"/>
      </sourcefile>
      <sourcefile name="Empty.java"><counter type="LINE" missed="0" covered="0"/></sourcefile>
      <counter type="LINE" missed="2" covered="2"/>
    </package>
  </group>
  <package name="">
    <sourcefile name="Tool.java"><line nr=" 2 " mi="1" ci=" 7 "/></sourcefile>
  </package>
  <counter type="LINE" missed="2" covered="3"/>
</report>`
	const cart = `<report><package name="com/acme"><sourcefile name="Foo.java"><line nr="1" mi="0" ci="1"/></sourcefile></package></report>`
	runParseCases(t, JaCoCo, []parseCase{
		{
			name: "every element: ci > 0 covered with hits ci, mi > 0 missed, neither or absent not coverable; class, method, counter, group and sessioninfo ignored; the default package",
			in:   report,
			want: []File{
				{Path: "com/acme/shop/Cart.java", Hits: []int64{-1, -1, 4, 1, -1, 0, -1, 0, -1}, Branches: []plumb.LineBranches{{Line: 3, Total: 2, Covered: 2}, {Line: 4, Total: 2, Covered: 1}}},
				{Path: "com/acme/shop/Empty.java", Hits: []int64{}},
				{Path: "Tool.java", Hits: []int64{-1, 7}},
			},
		},
		{
			name: "AddPrefix gives the source root in front of the package folder",
			in:   cart,
			opt:  Options{AddPrefix: "service/src/main/java/"},
			want: []File{{Path: "service/src/main/java/com/acme/Foo.java", Hits: []int64{1}}},
		},
		{
			name: "StripPrefix removes leading package folders",
			in:   cart,
			opt:  Options{StripPrefix: "com", AddPrefix: "lib"},
			want: []File{{Path: "lib/acme/Foo.java", Hits: []int64{1}}},
		},
		{
			name: "a package folder with backslashes and a trailing slash, a line given twice keeps the larger",
			in:   `<report><package name="com\acme\"><sourcefile name="Foo.kt"><line nr="2" mi="0" ci="3"/><line nr="2" mi="1" ci="0"/><line nr="1" mi="1" ci="0"/><line nr="1" mi="0" ci="2"/></sourcefile></package></report>`,
			want: []File{{Path: "com/acme/Foo.kt", Hits: []int64{2, 3}}},
		},
		{
			name: "a byte order mark, a namespace prefix and unknown elements and attributes",
			in:   "\xEF\xBB\xBF<report xmlns:x=\"urn:x\"><x:extra/><package name=\"p\" x:y=\"1\"><sourcefile name=\"A.java\"><x:line nr=\"1\" ci=\"1\"/></sourcefile></package></report>",
			want: []File{{Path: "p/A.java", Hits: []int64{1}}},
		},
		{name: "an empty report", in: `<report name="x"/>`},

		{name: "empty input", in: ``, err: `jacoco report at line 1: expected the root element <report> of a JaCoCo XML report`},
		{name: "not XML", in: `mode: set`, err: `jacoco report at line 1: expected the root element <report> of a JaCoCo XML report`},
		{name: "another root element", in: "<?xml version=\"1.0\"?>\n<coverage line-rate=\"1\"/>", err: `jacoco report at line 2 (<coverage> at column 1): expected the root element <report> of a JaCoCo XML report`},
		{name: "two roots", in: `<report/><report/>`, err: `jacoco report at line 1 (<report> at column 10): expected nothing after the </report> that ends the report`},
		{name: "malformed XML", in: "<report>\n<package name=\"a\">\n</report>", err: `jacoco report at line 3 (column 10): expected well-formed XML: element <package> closed by </report>`},
		{name: "truncated", in: `<report><package name="a">`, err: `jacoco report at line 1 (column 27): expected well-formed XML: unexpected EOF`},
		{name: "undeclared entity", in: `<report>&bogus;</report>`, err: `jacoco report at line 1 (column 16): expected well-formed XML: invalid character entity &bogus;`},
		{name: "an encoding other than UTF-8", in: `<?xml version="1.0" encoding="UTF-16"?><report/>`, err: `jacoco report at line 1 (column 40): expected well-formed UTF-8 XML: encoding "UTF-16" declared but Decoder.CharsetReader is nil`},
		{name: "package without name", in: `<report><package><sourcefile name="A.java"/></package></report>`, err: `jacoco report at line 1 (<package> at column 9): expected a name="<package folder>" attribute, e.g. name="com/acme/shop"`},
		{name: "nested package", in: `<report><package name="a"><package name="b"/></package></report>`, err: `jacoco report at line 1 (<package> at column 27): expected </package> before another <package> (packages do not nest)`},
		{name: "sourcefile outside a package", in: `<report><sourcefile name="A.java"/></report>`, err: `jacoco report at line 1 (<sourcefile> at column 9): expected <sourcefile> inside a <package>`},
		{name: "sourcefile without name", in: `<report><package name="a"><sourcefile name=" "/></package></report>`, err: `jacoco report at line 1 (<sourcefile> at column 27): expected a name="<file name>" attribute, e.g. name="Cart.java"`},
		{name: "nested sourcefile", in: `<report><package name="a"><sourcefile name="A.java"><sourcefile name="B.java"/></sourcefile></package></report>`, err: `jacoco report at line 1 (<sourcefile> at column 53): expected </sourcefile> before another <sourcefile>`},
		{name: "sourcefile path that is no file", in: `<report><package name=""><sourcefile name="/"/></package></report>`, err: `jacoco report at line 1 (<sourcefile> at column 26): expected a source file inside the repository, got "/" (package "")`},
		{name: "line outside a sourcefile", in: `<report><package name="a"><class name="a/A"><line nr="1"/></class></package></report>`, err: `jacoco report at line 1 (<line> at column 45): expected <line> inside a <sourcefile>`},
		{name: "line without nr", in: `<report><package name="a"><sourcefile name="A.java"><line mi="1" ci="0"/></sourcefile></package></report>`, err: `jacoco report at line 1 (<line> at column 53): expected an nr="<line number>" attribute in a/A.java`},
		{name: "line nr 0", in: `<report><package name="a"><sourcefile name="A.java"><line nr="0"/></sourcefile></package></report>`, err: `jacoco report at line 1 (<line> at column 53): expected nr="<line number>" with an integer from 1 to 4194304, got "0" in a/A.java`},
		{name: "line nr too large", in: `<report><package name="a"><sourcefile name="A.java"><line nr="4194305"/></sourcefile></package></report>`, err: `jacoco report at line 1 (<line> at column 53): expected nr="<line number>" with an integer from 1 to 4194304, got "4194305" in a/A.java`},
		{name: "line nr not a number", in: `<report><package name="a"><sourcefile name="A.java"><line nr="3a"/></sourcefile></package></report>`, err: `jacoco report at line 1 (<line> at column 53): expected nr="<line number>" with an integer from 1 to 4194304, got "3a" in a/A.java`},
		{name: "negative mi", in: `<report><package name="a"><sourcefile name="A.java"><line nr="1" mi="-1"/></sourcefile></package></report>`, err: `jacoco report at line 1 (<line> at column 53): expected mi="<instructions>" with a whole number, got "-1" in a/A.java`},
		{name: "ci not a number", in: "<report>\n <package name=\"a\">\n  <sourcefile name=\"A.java\">\n   <line nr=\"1\" ci=\"one\"/></sourcefile></package></report>", err: `jacoco report at line 4 (<line> at column 4): expected ci="<instructions>" with a whole number, got "one" in a/A.java`},
	})
	checkEmitError(t, JaCoCo, report)
}

func FuzzJaCoCo(f *testing.F) {
	addSeeds(f, "testdata/jacoco", "jacoco.xml")
	f.Add([]byte(`<report><package name="a/b"><sourcefile name="C.java"><line nr="2" mi="1" ci="0"/><line nr="3" mi="0" ci="2"/></sourcefile></package></report>`))
	f.Add([]byte(`<!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd"><report><group name="g"><package name=""><sourcefile name="T.java"><line nr="1"/></sourcefile></package></group></report>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzParse(t, JaCoCo, data, Options{AddPrefix: "src/main/java"})
	})
}

// jacocoGenReport is a JaCoCo report of about size bytes, one line per
// <line> as JaCoCo writes them (on one line, with class counters).
func jacocoGenReport(size int) []byte {
	var w bytes.Buffer
	w.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd"><report name="bench">`)
	for f := 0; w.Len() < size; f++ {
		fmt.Fprintf(&w, `<package name="com/acme/p%d"><class name="com/acme/p%d/C%d" sourcefilename="C%d.java"><counter type="LINE" missed="1" covered="1"/></class><sourcefile name="C%d.java">`, f/20, f/20, f, f, f)
		for l := 1; l <= 400; l++ {
			fmt.Fprintf(&w, `<line nr="%d" mi="%d" ci="%d" mb="0" cb="0"/>`, l*2, l%3, (l*7)%5)
		}
		w.WriteString(`<counter type="LINE" missed="1" covered="1"/></sourcefile></package>`)
	}
	w.WriteString(`<counter type="LINE" missed="1" covered="1"/></report>`)
	return w.Bytes()
}

func BenchmarkParseJaCoCo(b *testing.B) { benchParse(b, JaCoCo, jacocoGenReport(16<<20)) }
