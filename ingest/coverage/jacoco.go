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
// The reader streams the document through xmlScanner (xmlscan.go) with
// encoding/xml's rules (xmlModeStdlib), keeping only the current source
// file's hits. The DOCTYPE is skipped, never fetched.
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
// number outside 1…maxLine, and a mi or ci that is not a whole number are
// ParseErrors naming the report line, the element and its column (JaCoCo
// writes the whole report on one line). Malformed XML is reported with
// encoding/xml's message; a tag, text run or comment longer than 4 MiB is an
// error too.

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
)

func init() { parsers[JaCoCo] = parseJaCoCo }

func parseJaCoCo(r io.Reader, opt Options, emit Emit) error {
	var (
		inPackage bool
		pkg       string // name of the open <package>
		pkgDepth  int
		inFile    bool
		filePath  string // report path of the open <sourcefile>
		mapped    string // its repository path
		hits      = lineMap{combine: maxHits}
	)
	start := func(sc *xmlScanner, name []byte, depth int) error {
		switch string(name) {
		case "package":
			if inPackage {
				return sc.failElem(name, "expected </package> before another <package> (packages do not nest)")
			}
			n, ok := sc.attrString("name")
			if !ok {
				return sc.failElem(name, `expected a name="<package folder>" attribute, e.g. name="com/acme/shop"`)
			}
			inPackage, pkgDepth = true, depth
			pkg = strings.Trim(strings.TrimSpace(strings.ReplaceAll(n, "\\", "/")), "/")
		case "sourcefile":
			if !inPackage {
				return sc.failElem(name, "expected <sourcefile> inside a <package>")
			}
			if inFile {
				return sc.failElem(name, "expected </sourcefile> before another <sourcefile>")
			}
			n, _ := sc.attrString("name")
			n = strings.TrimSpace(n)
			if n == "" {
				return sc.failElem(name, `expected a name="<file name>" attribute, e.g. name="Cart.java"`)
			}
			filePath = n
			if pkg != "" {
				filePath = pkg + "/" + n
			}
			p, ok := MapPath(filePath, opt)
			if !ok {
				return sc.failElem(name, "expected a source file inside the repository, got %q (package %q)", filePath, pkg)
			}
			inFile, mapped = true, p
		case "line":
			if !inFile {
				return sc.failElem(name, "expected <line> inside a <sourcefile>")
			}
			nr, h, msg := jacocoLine(sc.attrs)
			if msg != "" {
				return sc.failElem(name, "%s in %s", msg, filePath)
			}
			hits.add(nr, h)
		}
		return nil
	}
	end := func(_ *xmlScanner, name []byte, depth int) error {
		switch string(name) {
		case "sourcefile":
			if inFile {
				inFile = false
				return emit(hits.file(mapped))
			}
		case "package":
			if inPackage && depth == pkgDepth {
				inPackage = false
			}
		}
		return nil
	}
	return readXMLReport(r, &xmlReport{format: JaCoCo, mode: xmlModeStdlib, root: "report", title: "JaCoCo XML report", start: start, end: end})
}

// jacocoLine reads a <line>'s nr and its hits (see the file comment).
func jacocoLine(attrs []xmlAttr) (nr int, hits int64, msg string) {
	var nrText []byte
	var haveNr bool
	var mi, ci int64
	for i := range attrs {
		a := &attrs[i]
		switch local := xmlLocal(a.name); string(local) {
		case "nr":
			nrText, haveNr = a.decoded(), true
		case "mi", "ci":
			v := a.decoded()
			n, ok := goCoverUint(bytes.TrimSpace(v), math.MaxInt64)
			if !ok {
				return 0, 0, fmt.Sprintf(`expected %s="<instructions>" with a whole number, got %q`, local, v)
			}
			if string(local) == "mi" {
				mi = n
			} else {
				ci = n
			}
		}
	}
	if !haveNr {
		return 0, 0, `expected an nr="<line number>" attribute`
	}
	n, ok := goCoverUint(bytes.TrimSpace(nrText), maxLine)
	if !ok || n < 1 {
		return 0, 0, fmt.Sprintf(`expected nr="<line number>" with an integer from 1 to %d, got %q`, maxLine, nrText)
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
