package coverage

// The skeleton of the three XML readers (Cobertura, JaCoCo, Clover): the
// event loop over an xmlScanner, the root element's checks and the errors
// naming an element. Each format supplies only its element handlers.

import (
	"fmt"
	"io"
)

// An xmlReport describes one XML coverage format to readXMLReport.
type xmlReport struct {
	format Format
	mode   xmlMode
	root   string // the root element's local name, e.g. "coverage"
	title  string // the report's name in errors, e.g. "Clover XML report"

	// start is called when an element below the root starts, with its local
	// name and depth (the root's children are at depth 2); its attributes
	// are sc.attrs. end is called when it ends, with the same depth; text
	// for a text run inside the root (sc.text, sc.literal); eof at the end
	// of a report with a root. Any may be nil.
	start func(sc *xmlScanner, name []byte, depth int) error
	end   func(sc *xmlScanner, name []byte, depth int) error
	text  func(sc *xmlScanner) error
	eof   func() error
}

// readXMLReport reads r, a report in x's format, calling x's handlers. The
// root element must be x.root, and come once.
func readXMLReport(r io.Reader, x *xmlReport) error {
	sc, err := newXMLScanner(r, x.format, x.mode)
	if err != nil {
		return err
	}
	depth, rooted := 0, false
	for {
		kind, err := sc.next()
		if err != nil {
			return err
		}
		switch kind {
		case xmlEOF:
			if !rooted {
				line, _ := sc.tokPos()
				return &ParseError{Format: x.format, Line: line, Msg: fmt.Sprintf("expected the root element <%s> of a %s", x.root, x.title)}
			}
			if x.eof != nil {
				return x.eof()
			}
			return nil
		case xmlStart:
			name := xmlLocal(sc.name)
			depth++
			if depth == 1 {
				if rooted {
					return sc.failElem(name, "expected nothing after the </%s> that ends the report", x.root)
				}
				if string(name) != x.root {
					return sc.failElem(name, "expected the root element <%s> of a %s", x.root, x.title)
				}
				rooted = true
				continue
			}
			if x.start != nil {
				if err := x.start(sc, name, depth); err != nil {
					return err
				}
			}
		case xmlEnd:
			if depth > 1 && x.end != nil {
				if err := x.end(sc, xmlLocal(sc.name), depth); err != nil {
					return err
				}
			}
			depth--
		case xmlText:
			if x.text != nil {
				if err := x.text(sc); err != nil {
					return err
				}
			}
		}
	}
}

// failElem is a ParseError at the current token, the element elem: in
// xmlModeStdlib naming it and the column, in xmlModeCobertura as fail does
// (naming the innermost open element).
func (s *xmlScanner) failElem(elem []byte, msg string, args ...any) error {
	if s.mode == xmlModeCobertura {
		return s.fail(msg, args...)
	}
	line, col := s.tokPos()
	return &ParseError{Format: s.format, Line: line, Element: fmt.Sprintf("<%s> at column %d", elem, col), Msg: fmt.Sprintf(msg, args...)}
}
