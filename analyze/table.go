package analyze

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// WriteTable prints a summary for people: one row per language, the
// totals, the issues by rule and the files left out.
func (r *Result) WriteTable(w io.Writer) error {
	type row struct {
		lang                                       string
		files, lines, code, comment, blank, cx, du int
	}
	by := map[string]*row{}
	var total row
	total.lang = "Total"
	for _, f := range r.Files {
		x := by[f.Language]
		if x == nil {
			x = &row{lang: f.Language}
			by[f.Language] = x
		}
		for _, p := range []*row{x, &total} {
			p.files++
			p.lines += f.Lines
			p.code += f.Code
			p.comment += f.Comment
			p.blank += f.Blank
			p.cx += f.Complexity
			p.du += f.DuplicatedLines
		}
	}
	rows := make([]*row, 0, len(by))
	for _, x := range by {
		rows = append(rows, x)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].code != rows[j].code {
			return rows[i].code > rows[j].code
		}
		return rows[i].lang < rows[j].lang
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Language\tFiles\tLines\tCode\tComment\tBlank\tComplexity\tDuplicated\t")
	for _, x := range append(rows, &total) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", x.lang, x.files, x.lines, x.code, x.comment, x.blank, x.cx, x.du)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	rules := map[string]int{}
	for _, is := range r.Issues {
		rules[is.Rule]++
	}
	names := make([]string, 0, len(rules))
	for n := range rules {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "\n%d issues", len(r.Issues))
	for i, n := range names {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(w, "%s%s %d", sep, n, rules[n])
	}
	fmt.Fprintf(w, "\n%d duplicated blocks; %d files left out by rule (ignored, vendored, generated, other languages)\n", len(r.Clones), r.Excluded)
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "warning %s: %s\n", s.Path, s.Reason)
	}
	return nil
}
