package coverage

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/plumbhq/plumb/internal/jsonstream"
)

// DetectBytes is how much of the start of a report Detect needs: give it
// this many bytes (fewer when the report is shorter).
const DetectBytes = 8 << 10

// Detect names the format of a report from its first bytes (see DetectBytes;
// a shorter head that ends mid-token is fine). It skips a UTF-8 byte order
// mark and leading whitespace, then:
//
//   - text: the first line that is not empty or a # comment is
//     "mode: set|count|atomic" (Go coverprofile) or an LCOV record
//     (TN:, SF:, …);
//   - XML (after the declaration, comments and DOCTYPE): root <coverage> with
//     a clover= attribute, or generated= without Cobertura's line-rate, or a
//     first child <project> is Clover; root <coverage> with line-rate=,
//     lines-valid= or branch-rate=, or a first child <sources> or
//     <packages>, is Cobertura; root <report> is JaCoCo; a DOCTYPE naming
//     cobertura, jacoco or clover decides when the root does not;
//   - JSON: an object whose values are objects with Istanbul's keys
//     (statementMap, fnMap, branchMap, s, f, b, path) is Istanbul
//     coverage-final.json; one whose values have a "coverage" key is a
//     SimpleCov .resultset.json; a top-level "meta" with "simplecov_version",
//     "coverage" mapping paths to {"lines": …} or arrays, or "files" listing
//     {"filename", "coverage"} objects is SimpleCov's JSON formatters'
//     output;
//   - JSON Lines whose first object has a string "path" and an array "hits"
//     is the qlty format.
//
// Anything else is an error saying what was seen and listing the accepted
// formats.
func Detect(head []byte) (Format, error) {
	if bytes.HasPrefix(head, []byte("\xFE\xFF")) || bytes.HasPrefix(head, []byte("\xFF\xFE")) {
		return "", detectFail("it is UTF-16; expected UTF-8")
	}
	head = bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF"))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 {
		return "", detectFail("it is empty")
	}
	switch head[0] {
	case '<':
		return detectXML(head)
	case '{':
		if detectQlty(head) {
			return Qlty, nil
		}
		return detectJSON(head)
	case '[':
		return "", detectFail("it is a JSON array; expected a JSON object (SimpleCov, Istanbul)")
	}
	return detectText(head)
}

func detectFail(why string) error {
	return fmt.Errorf("cannot tell the coverage report's format: %s; accepted formats: %s (name the format explicitly if the report is one of them)", why, formatList())
}

// detectLCOVKeys are the records an LCOV tracefile can start with.
var detectLCOVKeys = []string{"TN:", "SF:", "VER:", "FN:", "FNDA:", "FNF:", "FNH:", "DA:", "BRDA:", "BRF:", "BRH:", "LF:", "LH:"}

func detectText(head []byte) (Format, error) {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if m, ok := bytes.CutPrefix(line, []byte("mode:")); ok {
			switch string(bytes.TrimSpace(m)) {
			case "set", "count", "atomic":
				return GoCover, nil
			}
			return "", detectFail(fmt.Sprintf("it starts with %q; a Go coverprofile starts with mode: set, count or atomic", lcovQuote(line)))
		}
		for _, k := range detectLCOVKeys {
			if bytes.HasPrefix(line, []byte(k)) {
				return LCOV, nil
			}
		}
		return "", detectFail(fmt.Sprintf("it starts with %q, which is none of an LCOV record (TN:, SF:), a Go coverprofile's mode: line, XML or JSON", lcovQuote(line)))
	}
	return "", detectFail("it has only comments")
}

func detectXML(head []byte) (Format, error) {
	dec := xml.NewDecoder(bytes.NewReader(head))
	dec.Strict = false
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var (
		doctype Format
		root    string
		attrs   = map[string]bool{}
	)
	decide := func(child string) (Format, error) {
		switch root {
		case "":
			if doctype != "" {
				return doctype, nil
			}
			return "", detectFail("it is XML, but its root element is not within the first bytes")
		case "report":
			return JaCoCo, nil
		case "coverage":
			switch {
			case attrs["clover"]:
				return Clover, nil
			case attrs["line-rate"] || attrs["lines-valid"] || attrs["branch-rate"] || attrs["lines-covered"]:
				return Cobertura, nil
			case attrs["generated"]:
				return Clover, nil
			case child == "project":
				return Clover, nil
			case child == "sources" || child == "packages":
				return Cobertura, nil
			case doctype == Cobertura || doctype == Clover:
				return doctype, nil
			}
			return "", detectFail("it is XML with root <coverage>, but neither Cobertura's (line-rate=, <sources>, <packages>) nor Clover's (clover=, generated=, <project>) marks")
		}
		if doctype != "" {
			return doctype, nil
		}
		return "", detectFail(fmt.Sprintf("it is XML with root <%s>; expected <coverage> (Cobertura, Clover) or <report> (JaCoCo)", root))
	}
	for {
		tok, err := dec.RawToken()
		if err != nil {
			// The head ends (or the document is broken): decide on what
			// was seen.
			return decide("")
		}
		switch t := tok.(type) {
		case xml.Directive:
			d := strings.ToLower(string(t))
			if strings.HasPrefix(d, "doctype") {
				switch {
				case strings.Contains(d, "cobertura"):
					doctype = Cobertura
				case strings.Contains(d, "jacoco"):
					doctype = JaCoCo
				case strings.Contains(d, "clover"):
					doctype = Clover
				}
			}
		case xml.StartElement:
			if root != "" {
				return decide(t.Name.Local)
			}
			root = t.Name.Local
			for _, a := range t.Attr {
				attrs[a.Name.Local] = true
			}
			if root == "report" || root != "coverage" {
				return decide("")
			}
		case xml.EndElement:
			return decide("")
		}
	}
}

