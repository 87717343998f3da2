package coverage

// JaCoCo XML (report.dtd 1.1), as written by the jacoco CLI's `report --xml`,
// jacoco-maven-plugin's report goal, Gradle's jacocoTestReport and the Ant
// report task:
//
//	<!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd">
//	<report name=…>
//	  <sessioninfo …/>
//	  <group name=…>                      (optional, nested: multi-module)
//	    <package name="com/acme/shop">
//	      <class …><method …><counter …/></method><counter …/></class>
//	      <sourcefile name="Cart.java">
//	        <line nr="12" mi="0" ci="3" mb="0" cb="2"/>
//	        <counter type="LINE" missed=… covered=…/>
//	      </sourcefile>
//	      <counter …/>
//	    </package>
//	  </group>
//	  <counter type="LINE" missed=… covered=…/>
//	</report>
//
// The reader streams the document token by token (encoding/xml), keeping only
// the current source file's hits. The DOCTYPE is skipped, never fetched.
//
// Hits: only <sourcefile>'s <line> elements count. A line is covered when ci
// (covered instructions) > 0, with hits = ci; missed (0) when ci is 0 and mi
// (missed instructions) > 0; a line with neither, or absent, is not coverable
// (-1). This is JaCoCo's own rule for its LINE counter, so Plumb's covered
// and missed lines equal the report's <counter type="LINE">. A line given
// twice in one source file keeps the larger value. mb and cb (branches),
// <class>, <method> and <counter> elements are ignored.
//
// Paths: JaCoCo names a file by its package folder and file name only
// ("com/acme/shop" + "/" + "Cart.java"; the default package is ""); the source
// root it lives under (src/main/java, module/src/main/kotlin, …) is not in the
// report, so users give it as Options.AddPrefix. <group> names (Maven
// modules) are not part of the path. MapPath then applies StripPrefix and
// AddPrefix.
//
// Errors: malformed XML, a root element other than <report>, a <package> or
// <sourcefile> without a name, elements out of place (<sourcefile> outside a
// <package>, <line> outside a <sourcefile>), a missing or non-integer nr or a
// number outside 1…lcovMaxLine, and a mi or ci that is not a whole number are
// ParseErrors naming the report line, the element and its column (JaCoCo
// writes the whole report on one line).

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

func init() { parsers[JaCoCo] = parseJaCoCo }

func parseJaCoCo(r io.Reader, opt Options, emit Emit) error {
	src := &jacocoSource{r: jacocoSkipBOM(r)}
	dec := xml.NewDecoder(src)
	var (
		depth     int
		rooted    bool
		inPackage bool
		pkg       string // name of the open <package>
		pkgDepth  int
		inFile    bool
		filePath  string // report path of the open <sourcefile>
		mapped    string // its repository path
		hits      []int64
		line, col int // where the current token starts
	)
	fail := func(elem, msg string, args ...any) error {
		return &ParseError{Format: JaCoCo, Line: line, Element: fmt.Sprintf("<%s> at column %d", elem, col), Msg: fmt.Sprintf(msg, args...)}
	}
	for {
		line, col = dec.InputPos()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return jacocoXMLError(JaCoCo, dec, src, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			depth++
			if depth == 1 {
				if rooted {
					return fail(name, "expected nothing after the </report> that ends the report")
				}
				if name != "report" {
					return fail(name, "expected the root element <report> of a JaCoCo XML report")
				}
				rooted = true
				continue
			}
			switch name {
			case "package":
				if inPackage {
					return fail(name, "expected </package> before another <package> (packages do not nest)")
				}
				n, ok := jacocoAttr(t.Attr, "name")
				if !ok {
					return fail(name, `expected a name="<package folder>" attribute, e.g. name="com/acme/shop"`)
				}
				inPackage, pkgDepth = true, depth
				pkg = strings.Trim(strings.TrimSpace(strings.ReplaceAll(n, "\\", "/")), "/")
			case "sourcefile":
				if !inPackage {
					return fail(name, "expected <sourcefile> inside a <package>")
				}
				if inFile {
					return fail(name, "expected </sourcefile> before another <sourcefile>")
				}
				n, _ := jacocoAttr(t.Attr, "name")
				n = strings.TrimSpace(n)
				if n == "" {
					return fail(name, `expected a name="<file name>" attribute, e.g. name="Cart.java"`)
				}
				filePath = n
				if pkg != "" {
					filePath = pkg + "/" + n
				}
				p, ok := MapPath(filePath, opt)
				if !ok {
					return fail(name, "expected a source file inside the repository, got %q (package %q)", filePath, pkg)
				}
				inFile, mapped, hits = true, p, nil
			case "line":
				if !inFile {
					return fail(name, "expected <line> inside a <sourcefile>")
				}
				nr, h, msg := jacocoLine(t.Attr)
				if msg != "" {
					return fail(name, "%s in %s", msg, filePath)
				}
				if nr > len(hits) {
					hits = lcovGrow(hits, nr)
				}
				hits[nr-1] = max(hits[nr-1], h)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "sourcefile":
				if inFile {
					f := File{Path: mapped, Hits: hits}
					inFile, hits = false, nil
					if f.Hits == nil {
						f.Hits = []int64{}
					}
					if err := emit(f); err != nil {
						return err
					}
				}
			case "package":
				if inPackage && depth == pkgDepth {
					inPackage = false
				}
			}
			depth--
		}
	}
	if !rooted {
		return &ParseError{Format: JaCoCo, Line: line, Msg: "expected the root element <report> of a JaCoCo XML report"}
	}
	return nil
}

