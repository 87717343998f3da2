package lang

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unsafe"
)

// Counts are the line figures of one file, counted the way cloc counts
// them (docs/analyze.md): every physical line is blank, comment or code.
type Counts struct {
	Lines   int // physical lines
	Blank   int // lines of white space only
	Comment int // lines holding only comments
	Code    int // the rest: lines with code (a line with code and a comment is code)
}

// filterSpec is one of cloc's comment filters as --explain prints it.
type filterSpec struct {
	op   string
	args []string
}

// spec is one language of the table.
type spec struct {
	name    string
	exts    []string
	filters []filterSpec
}

// filter is a compiled filterSpec: it turns the file's non-blank lines
// into the lines left once (some) comments are gone. Lines keep their
// trailing newline until a whole-text filter drops them, as in cloc.
type filter func(lines []string) []string

var bom = []byte("\xef\xbb\xbf")

// splitLines splits src into lines that keep their "\n"; a last line
// without one gets one.
func splitLines(src []byte) []string {
	src = bytes.TrimPrefix(src, bom)
	s := string(src)
	n := strings.Count(s, "\n")
	if len(s) > 0 && s[len(s)-1] != '\n' {
		n++
	}
	lines := make([]string, 0, n)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s+"\n")
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// isBlank reports whether a line is white space only (Perl's ^\s*$).
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// dropBlank removes blank lines, except (for languages with a
// continuation marker) one right after a line ending in the marker.
func dropBlank(lines []string, cont func(string) bool) []string {
	out := lines[:0]
	prevCont := false
	for _, l := range lines {
		keep := !isBlank(l) || prevCont
		if cont != nil {
			s, _ := chomp(l)
			prevCont = cont(s)
		}
		if keep {
			out = append(out, l)
		}
	}
	return out
}

// Count counts the lines of src as code, comment and blank lines of
// language l.
func (l *Language) Count(src []byte) Counts {
	if l.onlyCPP && !l.Script && (l.continues == nil || l.backslashCont) || l.lineFilters != nil {
		return l.countCPP(src)
	}
	return l.count(src)
}

