package coverage

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

// cobTestDoc wraps classes in a Cobertura document.
func cobTestDoc(sources []string, classes string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" ?>\n<coverage line-rate=\"0.5\" version=\"test\">\n<sources>")
	for _, s := range sources {
		b.WriteString("<source>" + s + "</source>")
	}
	b.WriteString("</sources>\n<packages><package name=\"p\"><classes>\n" + classes + "</classes></package></packages>\n</coverage>\n")
	return b.String()
}

func cobTestClass(filename string, lines ...[2]int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<class name=\"c\" filename=\"%s\"><methods/><lines>", filename)
	for _, l := range lines {
		fmt.Fprintf(&b, "<line number=\"%d\" hits=\"%d\"/>", l[0], l[1])
	}
	b.WriteString("</lines></class>\n")
	return b.String()
}

func TestParseCobertura(t *testing.T) {
	tests := []struct {
		name  string
		input string
		opt   Options
		want  []File
	}{{
		name: "lines, branches, methods repeating class lines",
		input: `<?xml version="1.0" ?>
<!DOCTYPE coverage SYSTEM 'http://cobertura.sourceforge.net/xml/coverage-04.dtd'>
<coverage line-rate="0.5" branch-rate="0.5" version="1.9">
  <sources><source>.</source></sources>
  <packages><package name="com.x"><classes>
    <class name="com.x.A" filename="com/x/A.java" line-rate="0.5">
      <methods>
        <method name="f" signature="()V"><lines><line number="3" hits="2"/><line number="4" hits="0"/></lines></method>
      </methods>
      <lines>
        <line number="3" hits="2" branch="false"/>
        <line number="4" hits="0" branch="true" condition-coverage="50% (1/2)"><conditions><condition number="0" type="jump" coverage="50%"/></conditions></line>
        <line number="6" hits="11"/>
      </lines>
    </class>
  </classes></package></packages>
</coverage>`,
		want: []File{{Path: "com/x/A.java", Hits: []int64{-1, -1, 2, 0, -1, 11}, Branches: []plumb.LineBranches{{Line: 4, Total: 2, Covered: 1}}}},
	}, {
		name: "classes of one file merge by maximum; the file again later is emitted again",
		input: cobTestDoc(nil,
			cobTestClass("a.py", [2]int{1, 1}, [2]int{2, 0})+
				cobTestClass("a.py", [2]int{2, 3}, [2]int{1, 1}, [2]int{4, 0})+
				cobTestClass("b.py", [2]int{1, 0})+
				cobTestClass("a.py", [2]int{5, 1})),
		want: []File{{Path: "a.py", Hits: []int64{1, 3, -1, 0}}, {Path: "b.py", Hits: []int64{0}}, {Path: "a.py", Hits: []int64{-1, -1, -1, -1, 1}}},
	}, {
		name:  "a class without lines",
		input: cobTestDoc(nil, `<class name="e" filename="empty.py"><methods/><lines/></class>`),
		want:  []File{{Path: "empty.py", Hits: []int64{}}},
	}, {
		name:  "lines outside a class are ignored",
		input: `<coverage><line number="1" hits="1"/><packages><package><classes>` + cobTestClass("a.c", [2]int{1, 1}) + `</classes></package></packages></coverage>`,
		want:  []File{{Path: "a.c", Hits: []int64{1}}},
	}, {
		name:  "relative filenames, absolute <source>: relative to the repository root (gcovr, coverage.py)",
		input: cobTestDoc([]string{"/home/ci/repo"}, cobTestClass("src/a.c", [2]int{1, 1})),
		want:  []File{{Path: "src/a.c", Hits: []int64{1}}},
	}, {
		name:  "relative filenames, absolute <source> under StripPrefix: joined (Cobertura for Java, coverage.py --source)",
		input: cobTestDoc([]string{"/home/ci/repo/src/main/java"}, cobTestClass("com/x/A.java", [2]int{1, 1})),
		opt:   Options{StripPrefix: "/home/ci/repo"},
		want:  []File{{Path: "src/main/java/com/x/A.java", Hits: []int64{1}}},
	}, {
		name:  "relative filenames, absolute <source> not under StripPrefix: StripPrefix applies to the filename",
		input: cobTestDoc([]string{"/elsewhere"}, cobTestClass("build/a.c", [2]int{1, 1})),
		opt:   Options{StripPrefix: "build"},
		want:  []File{{Path: "a.c", Hits: []int64{1}}},
	}, {
		name:  "relative <source>: joined",
		input: cobTestDoc([]string{"src/", "other"}, cobTestClass("pkg/a.py", [2]int{1, 1})),
		want:  []File{{Path: "src/pkg/a.py", Hits: []int64{1}}},
	}, {
		name:  "absolute filenames lose the longest absolute <source> they are under",
		input: cobTestDoc([]string{"/ci", "/ci/repo", "rel"}, cobTestClass("/ci/repo/lib/a.c", [2]int{1, 1})+cobTestClass("/usr/include/b.h", [2]int{1, 0})),
		want:  []File{{Path: "lib/a.c", Hits: []int64{1}}, {Path: "usr/include/b.h", Hits: []int64{0}}},
	}, {
		name:  "absolute filenames with StripPrefix: the sources are not used",
		input: cobTestDoc([]string{"/ci/repo/lib"}, cobTestClass("/ci/repo/lib/a.c", [2]int{1, 1})),
		opt:   Options{StripPrefix: "/ci/repo"},
		want:  []File{{Path: "lib/a.c", Hits: []int64{1}}},
	}, {
		name:  "Windows paths (coverlet)",
		input: cobTestDoc([]string{`C:\agent\_work\1\s\`}, cobTestClass(`C:\agent\_work\1\s\Lib\A.cs`, [2]int{1, 1})+cobTestClass(`Lib\B.cs`, [2]int{2, 0})),
		want:  []File{{Path: "Lib/A.cs", Hits: []int64{1}}, {Path: "Lib/B.cs", Hits: []int64{-1, 0}}},
	}, {
		name:  "no <sources>, AddPrefix",
		input: `<coverage><packages><package><classes>` + cobTestClass("./a.c", [2]int{2, 1}) + `</classes></package></packages></coverage>`,
		opt:   Options{AddPrefix: "native"},
		want:  []File{{Path: "native/a.c", Hits: []int64{-1, 1}}},
	}, {
		name: "XML details: BOM, comments, PIs, entities, CDATA, whitespace in attributes, single quotes, prefixes",
		input: "\xEF\xBB\xBF<?xml version='1.0' encoding='UTF-8'?>\n<!-- generated -->\n<!DOCTYPE coverage [ <!ENTITY x \"y>\"> ]>\n" +
			"<coverage xmlns:c='urn:c'><?pi data?><sources><source><![CDATA[/ci/]]>re&#112;o<!-- c --></source></sources>\r\n" +
			"<packages><package><classes><c:class filename = ' /ci/repo/a&amp;b &lt;1&gt;.c '><lines>" +
			"<line number='1' hits='3'/><line hits=\"&#x34;\" number=\" 2 \"></line>\n</lines></c:class></classes></package></packages></coverage>\n<!-- end -->\n",
		want: []File{{Path: "a&b <1>.c", Hits: []int64{3, 4}}},
	}, {
		name:  "ISO-8859-1",
		input: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><coverage><packages><package><classes><class filename=\"caf\xe9.c\"><lines><line number=\"1\" hits=\"1\"/></lines></class></classes></package></packages></coverage>",
		want:  []File{{Path: "café.c", Hits: []int64{1}}},
	}, {
		name:  "large hits",
		input: cobTestDoc(nil, `<class filename="a.cs"><lines><line number="1" hits="9223372036854775807"/></lines></class>`),
		want:  []File{{Path: "a.cs", Hits: []int64{math.MaxInt64}}},
	}, {
		name:  "an empty report",
		input: `<coverage line-rate="0"><sources/><packages/></coverage>`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFiles(Cobertura, tt.input, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %v\nwant %v", got, tt.want)
			}
			checkFiles(t, got)
			// The encoding/xml reference reads the same.
			ref, err := cobRefParse(strings.NewReader(tt.input), tt.opt)
			if err != nil || !reflect.DeepEqual(ref, got) {
				t.Fatalf("reference: %v, %v", ref, err)
			}
		})
	}
}

func TestParseCoberturaErrors(t *testing.T) {
	class := func(attrs string) string {
		return cobTestDoc(nil, "<class filename=\"a.c\"><lines>\n<line "+attrs+"/>\n</lines></class>")
	}
	tests := []struct {
		name  string
		input string
		line  int
		elem  string
		msg   string
	}{
		{"mismatched end tag", "<coverage>\n<packages>\n</package>\n</coverage>", 3, "<packages>", "expected </packages>, got </package>"},
		{"unclosed at end", "<coverage>\n<packages>\n", 3, "<packages>", "expected </packages> before the end of the report"},
		{"ends inside a tag", "<coverage>\n<packages attr=\"x", 2, "<coverage>", "the report ends inside markup"},
		{"not a Cobertura root", "<?xml version=\"1.0\"?>\n<report name=\"x\"/>", 2, "<report>", "expected the root element <coverage>"},
		{"no root", "<?xml version=\"1.0\"?>\n<!-- nothing -->\n", 3, "", "expected a root element"},
		{"second root", "<coverage/>\n<coverage/>", 2, "", "expected a single root element"},
		{"text outside the root", "<coverage/>\ntrailing", 1, "", "expected only markup outside the root element"},
		{"missing number", class(`hits="1"`), 6, "<line>", `expected a number="<line number>" attribute`},
		{"missing hits", class(`number="1"`), 6, "<line>", `expected a hits="<count>" attribute`},
		{"number 0", class(`number="0" hits="1"`), 6, "<line>", `expected number="<line number>" with an integer from 1 to 4194304, got "0"`},
		{"number not an integer", class(`number="1.0" hits="1"`), 6, "<line>", `with an integer from 1`},
		{"negative hits", class(`number="1" hits="-1"`), 6, "<line>", `expected hits="<count>" with an integer of at least 0, got "-1"`},
		{"hits not an integer", class(`number="1" hits="lots"`), 6, "<line>", `with an integer of at least 0`},
		{"class without filename", cobTestDoc(nil, "<class name=\"x\">\n</class>"), 5, "<class>", `expected a filename="…" attribute`},
		{"class with an empty filename", cobTestDoc(nil, "<class filename=\" \">\n</class>"), 5, "<class>", `expected a filename="…" attribute naming a file`},
		{"unquoted attribute", "<coverage>\n<packages name=x>", 2, "<coverage>", "expected a quoted value for attribute name in <packages>"},
		{"< in an attribute", "<coverage a=\"<\">", 1, "", "expected no unescaped < in attribute a of <coverage>"},
		{"unknown entity", "<coverage>\n<sources><source>&nbsp;</source></sources></coverage>", 2, "<source>", "expected a character or entity reference"},
		{"bad character reference", "<coverage a=\"&#0;\"/>", 1, "", "expected a character or entity reference after & in attribute a"},
		{"not XML", "SF:a.c\nDA:1,1\n", 1, "", "expected only markup outside the root element"},
		{"bad markup", "<coverage>\n<!FOO></coverage>", 2, "<coverage>", "expected <!--, <![CDATA[ or <!DOCTYPE after <!"},
		{"-- in a comment", "<coverage>\n<!-----></coverage>", 2, "<coverage>", `expected no "--" inside a comment`},
		{"DOCTYPE inside", "<coverage>\n<!DOCTYPE x></coverage>", 2, "<coverage>", "expected <!DOCTYPE> only before the root element"},
		{"UTF-16", "<?xml version=\"1.0\" encoding=\"UTF-16\"?><coverage/>", 1, "", `expected encoding UTF-8, US-ASCII or ISO-8859-1, got "UTF-16"`},
		{"filename not UTF-8", cobTestDoc(nil, "<class filename=\"\xff.c\">\n</class>"), 5, "<class>", "naming a file in UTF-8"},
		{"huge token", "<coverage>\n<!--" + strings.Repeat("-", xmlMaxToken) + "", 2, "<coverage>", "expected markup and text runs shorter than 4 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := parseFiles(Cobertura, tt.input, Options{})
			wantParseError(t, err, Cobertura, tt.line, tt.msg)
			var pe *ParseError
			errors.As(err, &pe)
			if pe.Element != tt.elem {
				t.Fatalf("element %q, want %q", pe.Element, tt.elem)
			}
			_ = files
		})
	}
}

// TestParseCoberturaReadsInPieces feeds the report a byte at a time, so that
// every token crosses the scanner's buffer refills.
func TestParseCoberturaReadsInPieces(t *testing.T) {
	data, err := os.ReadFile("testdata/cobertura/gcovr.xml")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := parseFiles(Cobertura, string(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pieces []File
	if err := Parse(&cobTestOneByte{data}, Cobertura, Options{}, func(f File) error { pieces = append(pieces, dense(f)); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, pieces) {
		t.Fatalf("byte by byte %v, whole %v", pieces, whole)
	}
	// A document larger than the buffer, so that it is compacted and line
	// numbers carry over.
	big := cobGenReport(3 * xmlBufSize)
	bad := append(append([]byte(nil), big[:len(big)-len("</coverage>\n")]...), "</packages>\n"...)
	_, err = parseFiles(Cobertura, string(bad), Options{})
	wantParseError(t, err, Cobertura, bytes.Count(bad, []byte{'\n'}), "expected </coverage>, got </packages>")
}

type cobTestOneByte struct{ data []byte }

func (r *cobTestOneByte) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.data[0]
	r.data = r.data[1:]
	return 1, nil
}

// TestCoberturaRealTool: gcovr.xml is gcovr 5.2's report of the C program
// of the LCOV fixture (testdata/cobertura/make.sh); coveragepy.xml is
// coverage.py 6.5's of a Python package (testdata/cobertura/py/make.sh).
// Plumb's covered and missed lines equal the tools' own summaries.
func TestCoberturaRealTool(t *testing.T) {
	summary := func(path, re string) (int, int) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(re).FindSubmatch(data)
		if m == nil {
			t.Fatalf("%s: no match for %s in %q", path, re, data)
		}
		a, _ := strconv.Atoi(string(m[1]))
		b, _ := strconv.Atoi(string(m[2]))
		return a, b
	}

	gcovr := readFixture(t, Cobertura, "testdata/cobertura/gcovr.xml", Options{})
	covered, missed, perFile := lineCounts(gcovr)
	// gcovr --print-summary: "lines: 75.0% (21 out of 28)"
	wantCovered, wantValid := summary("testdata/cobertura/gcovr-summary.txt", `lines: [0-9.]+% \((\d+) out of (\d+)\)`)
	if covered != wantCovered || missed != wantValid-wantCovered {
		t.Fatalf("gcovr.xml: covered %d, missed %d; gcovr says %d out of %d", covered, missed, wantCovered, wantValid)
	}
	if want := map[string][2]int{"calc.c": {11, 5}, "main.c": {10, 2}}; !reflect.DeepEqual(perFile, want) {
		t.Fatalf("gcovr.xml per file %v, want %v", perFile, want)
	}
	// The same program's LCOV report (lcov 1.16) reads line for line the
	// same.
	lcov := readFixture(t, LCOV, "testdata/lcov/coverage.info", Options{StripPrefix: "/tmp/plumb-lcov-fixture"})
	if !reflect.DeepEqual(lcov, gcovr) {
		t.Fatalf("lcov %v\ngcovr %v", lcov, gcovr)
	}

	// coverage.py: an absolute <source> and filenames relative to it.
	py := readFixture(t, Cobertura, "testdata/cobertura/py/coveragepy.xml", Options{})
	covered, missed, perFile = lineCounts(py)
	// coverage report: "TOTAL    16      2    88%" (statements, missed)
	stmts, miss := summary("testdata/cobertura/py/coveragepy-report.txt", `TOTAL\s+(\d+)\s+(\d+)`)
	if covered != stmts-miss || missed != miss {
		t.Fatalf("coveragepy.xml: covered %d, missed %d; coverage report says %d statements, %d missed", covered, missed, stmts, miss)
	}
	if want := map[string][2]int{"src/shapes/__init__.py": {1, 0}, "src/shapes/area.py": {13, 2}}; !reflect.DeepEqual(perFile, want) {
		t.Fatalf("coveragepy.xml per file %v, want %v", perFile, want)
	}
}

// cobRefParse is parseCobertura written plainly over encoding/xml, the
// reference the fuzz target compares xmlScanner's reading with.
func cobRefParse(r io.Reader, opt Options) ([]File, error) {
	br := bufio.NewReader(r)
	if bom, _ := br.Peek(3); string(bom) == "\xEF\xBB\xBF" {
		br.Discard(3)
	}
	dec := xml.NewDecoder(br)
	dec.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "us-ascii", "ascii":
			return in, nil
		case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
			return &cobLatin1{r: bufio.NewReader(in)}, nil
		}
		return nil, fmt.Errorf("encoding %q", label)
	}
	var (
		files            []File
		stack            []string
		sources          []string
		src              []byte
		inClass, rooted  bool
		curPath          string
		cur              []int64
		branches         map[int]plumb.LineBranches
		have, closedRoot bool
	)
	flush := func() {
		if have {
			if cur == nil {
				cur = []int64{} // as every reader emits a file without lines
			}
			var br []plumb.LineBranches
			for _, l := range slices.Sorted(maps.Keys(branches)) {
				br = append(br, branches[l])
			}
			files = append(files, File{Path: curPath, Hits: cur, Branches: br})
		}
		cur, have, curPath, branches = nil, false, "", nil
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				if rooted || t.Name.Local != "coverage" {
					return nil, errors.New("root")
				}
				rooted = true
			}
			stack = append(stack, t.Name.Local)
			src = src[:0]
			switch t.Name.Local {
			case "class":
				var fn string
				ok := false
				for _, a := range t.Attr {
					if a.Name.Local == "filename" {
						fn, ok = a.Value, true
					}
				}
				if !ok || strings.TrimSpace(fn) == "" || !utf8.ValidString(fn) {
					return nil, errors.New("filename")
				}
				p, ok := MapPath(cobResolve(strings.TrimSpace(fn), sources, opt), opt)
				if !ok {
					return nil, errors.New("path")
				}
				if p != curPath || !have {
					flush()
					curPath, have = p, true
				}
				inClass = true
			case "line":
				if !inClass {
					break
				}
				var num, hits, isBranch, cond string
				var hn, hh, hc bool
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "number":
						num, hn = a.Value, true
					case "hits":
						hits, hh = a.Value, true
					case "branch":
						isBranch = a.Value
					case "condition-coverage":
						cond, hc = a.Value, true
					}
				}
				n, ok := goCoverUint([]byte(strings.TrimSpace(num)), cobMaxLine)
				if !hn || !ok || n < 1 {
					return nil, errors.New("number")
				}
				c, ok := goCoverUint([]byte(strings.TrimSpace(hits)), math.MaxInt64)
				if !hh || !ok {
					return nil, errors.New("hits")
				}
				for len(cur) < int(n) {
					cur = append(cur, -1)
				}
				cur[n-1] = max(cur[n-1], c)
				if hc && strings.TrimSpace(isBranch) == "true" {
					bc, bt, ok := cobCondition([]byte(cond))
					if !ok {
						return nil, errors.New("condition-coverage")
					}
					if bt > 0 {
						if branches == nil {
							branches = map[int]plumb.LineBranches{}
						}
						old := branches[int(n)]
						t := min(max(old.Total, bt), plumb.MaxBranches)
						branches[int(n)] = plumb.LineBranches{Line: int(n), Total: t, Covered: min(max(old.Covered, bc), t)}
					}
				}
			}
		case xml.EndElement:
			if t.Name.Local == "source" && stack[len(stack)-1] == "source" {
				s := bytes.TrimSpace(src)
				if !utf8.Valid(s) {
					return nil, errors.New("source")
				}
				if len(s) > 0 {
					sources = append(sources, string(s))
				}
			}
			stack = stack[:len(stack)-1]
			src = src[:0]
			if t.Name.Local == "class" {
				inClass = false
			}
			if len(stack) == 0 {
				closedRoot = true
			}
		case xml.CharData:
			if len(stack) == 0 && len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
				return nil, errors.New("text outside the root")
			}
			if len(stack) > 0 && stack[len(stack)-1] == "source" {
				src = append(src, t...)
			}
		case xml.Directive:
			if rooted || !bytes.HasPrefix(t, []byte("DOCTYPE")) {
				return nil, errors.New("directive")
			}
		}
	}
	_ = closedRoot
	if !rooted {
		return nil, errors.New("no root")
	}
	flush()
	return files, nil
}

// cobRefLenient lists encoding/xml's errors about rules xmlScanner does not
// check (see its comment): a document failing only on these may be read.
var cobRefLenient = regexp.MustCompile(`illegal character code|invalid UTF-8|unsupported version|invalid XML name|encoding "`)

// cobTestBigLine finds a line number of 6 digits or more (see FuzzLCOV).
var cobTestBigLine = regexp.MustCompile(`number\s*=\s*['"]\s*[0-9]{6}`)

func FuzzCobertura(f *testing.F) {
	for _, p := range []string{"testdata/cobertura/gcovr.xml", "testdata/cobertura/py/coveragepy.xml"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data))
		}
	}
	f.Add(cobTestDoc([]string{"/ci", "src"}, cobTestClass("/ci/a.c", [2]int{1, 1})+cobTestClass("b.c", [2]int{3, 0}, [2]int{3, 2})))
	f.Add("<?xml version='1.0' encoding='latin1'?><!DOCTYPE c [<!ENTITY a 'b'>]><coverage><!--x--><sources><source><![CDATA[s]]>&amp;</source></sources><class filename='x&#x41;'><lines><line number='2' hits='0'></line></lines></class></coverage>")
	f.Fuzz(func(t *testing.T, input string) {
		if cobTestBigLine.MatchString(input) {
			t.Skip("line numbers above 99999 allocate up to 32 MiB per file and slow the fuzzer ten-fold; the unit tests cover the limits")
		}
		files, err := parseFiles(Cobertura, input, Options{})
		checkFiles(t, files)
		checkParseError(t, err)
		ref, refErr := cobRefParse(strings.NewReader(input), Options{})
		switch {
		case err == nil && refErr == nil:
			if !reflect.DeepEqual(files, ref) {
				t.Fatalf("xmlScanner read %v, encoding/xml %v", files, ref)
			}
		case err != nil && refErr == nil && !cobSurrogateRef(input):
			t.Fatalf("xmlScanner: %v; encoding/xml read it: %v", err, ref)
		case err == nil && refErr != nil && !cobRefLenient.MatchString(refErr.Error()):
			t.Fatalf("xmlScanner read %v; encoding/xml: %v", files, refErr)
		}
	})
}

var cobCharRef = regexp.MustCompile(`&#(x[0-9a-fA-F]+|[0-9]+);`)

// cobSurrogateRef reports whether input holds a character reference to a
// UTF-16 surrogate (U+D800 to U+DFFF), which is no XML character: the
// scanner refuses it, while encoding/xml reads it as U+FFFD.
func cobSurrogateRef(input string) bool {
	for _, m := range cobCharRef.FindAllStringSubmatch(input, -1) {
		n, err := strconv.ParseInt(strings.TrimPrefix(m[1], "x"), map[bool]int{true: 16, false: 10}[strings.HasPrefix(m[1], "x")], 32)
		if err == nil && n >= 0xD800 && n <= 0xDFFF {
			return true
		}
	}
	return false
}

// A surrogate reference is refused with a message naming the reference
// rule (encoding/xml, the fuzz target's reference, would read U+FFFD).
func TestCoberturaSurrogateReference(t *testing.T) {
	for _, ref := range []string{"&#xD800;", "&#55296;", "&#xdfff;"} {
		doc := `<coverage><class filename="a` + ref + `.c"><lines><line number="1" hits="1"/></lines></class></coverage>`
		if !cobSurrogateRef(doc) {
			t.Fatalf("%s not recognised as a surrogate reference", ref)
		}
		err := Parse(strings.NewReader(doc), Cobertura, Options{}, func(File) error { return nil })
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "reference") {
			t.Errorf("%s: err %v, want a ParseError about the reference", ref, err)
		}
	}
	if cobSurrogateRef(`<a b="&#xD7FF;&#57344;"/>`) {
		t.Error("U+D7FF and U+E000 taken for surrogates")
	}
}