// jacocoLine reads a <line>'s nr and its hits (see the file comment).
func jacocoLine(attrs []xml.Attr) (nr int, hits int64, msg string) {
	var nrText string
	var haveNr bool
	var mi, ci int64
	for _, a := range attrs {
		switch a.Name.Local {
		case "nr":
			nrText, haveNr = a.Value, true
		case "mi", "ci":
			v, err := strconv.ParseUint(strings.TrimSpace(a.Value), 10, 63)
			if err != nil {
				return 0, 0, fmt.Sprintf(`expected %s="<instructions>" with a whole number, got %q`, a.Name.Local, a.Value)
			}
			if a.Name.Local == "mi" {
				mi = int64(v)
			} else {
				ci = int64(v)
			}
		}
	}
	if !haveNr {
		return 0, 0, `expected an nr="<line number>" attribute`
	}
	n, err := strconv.ParseUint(strings.TrimSpace(nrText), 10, 63)
	if err != nil || n < 1 || n > lcovMaxLine {
		return 0, 0, fmt.Sprintf(`expected nr="<line number>" with an integer from 1 to %d, got %q`, lcovMaxLine, nrText)
	}
	switch {
	case ci > 0:
		hits = ci
	case mi > 0:
		hits = 0
	default:
		hits = -1
	}
	return int(n), hits, ""
}

// jacocoAttr is the value of the attribute with the given local name; also
// used by the Clover reader.
func jacocoAttr(attrs []xml.Attr, name string) (string, bool) {
	for _, a := range attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// jacocoSkipBOM buffers r and drops a UTF-8 byte order mark (Windows tools
// write one); also used by the Clover, SimpleCov and Istanbul readers.
func jacocoSkipBOM(r io.Reader) *bufio.Reader {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, err := br.Peek(3); err == nil && string(b) == "\xEF\xBB\xBF" {
		br.Discard(3)
	}
	return br
}

// jacocoSource remembers the error of the reader under an xml.Decoder, so
// that a failing upload is not blamed on the report; also used by the Clover
// reader.
type jacocoSource struct {
	r   io.Reader
	err error
}

func (s *jacocoSource) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}

// jacocoXMLError turns an encoding/xml error into a ParseError naming the
// report line and column; also used by the Clover reader. Errors of the
// underlying reader are returned as they are.
func jacocoXMLError(f Format, dec *xml.Decoder, src *jacocoSource, err error) error {
	if src.err != nil && errors.Is(err, src.err) {
		return err
	}
	line, col := dec.InputPos()
	pe := &ParseError{Format: f, Line: line, Element: fmt.Sprintf("column %d", col)}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		pe.Msg = "expected well-formed XML: " + se.Msg
		if se.Line != line {
			pe.Line, pe.Element = se.Line, ""
		}
	} else {
		pe.Msg = "expected well-formed UTF-8 XML: " + strings.TrimPrefix(err.Error(), "xml: ")
	}
	return pe
}
