package coverage

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
)

// xmlStdRef reads a document as the JaCoCo and Clover readers did when they
// were written over encoding/xml: Decoder.Token to the end, a BOM dropped.
// It returns the elements (start "<local a=v …>", end "</local>") and the
// error, worded as those readers worded it.
func xmlStdRef(data []byte) (events []string, err error) {
	br := bufio.NewReader(bytes.NewReader(data))
	if bom, _ := br.Peek(3); string(bom) == "\xEF\xBB\xBF" {
		br.Discard(3)
	}
	dec := xml.NewDecoder(br)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			line, col := dec.InputPos()
			pe := &ParseError{Format: JaCoCo, Line: line, Element: fmt.Sprintf("column %d", col)}
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				pe.Msg = "expected well-formed XML: " + se.Msg
				if se.Line != line {
					pe.Line, pe.Element = se.Line, ""
				}
			} else {
				pe.Msg = "expected well-formed UTF-8 XML: " + strings.TrimPrefix(err.Error(), "xml: ")
			}
			return events, pe
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := "<" + t.Name.Local
			for _, a := range t.Attr {
				e += fmt.Sprintf(" %s=%q", a.Name.Local, a.Value)
			}
			events = append(events, e+">")
		case xml.EndElement:
			events = append(events, "</"+t.Name.Local+">")
		}
	}
}

// xmlStdScan reads a document with xmlScanner in xmlModeStdlib, giving what
// xmlStdRef gives.
func xmlStdScan(r io.Reader) (events []string, err error) {
	sc, err := newXMLScanner(r, JaCoCo, xmlModeStdlib)
	if err != nil {
		return nil, err
	}
	for {
		kind, err := sc.next()
		if err != nil {
			return events, err
		}
		switch kind {
		case xmlEOF:
			return events, nil
		case xmlStart:
			e := "<" + string(xmlLocal(sc.name))
			for i := range sc.attrs {
				e += fmt.Sprintf(" %s=%q", xmlLocal(sc.attrs[i].name), sc.attrs[i].decoded())
			}
			events = append(events, e+">")
		case xmlEnd:
			events = append(events, "</"+string(xmlLocal(sc.name))+">")
		}
	}
}

func xmlStdCompare(t *testing.T, data []byte) {
	t.Helper()
	refEvents, refErr := xmlStdRef(data)
	for _, oneByte := range []bool{false, true} {
		var r io.Reader = bytes.NewReader(data)
		if oneByte {
			r = &cobTestOneByte{data}
		}
		events, err := xmlStdScan(r)
		if fmt.Sprint(err) != fmt.Sprint(refErr) {
			t.Fatalf("%q (byte by byte: %v):\nerror %v\n want %v", data, oneByte, err, refErr)
		}
		if !reflect.DeepEqual(events, refEvents) {
			t.Fatalf("%q (byte by byte: %v):\nelements %q\n    want %q", data, oneByte, events, refEvents)
		}
	}
}

// TestXMLStdlibMatchesEncodingXML: in xmlModeStdlib the scanner accepts,
// reads and rejects documents as encoding/xml does, with its messages at
// its line and column, including the tokens it hands to encoding/xml.
func TestXMLStdlibMatchesEncodingXML(t *testing.T) {
	for _, in := range []string{
		`<report><package name="a"><sourcefile name="A.java"><line nr="1" mi="0" ci="2"/></sourcefile></package></report>`,
		"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<!DOCTYPE r [<!ENTITY a \"]>\"> <!-- ' --> ]><r x:a='1' b = \"&lt;&#x41;&#13;\r\n\"/>",
		"text before<r/>text between<r/><![CDATA[after]]>",
		"<r><!ELEMENT x><!DOCTYPE y></r>",
		"<r a=\"&#xD800;\" b=\"caf\xc3\xa9\" c=\"\xef\xbf\xbd\"><\xc3\xa9l\xc3\xa9ment/></r>",
		"<r>&amp;&#65;]]&gt;<![CDATA[]]]]></r>",
		// Malformed: one of each of encoding/xml's errors.
		"", "<", "<r", "<r a", "<r a=", "<r a=\"", "<r a=\"\xff", "<r a=\"&am", "<r>&#12", "<r><![CDATA[x", "<r><!--", "<r><!DOCTYPE", "<r><?pi",
		"<r>\n</s>", "</r>", "<a:r></b:r>", "<a:r></r>", "<r></a:r>",
		"<r>&bogus;</r>", "<r>&#0;</r>", "<r>&#x110000;</r>", "<r>&#12a;</r>", "<r>& </r>", "<r>&;</r>", "<r>&\n</r>", "<r>&amp\n</r>",
		"<r>]]></r>", "<r>\x01</r>", "<r>\xff</r>", "<r>\xef\xbf\xbe</r>", "<r><![CDATA[\x01]]></r>",
		"<r a=\"<\"/>", "<r a=\"&#1;\"/>", "<r a=\"\x02\"/>", "<r a=b/>", "<r a/>", "<r a:b:c=\"1\"/>", "<r/ >", "<r 1=\"\"/>",
		"< r/>", "<\n", "<1r/>", "<a:b:c/>", "<\xc3\x97/>", "</\n", "</r\nx>", "<r></r x>",
		"<?xml version=\"1.1\"?><r/>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>", "<r/><?xml encoding=\"latin1\"?>",
		"<??>", "<?\n?>", "<?1?>",
		"<r><!-- a -- b --></r>", "<r><!-x></r>", "<r><![CDAT[x]]></r>", "<r><!></r>x>",
	} {
		xmlStdCompare(t, []byte(in))
	}
}