// countCPP is count for the languages whose one filter is cloc's C++
// comment rule, without the copies: the lines that are not blank are
// joined as the filter joins them (each with a second newline unless it
// ends in a backslash), and one scan of that text removes // comments
// through their newline and /* */ comments, and counts the lines left that
// are not blank (or follow a line ending in a backslash). FuzzCount
// checks it equal to count.
//
// With lineFilters (Java's, PHP's…: filters that act on each line alone,
// before the C++ rule), each line that is not blank goes through them
// first, as count applies them; a line they drop or blank is not joined.
func (l *Language) countCPP(src []byte) Counts {
	src = bytes.TrimPrefix(src, bom)
	var c Counts
	// the joined lines are scratch, reused from file to file
	buf, _ := textPool.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	text := (*buf)[:0]
	if need := len(src) + len(src)/8 + 2; cap(text) < need {
		text = make([]byte, 0, need)
	}
	defer func() {
		if cap(text) <= 16<<20 { // a very large file's goes to the collector
			*buf = text
			textPool.Put(buf)
		}
	}()
	prevCont := false
	var str string // src as a string, for lineFilters
	var one [1]string
	if l.lineFilters != nil && len(src) > 0 {
		// a view: the filters' lines are copied into text before Count
		// returns, and src is not changed meanwhile
		str = unsafe.String(&src[0], len(src))
	}
	for start := 0; start < len(src); {
		lineStart := start
		end := bytes.IndexByte(src[start:], '\n')
		var line []byte
		if end < 0 {
			line, start = src[start:], len(src)
		} else {
			line, start = src[start:start+end], start+end+1
		}
		c.Lines++
		keep := !isBlankBytes(line) || prevCont
		backslash := len(line) > 0 && line[len(line)-1] == '\\'
		prevCont = l.backslashCont && backslash
		if !keep {
			c.Blank++
			continue
		}
		if l.lineFilters != nil && (l.filterNeeds == nil || holdsAny(line, l.filterNeeds)) {
			// the line with its newline (count's lines all have one)
			one[0] = str[lineStart:start]
			if end < 0 {
				one[0] += "\n"
			}
			out := one[:]
			for _, f := range l.lineFilters {
				if out = f(out); len(out) == 0 || isBlank(out[0]) {
					break
				}
			}
			if len(out) == 0 || isBlank(out[0]) {
				continue // dropped: a comment line
			}
			s, _ := chomp(out[0])
			text = append(text, out[0]...)
			if !strings.HasSuffix(s, `\`) {
				text = append(text, '\n')
			}
			continue
		}
		text = append(text, line...)
		text = append(text, '\n')
		if !backslash {
			text = append(text, '\n')
		}
	}
	nonBlank := c.Lines - c.Blank
	kept := 0
	content, endsBackslash, seg := false, false, 0
	prevCont = false
	endLine := func() {
		if content || prevCont {
			kept++
		}
		prevCont = l.backslashCont && endsBackslash
		content, endsBackslash, seg = false, false, 0
	}
	for i := 0; i < len(text); {
		// the bytes up to the next / or newline: code or white space
		end := len(text)
		if j := bytes.IndexByte(text[i:], '\n'); j >= 0 {
			end = i + j
		}
		if j := bytes.IndexByte(text[i:end], '/'); j >= 0 {
			end = i + j
		}
		if end > i {
			content = content || !isBlankBytes(text[i:end])
			endsBackslash = text[end-1] == '\\'
			seg += end - i
			i = end
			if i == len(text) {
				break
			}
		}
		b := text[i]
		if b == '/' && i+1 < len(text) {
			if text[i+1] == '/' {
				if j := bytes.IndexByte(text[i:], '\n'); j >= 0 {
					i += j + 1 // the comment and its newline
					continue
				}
			} else if text[i+1] == '*' {
				if j := bytes.Index(text[i+2:], []byte("*/")); j >= 0 {
					i += j + 4
					continue
				}
			}
		}
		i++
		if b == '\n' {
			endLine()
			continue
		}
		seg++
		switch b {
		case ' ', '\t', '\r', '\f', '\v':
		default:
			content = true
		}
		endsBackslash = b == '\\'
	}
	if seg > 0 {
		endLine()
	}
	c.Code = min(kept, nonBlank)
	c.Comment = nonBlank - c.Code
	return c
}

var textPool sync.Pool

func isBlankBytes(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// count runs the language's filters one after the other, as cloc does.
func (l *Language) count(src []byte) Counts {
	lines := splitLines(src)
	c := Counts{Lines: len(lines)}
	work := dropBlank(append(make([]string, 0, len(lines)), lines...), l.continues)
	c.Blank = c.Lines - len(work)
	if len(work) == 0 {
		return c
	}
	first := strings.TrimSuffix(work[0], "\n")
	nonBlank := len(work)
	for _, f := range l.filters {
		work = dropBlank(f(work), l.continues)
	}
	kept := len(work)
	if l.Script && strings.HasPrefix(first, "#!") && (kept == 0 || strings.TrimSuffix(work[0], "\n") != first) {
		kept++ // cloc counts a script's #! line as code
	}
	if kept > nonBlank {
		kept = nonBlank
	}
	c.Comment = nonBlank - kept
	c.Code = kept
	return c
}

// chomp drops one trailing newline, and says whether there was one.
func chomp(s string) (string, bool) {
	if strings.HasSuffix(s, "\n") {
		return s[:len(s)-1], true
	}
	return s, false
}

func withNL(s string, nl bool) string {
	if nl {
		return s + "\n"
	}
	return s
}

// removeMatches drops every line the (case-insensitive) pattern matches.
func removeMatches(re *regexp.Regexp) filter {
	nl := matchesNewline(re)
	return func(lines []string) []string {
		out := lines[:0]
		for _, l := range lines {
			if !perlMatch(re, l, nl) {
				out = append(out, l)
			}
		}
		return out
	}
}

// perlMatch matches a line as Perl matches cloc's lines, which keep their
// newline: $ matches at the end or before the newline, and \s (or a
// negated class) may match the newline itself, so ^dnl\s matches a line
// that is just "dnl" (m4) and ^\s*#\s a bare "#" (Imba). nl says whether
// the pattern can match a newline at all (else the second match is
// needless).
func perlMatch(re *regexp.Regexp, l string, nl bool) bool {
	s, had := chomp(l)
	return re.MatchString(s) || had && nl && re.MatchString(l)
}

// matchesNewline reports whether a pattern can need the line's newline:
// only its last element can match it (nothing follows the newline), so
// when that element is one that matches at least one newline-capable
// byte (\s, \s+, \W, \D, a negated class); ^\s*# never does.
func matchesNewline(re *regexp.Regexp) bool {
	p := strings.TrimSuffix(strings.TrimPrefix(re.String(), "(?i)"), "$")
	p = strings.TrimSuffix(p, "+")
	for _, k := range []string{`\s`, `\W`, `\D`, `\n`, `\v`} {
		if strings.HasSuffix(p, k) && !strings.HasSuffix(p, `\`+k) {
			return true
		}
	}
	return strings.HasSuffix(p, "]") && strings.Contains(p, "[^")
}

// finalBackslash is the pattern of Java's replace_regex: a backslash at
// the line's end.
const finalBackslash = `\\$`

// quotedMarkers are the replace_between_regex patterns of quotedMarker.
var quotedMarkers = map[string]bool{`(["'])(.*?/\*)\g1`: true, `(["'])(.*?\*/)\g1`: true, `(["'])(.*?/)(\*.*?)\g1`: true}

// replaceFinalBackslash is replace_regex with finalBackslash: the one
// backslash that ends a line (before its newline) becomes repl.
func replaceFinalBackslash(repl string) filter {
	return func(lines []string) []string {
		for n, l := range lines {
			if s, nl := chomp(l); strings.HasSuffix(s, `\`) {
				lines[n] = withNL(s[:len(s)-1]+repl, nl)
			}
		}
		return lines
	}
}

// replaceRegex replaces every match in each line.
func replaceRegex(re *regexp.Regexp, repl string) filter {
	// a match starts with the pattern's literal prefix: a line without it
	// is left as it is (Java's \\$ on lines that hold no backslash)
	prefix, _ := re.LiteralPrefix()
	return func(lines []string) []string {
		out := lines[:0]
		for _, l := range lines {
			if prefix != "" && !strings.Contains(l, prefix) {
				out = append(out, l)
				continue
			}
			s, nl := chomp(l)
			out = append(out, withNL(re.ReplaceAllLiteralString(s, repl), nl))
		}
		return out
	}
}

// commonComments removes comments from the whole text at once, the way
// cloc's "call_regexp_common" does: for C++ (and PL/SQL) each line gets a
// newline added unless it ends in a backslash, so a line comment eats
// only its own line; otherwise the lines are joined as they are.
// The text is then split at newlines again (the lines lose them).
func commonComments(remove func(string) string, addNL bool) filter {
	return func(lines []string) []string {
		var b strings.Builder
		size := 0
		for _, l := range lines {
			size += len(l) + 1
		}
		b.Grow(size)
		for _, l := range lines {
			b.WriteString(l)
			if addNL {
				s, _ := chomp(l)
				if !strings.HasSuffix(s, `\`) {
					b.WriteByte('\n')
				}
			}
		}
		text := remove(b.String())
		out := strings.Split(text, "\n")
		if len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1] // Perl's split drops trailing empty fields
		}
		return out
	}
}

// stripComments removes line comments that start with line (through the
// newline that ends them; a line comment needs that newline) and block
// comments from open to the first close after it, scanning from the left
// as a regular expression would. Empty markers are not used.
func stripComments(s, line, open, close string) string {
	var b strings.Builder
	b.Grow(len(s))
	start := 0
	// only the bytes that start a marker need a look: the next place of
	// each marker's first byte is kept until the scan passes it
	nextLine, nextOpen := -1, -1 // len(s): none left
	if line == "" {
		nextLine = len(s)
	}
	if open == "" {
		nextOpen = len(s)
	}
	for i := 0; i < len(s); {
		if nextLine < i {
			nextLine = indexFrom(s, i, line[0])
		}
		if nextOpen < i {
			nextOpen = indexFrom(s, i, open[0])
		}
		i = min(nextLine, nextOpen)
		if i >= len(s) {
			break
		}
		if line != "" && strings.HasPrefix(s[i:], line) {
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				b.WriteString(s[start:i])
				i += j + 1
				start = i
				continue
			}
		}
		if open != "" && strings.HasPrefix(s[i:], open) {
			if j := strings.Index(s[i+len(open):], close); j >= 0 {
				b.WriteString(s[start:i])
				i += len(open) + j + len(close)
				start = i
				continue
			}
		}
		i++
	}
	b.WriteString(s[start:])
	return b.String()
}

// indexFrom is the index of the first c in s from i on, or len(s).
func indexFrom(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// quickStrip is stripComments with a fast exit for text without markers.
func quickStrip(line, open, close string) func(string) string {
	return func(s string) string {
		if (line == "" || !strings.Contains(s, line)) && (open == "" || !strings.Contains(s, open)) {
			return s
		}
		return stripComments(s, line, open, close)
	}
}

var (
	htmlCommentRE   = regexp.MustCompile(`<!(?:--(?:[^-]*(?:-[^-]+)*)--\s*)*>`)
	pascalCommentRE = regexp.MustCompile(`\{[^}]*\}|\(\*(?:[^*]|\*+[^*)])*\*+\)`)
	smalltalkRE     = regexp.MustCompile(`"[^"]*"`)
)