// detectEvidence collects the keys that tell the JSON formats apart.
type detectEvidence struct {
	istanbul, simplecov bool
	pathOnly            bool // an object whose first key is "path", cut off by the head's end
}

func detectJSON(head []byte) (Format, error) {
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // '{'
		return "", detectFail("it starts like JSON but is not")
	}
	var ev detectEvidence
	keys := 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		keys++
		if err := detectJSONValue(dec, key, &ev); err != nil {
			break
		}
		if ev.istanbul || ev.simplecov {
			break
		}
	}
	switch {
	case ev.istanbul:
		return Istanbul, nil
	case ev.simplecov:
		return SimpleCov, nil
	case ev.pathOnly:
		return Istanbul, nil
	case keys == 0:
		return "", detectFail("it is an empty JSON object")
	}
	return "", detectFail("it is JSON, but neither Istanbul's coverage-final.json ({path: {statementMap, s, …}}) nor SimpleCov's (.resultset.json {name: {coverage: …}}, coverage.json {meta: {simplecov_version}, coverage: …})")
}

// detectJSONValue reads the value of top-level key and notes evidence.
func detectJSONValue(dec *json.Decoder, key string, ev *detectEvidence) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := t.(json.Delim)
	if !ok {
		return nil // a scalar (timestamp, command_name, …)
	}
	if d == '[' {
		if key == "files" {
			// simplecov-json: [{"filename": …, "coverage": …}, …]
			if t, err := dec.Token(); err == nil && t == json.Delim('{') {
				k, err := detectJSONKeys(dec, 8)
				for _, name := range k {
					if name == "filename" || name == "covered_percent" {
						ev.simplecov = true
					}
				}
				if err != nil {
					return err
				}
			}
		}
		return jsonstream.SkipRest(dec.Token)
	}
	// An object.
	switch key {
	case "meta":
		k, err := detectJSONKeys(dec, 32)
		for _, name := range k {
			if name == "simplecov_version" {
				ev.simplecov = true
			}
		}
		return err
	case "coverage":
		// simplecov_json_formatter: {"coverage": {path: {"lines": […]} or […]}}
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if _, ok := t.(string); ok {
			t, err := dec.Token()
			if err != nil {
				return err
			}
			switch t {
			case json.Delim('['):
				ev.simplecov = true
			case json.Delim('{'):
				k, err := detectJSONKeys(dec, 8)
				for _, name := range k {
					if name == "lines" || name == "branches" {
						ev.simplecov = true
					}
				}
				if err != nil {
					return err
				}
			}
		}
		return jsonstream.SkipRest(dec.Token)
	}
	// {path: {…}} (Istanbul) or {command name: {…}} (SimpleCov resultset).
	k, err := detectJSONKeys(dec, 64)
	for i, name := range k {
		switch name {
		case "statementMap", "fnMap", "branchMap", "s", "f", "b", "inputSourceMap", "_coverageSchema":
			ev.istanbul = true
		case "coverage":
			ev.simplecov = true
		case "path":
			if i == 0 && len(k) == 1 {
				ev.pathOnly = true
			}
		}
	}
	return err
}

// detectJSONKeys reads the rest of an object whose '{' was read, returning
// its first max keys; values are skipped.
func detectJSONKeys(dec *json.Decoder, max int) ([]string, error) {
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys, err
		}
		if k, ok := t.(string); ok && len(keys) < max {
			keys = append(keys, k)
		}
		if err := jsonstream.Skip(dec.Token); err != nil {
			return keys, err
		}
	}
	_, err := dec.Token() // '}'
	return keys, err
}

// detectQlty reports whether the first JSON object of head has a string
// "path" and an array "hits" (the qlty format's first line). The object may
// be cut short by the end of head once both are seen.
func detectQlty(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	var path, hits bool
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := t.(string)
		v, err := dec.Token()
		if err != nil {
			return false
		}
		d, isDelim := v.(json.Delim)
		switch {
		case key == "path":
			_, path = v.(string)
		case key == "hits":
			hits = isDelim && d == '['
		}
		if path && hits {
			return true
		}
		if isDelim && jsonstream.SkipRest(dec.Token) != nil {
			return false
		}
	}
	return path && hits
}
