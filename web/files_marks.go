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

// lineCoverage is the coverage shown: hits by line, and the branch figures
// of the lines that have them (ascending).
type lineCoverage struct {
	hits     []int64
	branches []plumb.LineBranches
}

// branchWalk finds lines' branch figures in one pass over them, the lines
// asked in ascending order (walk) or descending (walkBack).
type branchWalk struct {
	cov  *lineCoverage
	next int // index into branches
	back bool
}

func (c *lineCoverage) walk() branchWalk { return branchWalk{cov: c} }
func (c *lineCoverage) walkBack() branchWalk {
	return branchWalk{cov: c, next: len(c.branches) - 1, back: true}
}

// at returns line i's figures, if it has some.
func (w *branchWalk) at(i int) (plumb.LineBranches, bool) {
	bs := w.cov.branches
	if w.back {
		for w.next >= 0 && bs[w.next].Line > i {
			w.next--
		}
		if w.next >= 0 && bs[w.next].Line == i {
			return bs[w.next], true
		}
		return plumb.LineBranches{}, false
	}
	for w.next < len(bs) && bs[w.next].Line < i {
		w.next++
	}
	if w.next < len(bs) && bs[w.next].Line == i {
		return bs[w.next], true
	}
	return plumb.LineBranches{}, false
}

// partial reports whether line i is partly covered (plumb.LineBranches'
// Partial).
func (w *branchWalk) partial(i int) bool {
	br, ok := w.at(i)
	return ok && i <= len(w.cov.hits) && br.Partial(w.cov.hits[i-1])
}

// partialCell is the coverage cell of a partial line: its hits, and its
// branch figures both shown and said in words (the title, and for screen
// readers); with a link to the next missed or partial line.
func partialCell(hits int64, br plumb.LineBranches, next int) string {
	words := "partial: " + strconv.Itoa(br.Covered) + " of " + strconv.Itoa(br.Total) + " branches"
	figures := strconv.Itoa(br.Covered) + "/" + strconv.Itoa(br.Total)
	cell := strconv.FormatInt(hits, 10) + `× <span class="br" title="` + words + `" aria-hidden="true">◐ ` + figures + `</span><span class="sr-only">, ` + words + `</span>`
	if next > 0 {
		cell += ` <a class="next" href="#L` + strconv.Itoa(next) + `" title="next missed or partial line">↓</a>`
	}
	return cell
}