// removeBetween is cloc's line-by-line removal of comments between a start
// and an end marker (both found by find, which returns the match's bounds
// or -1): one-line comments go, a comment that starts on a line runs until
// the end marker on a later line, a line that is only comment is dropped.
//
// With wholeLine (cloc's HTML and JSP comment filters), a line where a
// comment starts after code is dropped too.
func removeBetween(findStart, findEnd func(string) (int, int), wholeLine bool) filter {
	return func(lines []string) []string {
		out := lines[:0]
		in := false
		for _, l := range lines {
			s, nl := chomp(l)
			if isBlank(s) {
				continue
			}
			// strip one-line comments: start…end, shortest, repeatedly
			var b strings.Builder
			rest := s
			changed := false
			for {
				i, j := findStart(rest)
				if i < 0 {
					break
				}
				k, m := findEnd(rest[j:])
				if k < 0 {
					break
				}
				b.WriteString(rest[:i])
				rest = rest[j+m:]
				changed = true
			}
			if changed {
				b.WriteString(rest)
				s = b.String()
			}
			if isBlank(s) {
				continue
			}
			if in {
				if k, m := findEnd(s); k >= 0 {
					s = s[m:]
					in = false
				}
				if in {
					continue
				}
			}
			if isBlank(s) {
				continue
			}
			if i, _ := findStart(s); i >= 0 {
				in = true
				if wholeLine || isBlank(s[:i]) {
					continue
				}
				s = s[:i]
			}
			out = append(out, withNL(s, nl))
		}
		return out
	}
}

