package web

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
)

// The marks of a file's page beyond hits and issues: duplicated blocks (a
// gutter mark over each block's lines, and at its first line a note that
// links to the block's other copies).

// cloneMarks are a file's duplicated blocks by line.
type cloneMarks struct {
	in     []bool                    // in[i]: line i+1 is in a block
	starts map[int][]plumb.FileClone // the blocks that start at a line
}

// newCloneMarks places clones over a file of n lines (a block past the
// last line is cut there).
func newCloneMarks(clones []plumb.FileClone, n int) cloneMarks {
	m := cloneMarks{in: make([]bool, n), starts: map[int][]plumb.FileClone{}}
	for _, c := range clones {
		if c.Here.StartLine < 1 || c.Here.StartLine > n {
			continue
		}
		m.starts[c.Here.StartLine] = append(m.starts[c.Here.StartLine], c)
		for i := c.Here.StartLine; i <= min(c.Here.EndLine, n); i++ {
			m.in[i-1] = true
		}
	}
	return m
}

// gutterClass is the line-number cell's class for line i.
func (m cloneMarks) gutterClass(i int) string {
	if i <= len(m.in) && m.in[i-1] {
		return "ln dup"
	}
	return "ln"
}

// placeURL links to a place of a block: a line of this page, or of the
// other file's page at the same ref.
func (d *fileData) placeURL(p plumb.ClonePlace) string {
	at := "#L" + strconv.Itoa(p.StartLine)
	if p.Path == d.Path {
		return at
	}
	u := d.URL + "/files/" + escapePath(p.Path)
	if r := d.linkRef(); r != "" {
		u += "?" + url.Values{"ref": {r}}.Encode()
	}
	return u + at
}

// writeCloneNote writes the row, above a block's first line, that says
// which lines are duplicated and links to each other copy.
func (d *fileData) writeCloneNote(b *strings.Builder, here []plumb.FileClone) {
	b.WriteString(`<tr class="dup-note"><td class="ln dup"></td><td></td><td>`)
	for i, c := range here {
		if i > 0 {
			b.WriteString("<br>")
		}
		b.WriteString(`Duplicated block, lines ` + strconv.Itoa(c.Here.StartLine) + `–` + strconv.Itoa(c.Here.EndLine) +
			` (` + strconv.Itoa(c.Lines) + ` lines): also at <a href="`)
		htmlEscaper.WriteString(b, d.placeURL(c.Other))
		b.WriteString(`">`)
		if c.Other.Path == d.Path {
			b.WriteString("this file")
		} else {
			htmlEscaper.WriteString(b, c.Other.Path)
		}
		b.WriteString(`, lines ` + strconv.Itoa(c.Other.StartLine) + `–` + strconv.Itoa(c.Other.EndLine) + `</a>`)
	}
	b.WriteString("</td></tr>\n")
}
