// Package lang detects a source file's language and counts its physical,
// blank, comment and code lines the way Debian's cloc 1.96 counts them.
//
// The table of languages (table.go) is generated from `cloc --explain`
// (the language names, extensions and comment filters cloc documents); the
// filters are interpreted by count.go. docs/analyze.md lists where the
// counts differ from cloc's.
package lang

import (
	"bytes"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Language is one language of the table.
type Language struct {
	Name string
	// Script languages count a first #! line as code.
	Script bool
	// Unsupported names cloc filters this package does not implement;
	// the language's lines are counted without them.
	Unsupported []string
	filters     []filter
	continues   func(line string) bool // nil: no continuation marker
	// onlyCPP: the language's one filter is cloc's C++ comment rule (Go,
	// C, Java, JavaScript…), counted by countCPP in one pass.
	onlyCPP       bool
	backslashCont bool // continues is endsInBackslash
	// lineFilters: the language's filters before a last C++ comment rule,
	// when each acts on each line alone (replace_regex, remove_matches,
	// Java's quoted markers) and no line continues: Count then counts in
	// one pass too
	lineFilters []filter
	// filterNeeds: the bytes of which a line must hold one for the line
	// filters to change it (Java's: a backslash, or a quote around a
	// comment marker); nil: every line goes through them
	filterNeeds *[256]bool
}

var (
	once     sync.Once
	byName   map[string]*Language
	byExt    map[string]*Language
	ambig    map[string][]*Language
	byFile   map[string]*Language
	byScript map[string]*Language
)

// cloc's file names and #! interpreters (facts from its documentation).
var fileNames = map[string]string{
	"build.xml": "Ant", "BUILD": "Bazel", "WORKSPACE": "Bazel",
	"cmakelists.txt": "CMake", "CMakeLists.txt": "CMake",
	"Jamfile": "Jam", "jamfile": "Jam", "Jamrules": "Jam",
	"Makefile": "make", "makefile": "make", "Gnumakefile": "make", "gnumakefile": "make",
	"meson.build": "Meson", "pom.xml": "Maven", "Rakefile": "Ruby", "rakefile": "Ruby",
	"Dockerfile": "Dockerfile", "Dockerfile.m4": "Dockerfile", "Dockerfile.cmake": "Dockerfile",
	"dockerfile": "Dockerfile", "dockerfile.m4": "Dockerfile", "dockerfile.cmake": "Dockerfile",
	"Containerfile": "Containerfile",
}

var scripts = map[string]string{
	"awk": "awk", "bash": "Bourne Again Shell", "bc": "bc", "crystal": "Crystal",
	"csh": "C Shell", "dmd": "D", "dtrace": "dtrace", "escript": "Erlang", "groovy": "Groovy",
	"idl": "IDL", "kermit": "Kermit", "ksh": "Korn Shell", "lua": "Lua", "make": "make",
	"octave": "Octave", "perl5": "Perl", "perl": "Perl", "miniperl": "Perl", "php": "PHP",
	"php5": "PHP", "python": "Python", "python2.6": "Python", "python2.7": "Python",
	"python3": "Python", "python3.3": "Python", "python3.4": "Python", "python3.5": "Python",
	"python3.6": "Python", "python3.7": "Python", "python3.8": "Python", "perl6": "Raku",
	"raku": "Raku", "rakudo": "Raku", "rexx": "Rexx", "regina": "Rexx", "ruby": "Ruby",
	"sed": "sed", "sh": "Bourne Shell", "swipl": "Prolog", "tcl": "Tcl/Tk", "tclsh": "Tcl/Tk",
	"tcsh": "C Shell", "wish": "Tcl/Tk", "zsh": "zsh",
}

// continued lists the languages whose lines may end with a continuation
// marker (a backslash for most): cloc does not count a blank line after
// such a line as blank.
var continued = map[string]string{
	"IDL": `\$\\$`, "Igor Pro": `\$`, "MATLAB": `\.\.\.\s*$`, "Octave": `\.\.\.\s*$`, "Stata": `///$`,
}

var backslashContinued = []string{"ActionScript", "AspectJ", "Assembly", "ASP", "ASP.NET", "Ada", "awk", "bc",
	"C", "C++", "C/C++ Header", "CMake", "Cython", "C#", "C# Designer", "Cake Build Script", "D", "Dart",
	"Expect", "Futhark", "Gencat NLS", "Go", "JavaScript", "JSON5", "JSX", "LESS", "Lua", "make",
	"Meson", "Metal", "MXML", "Objective-C", "Objective-C++", "OCaml", "Qt Project", "Patran Command Language",
	"PowerBuilder", "PowerShell", "Python", "R", "Rmd", "Ruby", "sed", "Swift", "Bourne Again Shell",
	"Bourne Shell", "C Shell", "kvlang", "Kermit", "Korn Shell", "Starlark", "Solidity", "Stylus", "Tcl/Tk",
	"TTCN", "TypeScript", "lex", "Vala", "Vala Header", "X++", "zsh"}

// preferred settles an extension several languages claim, when the
// content does not say otherwise (see resolve).
var preferred = map[string]string{
	"cls": "Visual Basic", "cs": "C#", "v": "Verilog-SystemVerilog", "d": "D", "fs": "F#",
	"f": "Fortran 77", "for": "Fortran 77", "ui": "Qt", "pro": "Qt Project", "jl": "Julia",
	"cl": "Lisp", "m": "MATLAB", "pl": "Perl", "p6": "Raku", "ts": "TypeScript", "sls": "SaltStack",
	"build.xml": "Ant",
}

// neededBytes is the bytes of which a line must hold one for some of
// these line filters to change it (a final backslash replaced, a comment
// marker in quotes: a quote, then), or nil when that is not known.
func neededBytes(fs []filterSpec) *[256]bool {
	needs := new([256]bool)
	for _, f := range fs {
		switch {
		case f.op == "replace_regex" && f.args[0] == finalBackslash:
			needs['\\'] = true
		case f.op == "replace_between_regex" && quotedMarkers[f.args[0]]:
			needs['"'], needs['\''] = true, true
		default:
			return nil
		}
	}
	return needs
}

// lineLocal reports whether a language's filters are some that act on
// each line alone, then cloc's C++ comment rule.
func lineLocal(fs []filterSpec) bool {
	n := len(fs) - 1
	if n < 1 || fs[n].op != "call_regexp_common" || len(fs[n].args) != 1 || fs[n].args[0] != "C++" {
		return false
	}
	for _, f := range fs[:n] {
		switch f.op {
		case "replace_regex", "remove_matches", "replace_between_regex":
		default:
			return false
		}
	}
	return true
}

func load() {
	byName = map[string]*Language{}
	byExt = map[string]*Language{}
	ambig = map[string][]*Language{}
	byFile = map[string]*Language{}
	byScript = map[string]*Language{}
	scriptLangs := map[string]bool{}
	for _, n := range scripts {
		scriptLangs[n] = true
	}
	for i := range clocLanguages {
		sp := &clocLanguages[i]
		l := &Language{Name: sp.name, Script: scriptLangs[sp.name]}
		l.filters, l.Unsupported = compile(sp.filters)
		l.onlyCPP = len(sp.filters) == 1 && sp.filters[0].op == "call_regexp_common" && len(sp.filters[0].args) == 1 && sp.filters[0].args[0] == "C++"
		byName[sp.name] = l
		for _, e := range sp.exts {
			ambig[e] = append(ambig[e], l)
		}
	}
	for _, n := range backslashContinued {
		if l := byName[n]; l != nil {
			l.continues = endsInBackslash
			l.backslashCont = true
		}
	}
	for n, p := range continued {
		if l := byName[n]; l != nil {
			l.backslashCont = false
			re := regexp.MustCompile("(?i)" + p)
			l.continues = re.MatchString
		}
	}
	for i := range clocLanguages {
		sp := &clocLanguages[i]
		if l := byName[sp.name]; l.continues == nil && !l.Script && len(l.Unsupported) == 0 && lineLocal(sp.filters) {
			l.lineFilters = l.filters[:len(l.filters)-1]
			l.filterNeeds = neededBytes(sp.filters[:len(sp.filters)-1])
		}
	}
	for e, ls := range ambig {
		if len(ls) == 1 {
			byExt[e] = ls[0]
			delete(ambig, e)
			continue
		}
		byExt[e] = byName[preferred[e]]
		if byExt[e] == nil {
			byExt[e] = ls[0]
		}
	}
	for f, n := range fileNames {
		if l := byName[n]; l != nil {
			byFile[f] = l
		}
	}
	for s, n := range scripts {
		if l := byName[n]; l != nil {
			byScript[s] = l
		}
	}

}

// ByName returns the language of that (cloc) name, or nil.
func ByName(name string) *Language {
	once.Do(load)
	return byName[name]
}

// Names lists every language of the table.
func Names() []string {
	once.Do(load)
	out := make([]string, 0, len(byName))
	for n := range byName {
		out = append(out, n)
	}
	return out
}

// Detect returns the language of a file from its path and its content
// (for #! lines, and the extensions cloc decides by content, which it
// reads whole), or nil when the file is in no language of the table.
func Detect(name string, head []byte) *Language {
	once.Do(load)
	base := path.Base(name)
	if strings.HasSuffix(base, "~") {
		return nil
	}
	if rule := contentRules[base]; rule != nil { // build.xml, pom.xml
		return rule(head)
	}
	if l := byFile[base]; l != nil {
		return l
	}
	parts := strings.Split(base, ".")
	if len(parts) > 1 {
		for k := 3; k >= 1; k-- {
			if len(parts)-1 < k {
				continue
			}
			ext := strings.Join(parts[len(parts)-k:], ".")
			if k == 3 && parts[0] == "" && len(parts) == 4 {
				continue
			}
			if l := resolve(ext, head); l != nil {
				return l
			}
			if contentRules[ext] != nil {
				return nil // cloc's content rule turned it down (a .tpl that is no Smarty)
			}
		}
	}
	// no extension, or one cloc does not map (setup.tt, tool.in): the
	// #! line's interpreter decides
	if bytes.HasPrefix(head, []byte("#!")) {
		return byShebang(head)
	}
	return nil
}

// byShebang reads the interpreter of a #! line.
func byShebang(head []byte) *Language {
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(string(line))
	if len(f) == 0 {
		return nil
	}
	prog := path.Base(f[0])
	if prog == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				prog = path.Base(a)
				break
			}
		}
	}
	return byScript[prog]
}

// resolve finds the language of an extension, looking at the content
// where cloc does (content.go).
func resolve(ext string, head []byte) *Language {
	if rule := contentRules[ext]; rule != nil {
		return rule(head)
	}
	return byExt[ext]
}

func endsInBackslash(s string) bool { return strings.HasSuffix(s, "\\") }