func literal(marker string) func(string) (int, int) {
	return func(s string) (int, int) {
		i := strings.Index(s, marker)
		if i < 0 {
			return -1, -1
		}
		return i, i + len(marker)
	}
}

func pattern(re *regexp.Regexp) func(string) (int, int) {
	return func(s string) (int, int) {
		loc := re.FindStringIndex(s)
		if loc == nil {
			return -1, -1
		}
		return loc[0], loc[1]
	}
}

var (
	f77CommentRE   = regexp.MustCompile(`^(?:[*cC]|\s*!)`)
	f90CommentRE   = regexp.MustCompile(`^(?:\s*!|\s*$)`)
	f90DirectiveRE = regexp.MustCompile(`(?i)^\s*!(?:hpf|omp)\$`)
	cobolFreeRE    = regexp.MustCompile(`(?i)^.{6}\$.*SET.*SOURCEFORMAT.*FREE`)
	cobolFixedRE   = regexp.MustCompile(`^(?:.{6}\*|\*)`)
	cobolFreeCmtRE = regexp.MustCompile(`^\s*\*`)
	ocamlTokenRE   = regexp.MustCompile(`\(\*|\*\)|".*?"`)
	elixirDocRE    = regexp.MustCompile(`@(?:module)?doc\s+(?:~[sScC])?['"]{3}`)
	tripleQuoteRE  = regexp.MustCompile(`['"]{3}`)
	forthInlineRE  = regexp.MustCompile(`\s+\(\s+.*?\)`)
	forthHasRE     = regexp.MustCompile(`\s\(\s`)
	forthInlineHas = regexp.MustCompile(`\s\(\s.*?\)`)
	forthOpenRE    = regexp.MustCompile(`\s+\(\s+`)
)

