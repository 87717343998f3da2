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
// twice in one source file keeps the larger value. <class>, <method> and
// <counter> elements are ignored.
//
// Branches: a line's mb (missed branches) and cb (covered branches) give
// mb+cb branches, cb of them covered (JaCoCo's BRANCH counter, per line); a
// line given twice keeps the larger figures.
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
// number outside 1…maxLine, and a mi, ci, mb or cb that is not a whole
// number (mb and cb below 2^31) are
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

	"github.com/plumbhq/plumb"
)

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
			nr, h, mb, cb, msg := jacocoLine(sc.attrs)
			if msg != "" {
				return sc.failElem(name, "%s in %s", msg, filePath)
			}
			hits.add(nr, h)
			hits.branch(nr, int(min(mb+cb, plumb.MaxBranches)), int(min(cb, plumb.MaxBranches)))
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

// jacocoLine reads a <line>'s nr, its hits and its missed and covered
// branches (see the file comment).
func jacocoLine(attrs []xmlAttr) (nr int, hits, mb, cb int64, msg string) {
	var nrText []byte
	var haveNr bool
	var mi, ci int64
	for i := range attrs {
		a := &attrs[i]
		switch local := xmlLocal(a.name); string(local) {
		case "nr":
			nrText, haveNr = a.decoded(), true
		case "mi", "ci", "mb", "cb":
			v := a.decoded()
			what, limit := "instructions", int64(math.MaxInt64)
			if local[1] == 'b' {
				what, limit = "branches", math.MaxInt32
			}
			n, ok := goCoverUint(bytes.TrimSpace(v), limit)
			if !ok {
				return 0, 0, 0, 0, fmt.Sprintf(`expected %s="<%s>" with a whole number, got %q`, local, what, v)
			}
			switch string(local) {
			case "mi":
				mi = n
			case "ci":
				ci = n
			case "mb":
				mb = n
			default:
				cb = n
			}
		}
	}
	if !haveNr {
		return 0, 0, 0, 0, `expected an nr="<line number>" attribute`
	}
	n, ok := goCoverUint(bytes.TrimSpace(nrText), maxLine)
	if !ok || n < 1 {
		return 0, 0, 0, 0, fmt.Sprintf(`expected nr="<line number>" with an integer from 1 to %d, got %q`, maxLine, nrText)
	}
	switch {
	case ci > 0:
		hits = ci
	case mi > 0:
		hits = 0
	default:
		hits = -1
	}
	return int(n), hits, mb, cb, ""
}
