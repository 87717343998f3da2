package coverage

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/plumbhq/plumb"
)

// TestCloverRealTools: the clover.xml that nyc and c8 wrote
// (testdata/istanbul/make.sh) gives the covered and missed lines of the
// report's own project metrics and of the tool's "Lines" summary
// (coverage-summary.json from the same run), in total and per file.
func TestCloverRealTools(t *testing.T) {
	for _, tool := range []string{"nyc", "c8"} {
		t.Run(tool, func(t *testing.T) {
			dir := filepath.Join("testdata/clover", tool)
			report := filepath.Join(dir, "clover.xml")
			files := parseFixture(t, Clover, report, Options{StripPrefix: istanbulFixtureRoot})
			sum := checkIstanbulFixture(t, tool, files, filepath.Join(dir, "coverage-summary.json"))
			b, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Metrics struct {
					Statements        int `xml:"statements,attr"`
					CoveredStatements int `xml:"coveredstatements,attr"`
				} `xml:"project>metrics"`
			}
			if err := xml.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			c, m := countFiles(files)
			total := sum["total"].Lines
			if c != total.Covered || c+m != total.Total {
				t.Errorf("Plumb %d covered, %d missed; %s Lines %d/%d", c, m, tool, total.Covered, total.Total)
			}
			if c != doc.Metrics.CoveredStatements || c+m != doc.Metrics.Statements {
				t.Errorf("Plumb %d covered, %d missed; clover metrics coveredstatements=%d statements=%d", c, m, doc.Metrics.CoveredStatements, doc.Metrics.Statements)
			}
			t.Logf("%s Lines %d/%d, clover coveredstatements/statements %d/%d; Plumb %d covered + %d missed",
				tool, total.Covered, total.Total, doc.Metrics.CoveredStatements, doc.Metrics.Statements, c, m)
		})
	}
}