func FuzzXMLStdlib(f *testing.F) {
	for _, p := range []string{"testdata/jacoco/jacoco.xml", "testdata/clover/nyc/clover.xml", "testdata/clover/phpunit/clover.xml"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"b\">]><r a='&amp;&#x41;'><x:y z=\"1\"/>t&lt;<![CDATA[c]]><!--c--><?p d?></r>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		xmlStdCompare(t, data)
	})
}

// TestJaCoCoCloverReadInPieces: the readers give the same files a byte at a
// time, so that every token crosses the scanner's buffer refills; and in a
// report larger than the buffer, an error's line and column count from the
// report's start.
func TestJaCoCoCloverReadInPieces(t *testing.T) {
	for _, tc := range []struct {
		f    Format
		path string
		opt  Options
	}{
		{JaCoCo, "testdata/jacoco/jacoco.xml", Options{AddPrefix: "src"}},
		{Clover, "testdata/clover/nyc/clover.xml", Options{StripPrefix: istanbulFixtureRoot}},
		{Clover, "testdata/clover/phpunit/clover.xml", Options{StripPrefix: "/tmp/plumb-fixture/php"}},
	} {
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		var whole, pieces []File
		if err := Parse(bytes.NewReader(data), tc.f, tc.opt, func(f File) error { whole = append(whole, f); return nil }); err != nil {
			t.Fatal(err)
		}
		if err := Parse(&cobTestOneByte{data}, tc.f, tc.opt, func(f File) error { pieces = append(pieces, f); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(whole) == 0 || !reflect.DeepEqual(whole, pieces) {
			t.Fatalf("%s: byte by byte %v, whole %v", tc.path, pieces, whole)
		}
	}

	// JaCoCo writes the whole report on one line: the column runs on
	// across buffer refills.
	big := jacocoGenReport(3 * xmlBufSize)
	bad := append(big[:len(big)-len("</report>"):len(big)-len("</report>")], "</package>"...)
	err := Parse(bytes.NewReader(bad), JaCoCo, Options{}, func(File) error { return nil })
	want := fmt.Sprintf("jacoco report at line 1 (column %d): expected well-formed XML: element <report> closed by </package>", len(bad)+1)
	if err == nil || err.Error() != want {
		t.Errorf("error %v\n want %s", err, want)
	}
	// A parser's own error names the element's column.
	bad = append(big[:len(big)-len("</report>"):len(big)-len("</report>")], `<package name="x"><sourcefile name="Y.java"><line nr="0"/>`...)
	err = Parse(bytes.NewReader(bad), JaCoCo, Options{}, func(File) error { return nil })
	want = fmt.Sprintf(`jacoco report at line 1 (<line> at column %d): expected nr="<line number>" with an integer from 1 to 4194304, got "0" in x/Y.java`, len(bad)-len(`<line nr="0"/>`)+1)
	if err == nil || err.Error() != want {
		t.Errorf("error %v\n want %s", err, want)
	}

	big = cloverGenReport(3 * xmlBufSize)
	bad = append(big[:len(big)-len("</coverage>\n"):len(big)-len("</coverage>\n")], "  </project>\n"...)
	err = Parse(bytes.NewReader(bad), Clover, Options{}, func(File) error { return nil })
	want = fmt.Sprintf("clover report at line %d (column 13): expected well-formed XML: element <coverage> closed by </project>", bytes.Count(bad, []byte{'\n'}))
	if err == nil || err.Error() != want {
		t.Errorf("error %v\n want %s", err, want)
	}
}

// TestJaCoCoCloverXMLDetails: what encoding/xml accepts the readers accept,
// with the same values: references in attributes, markup and text outside
// the root element, directives anywhere; what it rejects they reject with
// its message.
func TestJaCoCoCloverXMLDetails(t *testing.T) {
	runParseCases(t, JaCoCo, []parseCase{
		{
			name: "references and carriage returns in attribute values, an internal DTD subset, text and comments outside the root",
			in: "<?xml version=\"1.0\"?>\n<!DOCTYPE report [<!ENTITY x \"y\"> <!-- a quote: ' --> ]>\nbefore\n" +
				"<report><!ELEMENT ignored><package name=\"a&amp;b/&#x63;\"><sourcefile name=\"D&#46;java\">" +
				"<line nr=\"&#50;\" mi=\"0\" ci=\"3\"/><line nr=\"1\" ci=\"&#13;&#10;4\r\n\"/></sourcefile></package></report>\n<!-- after -->after",
			want: []File{{Path: "a&b/c/D.java", Hits: []int64{4, 3}}},
		},
		{
			name: "a name outside ASCII",
			in:   "<report><package name=\"p\"><sourcefile name=\"caf\xc3\xa9.java\"><\xc3\xa9l\xc3\xa9ment/><line nr=\"1\" ci=\"1\"/></sourcefile></package></report>",
			want: []File{{Path: "p/café.java", Hits: []int64{1}}},
		},
		{name: "an entity the DTD declares", in: "<!DOCTYPE report [<!ENTITY x \"y\">]><report>&x;</report>", err: `jacoco report at line 1 (column 47): expected well-formed XML: invalid character entity &x;`},
		{name: "ISO-8859-1", in: `<?xml version="1.0" encoding="ISO-8859-1"?><report/>`, err: `jacoco report at line 1 (column 44): expected well-formed UTF-8 XML: encoding "ISO-8859-1" declared but Decoder.CharsetReader is nil`},
		{name: "a character reference to no character", in: `<report><package name="&#0;"/></report>`, err: `jacoco report at line 1 (column 29): expected well-formed XML: illegal character code U+0000`},
		{name: "a name encoding/xml rejects", in: "<report>\n<package\xc3\x97/></report>", err: `jacoco report at line 2 (column 11): expected well-formed XML: invalid XML name: package×`},
		{name: "a newline where a name is due", in: "<report>\n<\n</report>", err: `jacoco report at line 2 (column 0): expected well-formed XML: expected element name after <`},
		{name: "a tag longer than 4 MiB", in: `<report name="` + strings.Repeat("x", xmlMaxToken) + `"/>`, err: `jacoco report at line 1 (column 1): expected markup and text runs shorter than 4 MiB`},
	})
	runParseCases(t, Clover, []parseCase{
		{
			name: "CDATA, a prefix and an unknown element around the lines",
			in:   "<c:coverage xmlns:c=\"urn:c\"><c:project><file path=\"/a&#47;b.js\"><![CDATA[<line num=\"9\"/>]]><x><line num=\"2\" count=\"&#x31;\" type=\"stmt\"/></x></file></c:project></c:coverage>",
			want: []File{{Path: "a/b.js", Hits: []int64{-1, 1}}},
		},
		{name: "]]> in text", in: "<coverage>\n  ]]></coverage>", err: `clover report at line 2 (column 6): expected well-formed XML: unescaped ]]> not in CDATA section`},
		{name: "a prefix that differs", in: `<coverage><a:project></b:project></coverage>`, err: `clover report at line 1 (column 34): expected well-formed XML: element <project> in space a closed by </project> in space b`},
		{name: "an end tag outside the root", in: "<coverage/>\n</coverage>", err: `clover report at line 2 (column 12): expected well-formed XML: unexpected end element </coverage>`},
	})
}