// keepLines keeps the lines keep accepts (the line without its newline).
func keepLines(keep func(s string) bool) filter {
	return func(lines []string) []string {
		out := lines[:0]
		for _, l := range lines {
			if s, _ := chomp(l); keep(s) {
				out = append(out, l)
			}
		}
		return out
	}
}

// fortran77Comments drops lines that start with *, c or C, or whose first
// non-blank is ! (cloc's rule, also applied to Fortran 90 and 95).
var fortran77Comments = keepLines(func(s string) bool { return !f77CommentRE.MatchString(s) })

// fortran90Comments drops ! comment lines, but not HPF and OpenMP
// directives (!hpf$, !omp$).
var fortran90Comments = keepLines(func(s string) bool {
	return !f90CommentRE.MatchString(s) || f90DirectiveRE.MatchString(s)
})

// cobolComments drops fixed-format comment lines (* in column 7, or in
// column 1), or, from a "$ SET SOURCEFORMAT FREE" directive on, lines
// starting with *.
func cobolComments(lines []string) []string {
	out := lines[:0]
	free := false
	for _, l := range lines {
		s, _ := chomp(l)
		if cobolFreeRE.MatchString(s) {
			free = true
		}
		if free && cobolFreeCmtRE.MatchString(s) || !free && cobolFixedRE.MatchString(s) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// jclComments drops //* comment lines, and everything from a line that is
// only // (the end of the job) on.
func jclComments(lines []string) []string {
	out := lines[:0]
	for _, l := range lines {
		s, _ := chomp(l)
		if isBlank(s) || strings.HasPrefix(s, "//*") {
			continue
		}
		if t := strings.TrimSpace(s); t == "//" {
			break
		}
		out = append(out, l)
	}
	return out
}

// ocamlComments removes (* *) comments, which nest; a quoted string
// outside a comment is text, and inside one hides its markers.
func ocamlComments(lines []string) []string {
	out := lines[:0]
	depth := 0
	for _, l := range lines {
		if isBlank(l) {
			continue
		}
		var b strings.Builder
		last := 0
		keep := func(t string) {
			if depth == 0 {
				b.WriteString(t)
			}
		}
		for _, m := range ocamlTokenRE.FindAllStringIndex(l, -1) {
			keep(l[last:m[0]])
			switch t := l[m[0]:m[1]]; t {
			case "(*":
				depth++
			case "*)":
				depth--
			default:
				keep(t)
			}
			last = m[1]
		}
		keep(l[last:])
		if b.Len() > 0 {
			out = append(out, b.String())
		}
	}
	return out
}

// elixirDocToC turns @doc and @moduledoc heredocs into /* */ for the C
// comment filter after it (one change a line, as cloc does).
func elixirDocToC(lines []string) []string {
	in := false
	for i, l := range lines {
		if !in {
			if loc := elixirDocRE.FindStringIndex(l); loc != nil {
				lines[i] = l[:loc[0]] + "/*" + l[loc[1]:]
				in = true
			}
		} else if loc := tripleQuoteRE.FindStringIndex(l); loc != nil {
			lines[i] = l[:loc[0]] + "*/" + l[loc[1]:]
			in = false
		}
	}
	return lines
}

// forthParensToC removes Forth's ( … ) comments within a line and turns
// the ones that span lines into /* */ for the C++ comment filter after it.
func forthParensToC(lines []string) []string {
	in := false
	for i, l := range lines {
		for n := 0; n <= 255 && (forthHasRE.MatchString(l) || in && strings.Contains(l, ")")); {
			switch {
			case forthInlineHas.MatchString(l):
				l = forthInlineRE.ReplaceAllLiteralString(l, "")
			case !in && forthHasRE.MatchString(l):
				loc := forthOpenRE.FindStringIndex(l)
				l = l[:loc[0]] + "/*" + l[loc[1]:]
				in = true
			case in && strings.Contains(l, ")"):
				l = strings.Replace(l, ")", "*/", 1)
				in = false
			default:
				n++
			}
		}
		lines[i] = l
	}
	return lines
}

// indentedBlockComments drops a comment marker line (the pattern, whose
// first group is its indentation) and the lines indented deeper after it
// (Haml, Pug, Slim block comments); tabs count to the next multiple of 8.
func indentedBlockComments(re *regexp.Regexp) filter {
	return func(lines []string) []string {
		out := lines[:0]
		in := 0 // the comment's indentation + 1
		for _, l := range lines {
			if isBlank(l) {
				continue
			}
			l = expandTabs(l)
			if in > 0 {
				if len(l)-len(strings.TrimLeft(l, " \t\n\r\f\v")) < in {
					in = 0
				} else {
					continue
				}
			} else if m := re.FindStringSubmatch(l); m != nil {
				in = len(m[1]) + 1
				continue
			}
			out = append(out, l)
		}
		return out
	}
}

// expandTabs replaces tabs with spaces to the next multiple of 8.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// rmdCodeBlocks keeps only the lines inside ```{lang} … ``` chunks (the
// closing fence included, as cloc does).
func rmdCodeBlocks(lines []string) []string {
	out := lines[:0]
	in := false
	for _, l := range lines {
		s, _ := chomp(l)
		if rmdOpenRE.MatchString(s) {
			in = true
			continue
		}
		if rmdCloseRE.MatchString(s) {
			in = false
		}
		if in {
			out = append(out, l)
		}
	}
	return out
}

var (
	rmdOpenRE     = regexp.MustCompile(`^` + "```" + `\{\s*[[:alpha:]]`)
	rmdCloseRE    = regexp.MustCompile(`^` + "```" + `\s*$`)
	nbCodeCellRE  = regexp.MustCompile(`^\s*"cell_type":\s*"code",\s*$`)
	nbSourceRE    = regexp.MustCompile(`^\s*"source":\s*\[\s*$`)
	nbEmptyLineRE = regexp.MustCompile(`^\s*"\s*\\n",\s*$`)
	nbCommentRE   = regexp.MustCompile(`^\s*"\s*#`)
	nbEndRE       = regexp.MustCompile(`^\s*\]\s*$`)
)

// jupyterCode keeps the source lines of a notebook's code cells, less
// empty lines and # comments (as written in the .ipynb JSON).
func jupyterCode(lines []string) []string {
	out := lines[:0]
	code, source := false, false
	for _, l := range lines {
		s, _ := chomp(l)
		switch {
		case !code && !source && nbCodeCellRE.MatchString(s):
			code = true
		case code && !source && nbSourceRE.MatchString(s):
			source = true
		case code && source:
			switch {
			case nbEmptyLineRE.MatchString(s), nbCommentRE.MatchString(s):
			case nbEndRE.MatchString(s):
				code, source = false, false
			default:
				out = append(out, l)
			}
		}
	}
	return out
}

// prePostFix joins the lines between a prefix and a suffix and splits the
// text at newlines again (Specman e: '> and <' around the file).
func prePostFix(prefix, suffix string) filter {
	return func(lines []string) []string {
		out := strings.Split(prefix+strings.Join(lines, "")+suffix, "\n")
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
		return out
	}
}

func dropLastLine(lines []string) []string {
	if len(lines) == 0 {
		return lines
	}
	return lines[:len(lines)-1]
}

// docstringToC turns Python docstring quotes into /* and */ so that the C
// comment filter after it removes them, as cloc does.
func docstringToC(lines []string) []string {
	in := false
	for i, l := range lines {
		for {
			j := indexTriple(l)
			if j < 0 {
				break
			}
			if !in {
				k := j
				if k > 0 && (l[k-1] == 'u' || l[k-1] == 'U') {
					k--
				}
				l = l[:k] + "/*" + l[j+3:]
			} else {
				l = l[:j] + "*/" + l[j+3:]
			}
			in = !in
		}
		lines[i] = l
	}
	return lines
}

func indexTriple(s string) int {
	a, b := strings.Index(s, `"""`), strings.Index(s, `'''`)
	switch {
	case a < 0:
		return b
	case b < 0 || a < b:
		return a
	}
	return b
}

// quotedMarker replaces a quoted string holding a comment marker with xx
// on each line (cloc does this for Java, Groovy and similar so that "/*"
// in a string starts no comment). closeRight says the marker must be
// right before the closing quote (Java's form).
func quotedMarker(marker string, closeRight bool) filter {
	return func(lines []string) []string {
		for n, l := range lines {
			if !strings.Contains(l, marker) {
				continue
			}
			var b strings.Builder
			i := 0
			last := 0
			for i < len(l) {
				q := l[i]
				if q != '"' && q != '\'' {
					i++
					continue
				}
				end := -1
				if closeRight {
					if k := strings.Index(l[i+1:], marker+string(q)); k >= 0 {
						end = i + 1 + k + len(marker) + 1
					}
				} else if k := strings.Index(l[i+1:], marker); k >= 0 {
					if m := strings.IndexByte(l[i+1+k+len(marker)-1:], q); m >= 0 && !strings.Contains(l[i+1+k+len(marker)-1:i+1+k+len(marker)-1+m], "\n") {
						end = i + 1 + k + len(marker) - 1 + m + 1
					}
				}
				if end < 0 {
					i++
					continue
				}
				b.WriteString(l[last:i])
				b.WriteString("xx")
				i, last = end, end
			}
			if last > 0 {
				b.WriteString(l[last:])
				lines[n] = b.String()
			}
		}
		return lines
	}
}

func removeAbove(re *regexp.Regexp) filter {
	nl := matchesNewline(re)
	return func(lines []string) []string {
		for i, l := range lines {
			if perlMatch(re, l, nl) {
				return lines[i:]
			}
		}
		return lines
	}
}

func removeBelow(re *regexp.Regexp) filter {
	nl := matchesNewline(re)
	return func(lines []string) []string {
		for i, l := range lines {
			if perlMatch(re, l, nl) {
				return lines[:i]
			}
		}
		return lines
	}
}

func removeBelowAbove(below, above *regexp.Regexp) filter {
	return func(lines []string) []string {
		out := lines[:0]
		between := false
		for _, l := range lines {
			s := strings.TrimSuffix(l, "\n")
			if !between && below.MatchString(s) {
				between = true
				continue
			}
			if between && above.MatchString(s) {
				between = false
				continue
			}
			if !between {
				out = append(out, l)
			}
		}
		return out
	}
}

func addNewlines(lines []string) []string {
	for i := range lines {
		lines[i] += "\n"
	}
	return lines
}

// haskellComments approximates cloc's Haskell filter: -- line comments and
// {- -} block comments (pragmas {-# are code).
func haskellComments(lines []string) []string {
	out := lines[:0]
	depth := 0
	for _, l := range lines {
		s, _ := chomp(l)
		if depth == 0 && strings.HasPrefix(strings.TrimSpace(s), "{-#") {
			out = append(out, s)
			continue
		}
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			switch {
			case strings.HasPrefix(s[i:], "{-"):
				depth++
				i++
			case depth > 0 && strings.HasPrefix(s[i:], "-}"):
				depth--
				i++
			case depth == 0 && strings.HasPrefix(s[i:], "--"):
				i = len(s)
			case depth == 0:
				b.WriteByte(s[i])
			}
		}
		if !isBlank(b.String()) {
			out = append(out, b.String())
		}
	}
	return out
}

// compile turns a language's filter specs into filters; it reports the
// ones this package does not implement (the language's lines are then
// counted without them).
func compile(specs []filterSpec) (fs []filter, unsupported []string) {
	ci := func(p string) *regexp.Regexp {
		re, err := regexp.Compile("(?i)" + p)
		if err != nil {
			return nil
		}
		return re
	}
	for _, sp := range specs {
		a := sp.args
		var f filter
		switch sp.op {
		case "remove_matches":
			if re := ci(a[0]); re != nil {
				f = removeMatches(re)
			}
		case "replace_regex":
			if a[0] == finalBackslash && len(a) > 1 {
				f = replaceFinalBackslash(a[1])
			} else if re := ci(a[0]); re != nil {
				repl := ""
				if len(a) > 1 {
					repl = a[1]
				}
				f = replaceRegex(re, repl)
			}
		case "call_regexp_common":
			switch a[0] {
			case "C++":
				f = commonComments(quickStrip("//", "/*", "*/"), true)
			case "C":
				f = commonComments(quickStrip("", "/*", "*/"), false)
			case "PL/SQL":
				f = commonComments(quickStrip("--", "/*", "*/"), true)
			case "HTML":
				f = commonComments(func(s string) string {
					if !strings.Contains(s, "<!") {
						return s
					}
					return htmlCommentRE.ReplaceAllLiteralString(s, "")
				}, false)
			case "Pascal":
				f = commonComments(func(s string) string { return pascalCommentRE.ReplaceAllLiteralString(s, "") }, false)
			case "Smalltalk":
				f = commonComments(func(s string) string { return smalltalkRE.ReplaceAllLiteralString(s, "") }, false)
			}
		case "remove_html_comments":
			f = removeBetween(literal("<!--"), literal("-->"), true)
		case "remove_jsp_comments":
			f = removeBetween(literal("<%--"), literal("--%>"), true)
		case "remove_f77_comments":
			f = fortran77Comments
		case "remove_f90_comments":
			f = fortran90Comments
		case "remove_cobol_comments":
			f = cobolComments
		case "remove_jcl_comments":
			f = jclComments
		case "remove_OCaml_comments":
			f = ocamlComments
		case "elixir_doc_to_C":
			f = elixirDocToC
		case "Forth_paren_to_C":
			f = forthParensToC
		case "remove_pug_block":
			f = indentedBlockComments(regexp.MustCompile(`^(\s*)(//)\s*$`))
		case "remove_haml_block":
			f = indentedBlockComments(regexp.MustCompile(`^(\s*)(/|-#)\s*$`))
		case "remove_slim_block":
			f = indentedBlockComments(regexp.MustCompile(`^(\s*)(/[^!])`))
		case "reduce_to_rmd_code_blocks":
			f = rmdCodeBlocks
		case "jupyter_nb":
			f = jupyterCode
		case "pre_post_fix":
			f = prePostFix(a[0], a[1])
		case "rm_last_line":
			f = dropLastLine
		case "remove_between_general":
			f = removeBetween(literal(a[0]), literal(a[1]), false)
		case "remove_between_regex":
			s, e := regexp.Compile(a[0])
			en, e2 := regexp.Compile(a[1])
			if e == nil && e2 == nil {
				f = removeBetween(pattern(s), pattern(en), false)
			}
		case "replace_between_regex":
			switch a[0] {
			case `(["'])(.*?/\*)\g1`:
				f = quotedMarker("/*", true)
			case `(["'])(.*?\*/)\g1`:
				f = quotedMarker("*/", true)
			case `(["'])(.*?/)(\*.*?)\g1`:
				f = quotedMarker("/*", false)
			}
		case "powershell_to_C":
			f = markersToC("<#", "#>")
		case "smarty_to_C":
			f = markersToC("{*", "*}")
		case "docstring_to_C":
			f = docstringToC
		case "remove_above":
			if re := ci(a[0]); re != nil {
				f = removeAbove(re)
			}
		case "remove_below":
			if re := ci(a[0]); re != nil {
				f = removeBelow(re)
			}
		case "remove_below_above":
			b, ab := ci(a[0]), ci(a[1])
			if b != nil && ab != nil {
				f = removeBelowAbove(b, ab)
			}
		case "remove_bf_comments":
			f = keepLines(func(l string) bool { return strings.ContainsAny(l, "<>+,-.[]") })
		case "add_newlines":
			f = addNewlines
		case "remove_haskell_comments":
			f = haskellComments
		}
		if f == nil {
			unsupported = append(unsupported, sp.op)
			continue
		}
		fs = append(fs, f)
	}
	return fs, unsupported
}

// markersToC rewrites a language's block-comment markers as /* and */ so
// that the C comment filter after it removes them (PowerShell, Smarty).
func markersToC(open, close string) filter {
	r := strings.NewReplacer(open, "/*", close, "*/")
	return func(lines []string) []string {
		for i, l := range lines {
			lines[i] = r.Replace(l)
		}
		return lines
	}
}

// holdsAny reports whether line holds one of the bytes of set. The set is
// made once per language: bytes.ContainsAny builds its own set at every
// call and took 1.8 times as long on Java's lines (a benchmark of both
// over four typical lines, 75 ns against 138).
func holdsAny(line []byte, set *[256]bool) bool {
	for _, c := range line {
		if set[c] {
			return true
		}
	}
	return false
}