// TestCloverPHPUnit: the clover.xml PHPUnit 9.6 (with pcov) wrote
// (testdata/clover/phpunit/make.sh) gives the covered and missed lines of
// PHPUnit's own text report of the same run ("Lines: …% (covered/total)"), in
// total and per class (one class a file), and of the report's project
// metrics. Its method entries are not lines.
func TestCloverPHPUnit(t *testing.T) {
	const dir = "testdata/clover/phpunit"
	files := parseFixture(t, Clover, filepath.Join(dir, "clover.xml"), Options{StripPrefix: "/tmp/plumb-fixture/php"})
	want := []string{"src/Cart.php", "src/Money.php", "src/Unused.php"}
	wantPaths(t, files, want)
	b, err := os.ReadFile(filepath.Join(dir, "coverage.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// " Summary: … Lines:   65.52% (19/29)" then per class
	// "Acme\Shop\Cart\n  Methods: …   Lines:  66.67% ( 10/ 15)".
	linesRe := regexp.MustCompile(`Lines:\s+[\d.]+% \(\s*(\d+)/\s*(\d+)\)`)
	classRe := regexp.MustCompile(`(?m)^Acme\\Shop\\(\w+)\n.*Lines:\s+[\d.]+% \(\s*(\d+)/\s*(\d+)\)`)
	total := linesRe.FindStringSubmatch(string(b))
	classes := classRe.FindAllStringSubmatch(string(b), -1)
	if total == nil || len(classes) != len(want) {
		t.Fatalf("cannot read PHPUnit's summary from coverage.txt:\n%s", b)
	}
	for _, m := range classes {
		p := "src/" + m[1] + ".php"
		c, miss := countLines(files[p])
		if fmt.Sprint(c) != m[2] || fmt.Sprint(c+miss) != m[3] {
			t.Errorf("%s: Plumb %d covered / %d lines, PHPUnit %s/%s", p, c, c+miss, m[2], m[3])
		}
	}
	c, m := countFiles(files)
	if fmt.Sprint(c) != total[1] || fmt.Sprint(c+m) != total[2] {
		t.Errorf("Plumb %d covered, %d missed; PHPUnit Lines %s/%s", c, m, total[1], total[2])
	}
	t.Logf("PHPUnit Lines %s/%s; Plumb %d covered + %d missed", total[1], total[2], c, m)
}

func TestClover(t *testing.T) {
	// istanbul's reporter: packages, name = base name, path = absolute.
	const istanbul = `<?xml version="1.0" encoding="UTF-8"?>
<coverage generated="1700000000000" clover="3.2.0">
  <project timestamp="1700000000000" name="All files">
    <metrics statements="4" coveredstatements="3" conditionals="2" coveredconditionals="1" methods="1" coveredmethods="1" elements="7" coveredelements="5" complexity="0" loc="4" ncloc="4" packages="1" files="2" classes="2"/>
    <package name="src.lib">
      <metrics statements="4" coveredstatements="3" conditionals="2" coveredconditionals="1" methods="1" coveredmethods="1"/>
      <file name="cart.js" path="/ci/app/src/lib/cart.js">
        <metrics statements="4" coveredstatements="3" conditionals="2" coveredconditionals="1" methods="1" coveredmethods="1"/>
        <line num="2" count="1" type="stmt"/>
        <line num="5" count="3" type="cond" truecount="1" falsecount="1"/>
        <line num="6" count="0" type="stmt"/>
        <line num="8" count="3" type="stmt"/>
      </file>
      <file name="empty.js" path="/ci/app/src/lib/empty.js">
        <metrics statements="0" coveredstatements="0" conditionals="0" coveredconditionals="0" methods="0" coveredmethods="0"/>
      </file>
    </package>
  </project>
</coverage>`
	// OpenClover: method entries, several statements per line, conditions
	// with truecount/falsecount only, classes, and a <testproject>.
	const openClover = `<?xml version="1.0" encoding="UTF-8"?>
<coverage generated="1700000000000" clover="4.5.2">
  <project timestamp="1700000000000" name="shop">
    <metrics classes="1" methods="2" coveredmethods="1" conditionals="2" coveredconditionals="1" statements="5" coveredstatements="3" elements="9" coveredelements="5" loc="30" ncloc="20" packages="1" files="1"/>
    <package name="com.acme.shop">
      <metrics classes="1" methods="2" coveredmethods="1"/>
      <file name="Cart.java" path="/ci/app/src/main/java/com/acme/shop/Cart.java">
        <class name="Cart"><metrics methods="2" coveredmethods="1"/></class>
        <line num="10" count="3" type="method" signature="add(long) : void" visibility="public"/>
        <line num="11" falsecount="3" truecount="0" type="cond"/>
        <line num="11" count="3" type="stmt"/>
        <line num="12" count="0" type="stmt"/>
        <line num="14" count="3" type="stmt"/>
        <line num="14" count="1" type="stmt"/>
        <line num="20" count="0" type="method" signature="clear() : void"/>
        <line num="21" count="0" type="stmt"/>
        <line num="22" truecount="0" falsecount="0" type="cond"/>
      </file>
    </package>
  </project>
  <testproject timestamp="1700000000000" name="shop tests">
    <package name="com.acme.shop">
      <file name="CartTest.java" path="/ci/app/src/test/java/com/acme/shop/CartTest.java">
        <line num="9" count="1" type="stmt"/>
      </file>
    </package>
  </testproject>
</coverage>`
	// PHPUnit: files directly in the project, name = the full path, method
	// entries with name and crap.
	const phpunit = `<?xml version="1.0" encoding="UTF-8"?>
<coverage generated="1700000000">
  <project timestamp="1700000000">
    <file name="/ci/app/src/Money.php">
      <class name="App\Money" namespace="App"><metrics complexity="2" methods="1" coveredmethods="1" conditionals="0" coveredconditionals="0" statements="2" coveredstatements="1" elements="3" coveredelements="2"/></class>
      <line num="7" type="method" name="format" visibility="public" complexity="2" crap="2.15" count="4"/>
      <line num="9" type="stmt" count="4"/>
      <line num="10" type="stmt" count="0"/>
      <metrics loc="12" ncloc="12" classes="1" methods="1" coveredmethods="1" conditionals="0" coveredconditionals="0" statements="2" coveredstatements="1" elements="3" coveredelements="2"/>
    </file>
    <metrics files="1" loc="12" ncloc="12" classes="1" methods="1" coveredmethods="1" conditionals="0" coveredconditionals="0" statements="2" coveredstatements="1" elements="3" coveredelements="2"/>
  </project>
</coverage>`
	const line = `<coverage><project><file path="/a.js">%s</file></project></coverage>`
	runParseCases(t, Clover, []parseCase{
		{
			name: "istanbul: stmt and cond lines with their count, path attribute, file without lines",
			in:   istanbul,
			opt:  Options{StripPrefix: "/ci/app"},
			want: []File{
				{Path: "src/lib/cart.js", Hits: []int64{-1, 1, -1, -1, 3, 0, -1, 3}, Branches: []plumb.LineBranches{{Line: 5, Total: 2, Covered: 1}}},
				{Path: "src/lib/empty.js", Hits: []int64{}},
			},
		},
		{
			name: "OpenClover: method entries are no lines, a line's entries keep the largest count, a cond without count counts truecount+falsecount, testproject skipped",
			in:   openClover,
			opt:  Options{StripPrefix: "/ci/app/src/main/java", AddPrefix: "shop/src/main/java"},
			want: []File{
				{Path: "shop/src/main/java/com/acme/shop/Cart.java", Hits: []int64{
					-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, // 1-10 (10 is a method)
					3, 0, -1, 3, -1, -1, -1, -1, -1, -1, // 11-20 (20 is a method)
					0, 0},
					// cond entries without count: 2 branches each, one
					// covered per count above 0
					Branches: []plumb.LineBranches{{Line: 11, Total: 2, Covered: 1}, {Line: 22, Total: 2, Covered: 0}}},
			},
		},
		{
			name: "PHPUnit: files directly in the project, the path in name, class and metrics ignored",
			in:   phpunit,
			opt:  Options{StripPrefix: "/ci/app"},
			want: []File{{Path: "src/Money.php", Hits: []int64{-1, -1, -1, -1, -1, -1, -1, -1, 4, 0}}},
		},
		{
			name: "an empty path attribute falls back to name; byte order mark; spaces in numbers",
			in:   "\xEF\xBB\xBF<coverage><project><file name=\"lib/a.js\" path=\"\"><line num=\" 2 \" count=\" 5 \" type=\" stmt \"/></file></project></coverage>",
			opt:  Options{AddPrefix: "web"},
			want: []File{{Path: "web/lib/a.js", Hits: []int64{-1, 5}}},
		},
		{name: "a project without files", in: `<coverage clover="3.2.0"><project><metrics statements="0"/></project></coverage>`},

		{name: "empty input", in: ``, err: `clover report at line 1: expected the root element <coverage> of a Clover XML report`},
		{name: "another root element", in: `<report/>`, err: `clover report at line 1 (<report> at column 1): expected the root element <coverage> of a Clover XML report`},
		{name: "two roots", in: `<coverage/><coverage/>`, err: `clover report at line 1 (<coverage> at column 12): expected nothing after the </coverage> that ends the report`},
		{name: "malformed XML", in: "<coverage>\n<project>\n<file name=\"a\"></project>", err: `clover report at line 3 (column 26): expected well-formed XML: element <file> closed by </project>`},
		{name: "truncated", in: `<coverage><project>`, err: `clover report at line 1 (column 20): expected well-formed XML: unexpected EOF`},
		{name: "file outside the project", in: `<coverage><file path="/a.js"/></coverage>`, err: `clover report at line 1 (<file> at column 11): expected <file> inside <project>`},
		{name: "file without path or name", in: `<coverage><project><file path=" "/></project></coverage>`, err: `clover report at line 1 (<file> at column 20): expected a path="<file path>" or name="<file path>" attribute`},
		{name: "file path that is no file", in: `<coverage><project><file path="/"/></project></coverage>`, err: `clover report at line 1 (<file> at column 20): expected a file inside the repository, got "/"`},
		{name: "nested file", in: `<coverage><project><file path="a"><file path="b"/></file></project></coverage>`, err: `clover report at line 1 (<file> at column 35): expected </file> before another <file>`},
		{name: "line outside a file", in: `<coverage><project><line num="1" count="1" type="stmt"/></project></coverage>`, err: `clover report at line 1 (<line> at column 20): expected <line> inside a <file>`},
		{name: "line without num", in: fmt.Sprintf(line, `<line count="1" type="stmt"/>`), err: `clover report at line 1 (<line> at column 39): expected a num="<line number>" attribute in /a.js`},
		{name: "line num 0", in: fmt.Sprintf(line, `<line num="0" count="1" type="stmt"/>`), err: `clover report at line 1 (<line> at column 39): expected num="<line number>" with an integer from 1 to 4194304, got "0" in /a.js`},
		{name: "line num too large", in: fmt.Sprintf(line, `<line num="4194305" count="1" type="stmt"/>`), err: `clover report at line 1 (<line> at column 39): expected num="<line number>" with an integer from 1 to 4194304, got "4194305" in /a.js`},
		{name: "line without type", in: fmt.Sprintf(line, `<line num="1" count="1"/>`), err: `clover report at line 1 (<line> at column 39): expected a type="stmt|cond|method" attribute in /a.js`},
		{name: "unknown type", in: fmt.Sprintf(line, `<line num="1" count="1" type="branch"/>`), err: `clover report at line 1 (<line> at column 39): expected type="stmt", "cond" or "method", got "branch" in /a.js`},
		{name: "stmt without count", in: fmt.Sprintf(line, `<line num="1" type="stmt"/>`), err: `clover report at line 1 (<line> at column 39): expected a count="<count>" attribute in /a.js`},
		{name: "negative count", in: fmt.Sprintf(line, `<line num="1" count="-2" type="stmt"/>`), err: `clover report at line 1 (<line> at column 39): expected count="<count>" with a whole number, got "-2" in /a.js`},
		{name: "cond without counts", in: fmt.Sprintf(line, `<line num="1" truecount="1" type="cond"/>`), err: `clover report at line 1 (<line> at column 39): expected count="<count>", or truecount="<count>" and falsecount="<count>" in /a.js`},
		{name: "bad truecount", in: fmt.Sprintf(line, `<line num="1" truecount="x" falsecount="0" type="cond"/>`), err: `clover report at line 1 (<line> at column 39): expected truecount="<count>" with a whole number, got "x" in /a.js`},
		{name: "bad falsecount", in: "<coverage>\n<project>\n<file path=\"/a.js\">\n  <line num=\"1\" truecount=\"0\" falsecount=\"1.5\" type=\"cond\"/></file></project></coverage>", err: `clover report at line 4 (<line> at column 3): expected falsecount="<count>" with a whole number, got "1.5" in /a.js`},
	})
	checkEmitError(t, Clover, istanbul)
}

func FuzzClover(f *testing.F) {
	addSeeds(f, "testdata/clover", "nyc/clover.xml", "c8/clover.xml", "phpunit/clover.xml")
	f.Add([]byte(`<coverage><project><file name="/a.php"><line num="3" type="method" count="1"/><line num="4" type="stmt" count="1"/><line num="4" type="cond" truecount="1" falsecount="2"/></file></project><testproject><file path="t"/></testproject></coverage>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzParse(t, Clover, data, Options{StripPrefix: istanbulFixtureRoot})
	})
}

// cloverGenReport is an istanbul-style Clover report of about size bytes.
func cloverGenReport(size int) []byte {
	var w bytes.Buffer
	w.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<coverage generated=\"1\" clover=\"3.2.0\">\n  <project timestamp=\"1\" name=\"All files\">\n")
	for f := 0; w.Len() < size; f++ {
		fmt.Fprintf(&w, "    <package name=\"src.p%d\">\n      <file name=\"f%d.js\" path=\"/ci/app/src/p%d/f%d.js\">\n        <metrics statements=\"1\" coveredstatements=\"1\" conditionals=\"0\" coveredconditionals=\"0\" methods=\"0\" coveredmethods=\"0\"/>\n", f/20, f, f/20, f)
		for l := 1; l <= 400; l++ {
			if l%10 == 0 {
				fmt.Fprintf(&w, "        <line num=\"%d\" count=\"%d\" type=\"cond\" truecount=\"1\" falsecount=\"1\"/>\n", l*2, l%4)
			} else {
				fmt.Fprintf(&w, "        <line num=\"%d\" count=\"%d\" type=\"stmt\"/>\n", l*2, l%4)
			}
		}
		w.WriteString("      </file>\n    </package>\n")
	}
	w.WriteString("  </project>\n</coverage>\n")
	return w.Bytes()
}

func BenchmarkParseClover(b *testing.B) { benchParse(b, Clover, cloverGenReport(16<<20)) }
