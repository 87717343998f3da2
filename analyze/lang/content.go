package lang

import (
	"bytes"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// cloc 1.96 decides these extensions (and file names) by the file's
// content: each rule below scores the lines of the whole file as cloc's
// rule for it does (the facts: which patterns count for which language),
// and names the language, or nil when cloc leaves the file out.
var contentRules = map[string]func(src []byte) *Language{
	"m":   matlabOrObjC,
	"inc": phpOrPascalInc,
	"pp":  pascalOrPuppet,
	"cl":  func(src []byte) *Language { return lispOr(src, "OpenCL", `^\s*(int|float|const|\{)`) },
	"jl":  func(src []byte) *Language { return lispOr(src, "Julia", `^\s*(function|end|println|for|while)`) },
	"pl":  func(src []byte) *Language { return byName[perlOrProlog(src)] },
	"PL":  func(src []byte) *Language { return byName[perlOrProlog(src)] },
	"p6":  rakuOrProlog,
	"P6":  rakuOrProlog,
	"pro": idlOrQtProject,
	"d":   dOrScript,
	"f":   forthOrFortran,
	"for": forthOrFortran,
	"fs":  forthOrFsharp,
	"v":   verilogOrCoq,
	"tpl": smartyOrNothing,
	"ts":  typescriptOrLinguist,
	"ui":  qtOrGlade,
	"cs":  csharpOrSmalltalk,
	"sls": schemeOrSaltStack,
	"cls": vbOrTexOrApex,
	"b":   brainfuckOrNothing,
	"bf":  brainfuckOrNothing,
	"build.xml": func(src []byte) *Language {
		return xmlOr(src, "Ant", `xmlns:artifact="antlib:org.apache.maven.artifact.ant"`)
	},
	"pom.xml": func(src []byte) *Language { return xmlOr(src, "Maven", `xmlns="http://maven.apache.org/POM/`) },
}

// eachLine calls f with each line of src (without its newline) and its
// 1-based number, until f returns false.
func eachLine(src []byte, f func(n int, line string) bool) {
	n := 0
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		var l []byte
		if i < 0 {
			l, src = src, nil
		} else {
			l, src = src[:i], src[i+1:]
		}
		n++
		if !f(n, string(l)) {
			return
		}
	}
}

var reCache sync.Map // pattern → *regexp.Regexp

// re compiles a pattern once (the files are decided in parallel: reading
// the cache takes no lock).
func re(p string) *regexp.Regexp {
	if r, ok := reCache.Load(p); ok {
		return r.(*regexp.Regexp)
	}
	r, _ := reCache.LoadOrStore(p, regexp.MustCompile(p))
	return r.(*regexp.Regexp)
}

// best returns the language of the highest score, ties broken by name.
func best(points map[string]float64) *Language {
	names := make([]string, 0, len(points))
	for n := range points {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if points[names[i]] != points[names[j]] {
			return points[names[i]] > points[names[j]]
		}
		return names[i] < names[j]
	})
	return byName[names[0]]
}

func matlabOrObjC(src []byte) *Language {
	p := map[string]float64{"MATLAB": 0, "Mathematica": 0, "MUMPS": 0, "Objective-C": 0, "Mercury": 0}
	eachLine(src, func(n int, l string) bool {
		if n == 1 && re(`^[A-Z]`).MatchString(l) {
			p["MUMPS"]++
		}
		switch {
		case re(`^\s*/\*`).MatchString(l) || re(`^\s*//`).MatchString(l):
			p["Objective-C"] += 5
			p["MATLAB"] -= 5
		case re(`^:-\s+`).MatchString(l):
			p["Mercury"] = 1000
			return false
		case re(`\w+\s*=\s*\[`).MatchString(l):
			p["MATLAB"] += 5
		}
		switch {
		case re(`\w+\[`).MatchString(l):
			p["Mathematica"] += 2
		case re(`^\s*\w+\s*=\s*`).MatchString(l):
			p["MUMPS"]--
		case mumpsWords(l):
			p["MUMPS"]++
		case re(`^\s*;`).MatchString(l):
			p["MUMPS"]++
		}
		switch {
		case re(`^\s*#(include|import)`).MatchString(l):
			p["Objective-C"], p["MATLAB"] = 1000, 0
			return false
		case re(`^\s*@(interface|implementation|protocol|public|protected|private|end)\s`).MatchString(l + "\n"):
			p["Objective-C"], p["MATLAB"] = 1000, 0
			return false
		case re(`^\s*BeginPackage`).MatchString(l):
			p["Mathematica"] += 2
		case re(`^\s*\[`).MatchString(l):
			p["MATLAB"] += 5
		case re(`^\sK(ill)?\s+`).MatchString(l + "\n"):
			p["MUMPS"] += 5
		case re(`^\s*function`).MatchString(l):
			p["Objective-C"]--
			p["MATLAB"]++
		case re(`^\s*%`).MatchString(l):
			p["Objective-C"]--
			p["MATLAB"]++
		}
		return true
	})
	return best(p)
}

// mumpsWords: a line of two one-letter words (not digits), optionally
// after a dot.
func mumpsWords(l string) bool {
	m := re(`^\s*\.?(\w)\s+(\w)`).FindStringSubmatch(l)
	return m != nil && !isDigit(m[1][0]) && !isDigit(m[2][0])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func phpOrPascalInc(src []byte) *Language {
	if reallyPHP(src) {
		return byName["PHP"]
	}
	if reallyPascal(src) || reallyIncPascal(src) {
		return byName["Pascal"]
	}
	return nil
}

func reallyPHP(src []byte) bool {
	normal, script, asp := 0, 0, 0
	eachLine(src, func(_ int, l string) bool {
		if strings.Contains(l, "<?") {
			normal |= 1
		}
		if strings.Contains(l, "?>") && normal&1 != 0 {
			normal |= 2
		}
		if re(`(?i)<script.*language="?php"?`).MatchString(l) {
			script |= 1
		}
		if re(`(?i)</script>`).MatchString(l) && script&1 != 0 {
			script |= 2
		}
		if strings.Contains(l, "<%") {
			asp |= 1
		}
		if strings.Contains(l, "%>") && asp&1 != 0 {
			asp |= 2
		}
		return true
	})
	return normal == 3 || script == 3 || asp == 3
}

func stripPascalComments(l string) string {
	if !strings.Contains(l, "{") && !strings.Contains(l, "(*") {
		return l // nothing to strip (most lines): no regular expression run
	}
	l = re(`\{.*?\}`).ReplaceAllString(l, "")
	return re(`\(\*.*?\*\)`).ReplaceAllString(l, "")
}

func reallyPascal(src []byte) bool {
	var program, unit, module, procOrFn, begin, end bool
	eachLine(src, func(_ int, l string) bool {
		l = stripPascalComments(l)
		// each pattern needs its word, which (?i) matches only in ASCII
		// letters of either case: a line without it is not run
		low := strings.ToLower(l)
		has := func(w string) bool { return strings.Contains(low, w) }
		program = program || has("program") && re(`(?i)\bprogram\s+[A-Za-z]`).MatchString(l)
		unit = unit || has("unit") && re(`(?i)\bunit\s+[A-Za-z]`).MatchString(l)
		module = module || has("module") && re(`(?i)\bmodule\s+[A-Za-z]`).MatchString(l)
		procOrFn = procOrFn || (has("procedure") || has("function")) && re(`(?i)\b(procedure|function)\b`).MatchString(l) ||
			(has("interface") || has("implementation")) && re(`(?i)^\s*(interface|implementation)\s+`).MatchString(l+"\n")
		begin = begin || has("begin") && re(`(?i)\bbegin\b`).MatchString(l)
		end = end || has("end.") && re(`(?i)end\.\s*$`).MatchString(l)
		return true
	})
	return (unit || program) && procOrFn && begin && end || module && end || program && begin && end
}

func reallyIncPascal(src []byte) bool {
	found := false
	eachLine(src, func(_ int, l string) bool {
		l = stripPascalComments(l)
		low := strings.ToLower(l) // as in reallyPascal: a pattern runs on a line with its word
		for _, p := range [...]struct{ word, re string }{{"program", `(?i)\bprogram\s+[A-Za-z]`}, {"unit", `(?i)\bunit\s+[A-Za-z]`},
			{"module", `(?i)\bmodule\s+[A-Za-z]`}, {"procedure", `(?i)\bprocedure\b`}, {"function", `(?i)\bfunction\b`},
			{"constant", `(?i)\bconstant\s+`}, {"end.", `(?i)end\.\s*$`}} {
			if strings.Contains(low, p.word) && re(p.re).MatchString(l) {
				found = true
			}
		}
		if (strings.Contains(low, "interface") || strings.Contains(low, "implementation")) &&
			re(`(?i)^\s*(interface|implementation)\s+`).MatchString(l+"\n") {
			found = true
		}
		return !found
	})
	return found
}

func pascalOrPuppet(src []byte) *Language {
	pascal, puppet := 0.0, 0.0
	eachLine(src, func(_ int, l string) bool {
		if re(`^\s*#\s+`).MatchString(l + "\n") {
			puppet += .001
			return true
		}
		for _, p := range []string{`(?i)\bprogram\s+[A-Za-z]`, `(?i)\bunit\s+[A-Za-z]`, `(?i)\bmodule\s+[A-Za-z]`,
			`(?i)\bprocedure\b`, `(?i)\bfunction\b`, `(?i)^\s*interface\s+`, `(?i)^\s*implementation\s+`, `(?i)^\s*uses\s+`,
			`:=`, `<>`, `(?i)^\s*\{\$(I|INCLUDE)\s+.*\}`, `writeln`} {
			if re(p).MatchString(l + "\n") {
				pascal++
			}
		}
		// begin and end, not next to :: (RE2 has no look-behind)
		for _, w := range []string{"begin", "end"} {
			for _, m := range re(`(?i)\b`+w+`\b`).FindAllStringIndex(l, -1) {
				if !strings.HasSuffix(l[:m[0]], "::") && !strings.HasPrefix(l[m[1]:], "::") {
					pascal++
					break
				}
			}
		}
		if re(`^\s*class\s+`).MatchString(l) && !re(`class\s+operator\s+`).MatchString(l) {
			puppet++
		}
		for _, p := range []string{`^\s*function\s+[a-z][a-z0-9]+::[a-z][a-z0-9]+\s*`, `^\s*type\s+[A-Z]\w+::[A-Z]\w+\s+`,
			`^\s*case\s+`, `^\s*package\s+`, `^\s*file\s+`, `^\s*include\s\w+`, `^\s*service\s+`, `\s\$\w+\s*=\s*\S`, `\S\s*=>\s*\S`} {
			if re(p).MatchString(l + "\n") {
				puppet++
			}
		}
		return pascal-puppet <= 20 && puppet-pascal <= 20
	})
	if pascal > puppet {
		return byName["Pascal"]
	}
	return byName["Puppet"]
}

func lispOr(src []byte, other, otherRE string) *Language {
	lisp, o := 0, 0
	eachLine(src, func(_ int, l string) bool {
		if re(`^\s*;`).MatchString(l) {
			lisp++
		}
		if re(`\((def|eval|require|export|let|loop|dec|format)`).MatchString(l) {
			lisp++
		}
		if re(otherRE).MatchString(l) {
			o++
		}
		return true
	})
	if lisp > o {
		return byName["Lisp"]
	}
	return byName[other]
}

func perlOrProlog(src []byte) string {
	perl, prolog := 0, 0
	eachLine(src, func(n int, l string) bool {
		if isBlank(l) {
			return true
		}
		if n == 1 && re(`^#!.*?\bperl`).MatchString(l) {
			perl = 100
			return false
		}
		for _, p := range []string{`^=(head|over|item|cut)`, `;\s*$`, `(\{|\})`, `^\s*sub\s+`, `\s*<<'`, `\$(\w+->|[_!])`} {
			if re(p).MatchString(l) {
				perl++
			}
		}
		if !strings.Contains(l, "#") && re(`\.\s*$`).MatchString(l) {
			prolog++
		}
		if strings.Contains(l, ":-") {
			prolog++
		}
		return true
	})
	if perl > prolog {
		return "Perl"
	}
	return "Prolog"
}

func rakuOrProlog(src []byte) *Language {
	if perlOrProlog(src) == "Perl" {
		return byName["Raku"]
	}
	return byName["Prolog"]
}

func idlOrQtProject(src []byte) *Language {
	p := map[string]float64{"IDL": 0, "Qt Project": 0, "Prolog": 0, "ProGuard": 0}
	eachLine(src, func(_ int, l string) bool {
		add := func(lang, pat string) {
			if re(pat).MatchString(l) {
				p[lang]++
			}
		}
		add("IDL", `^\s*;`)
		add("IDL", `(?i)plot\(`)
		add("Qt Project", `(?i)^\s*(qt|configs|sources|template|target|targetpath|subdirs)\b`)
		add("Qt Project", `(?i)qthavemodule`)
		add("Prolog", `\.\s*$`)
		add("Prolog", `:-`)
		add("ProGuard", `^\s*#`)
		add("ProGuard", `^-keep`)
		add("ProGuard", `^-(dont)?obfuscate`)
		return true
	})
	return best(p)
}

// dOrScript: a .d file is D unless its first line is a #! line (an
// init.d script), which names its language, or none cloc knows.
func dOrScript(src []byte) *Language {
	first, _, _ := bytes.Cut(src, []byte("\n"))
	m := re(`^#!\s*(\S.*?)$`).FindSubmatch(first)
	if m == nil {
		return byName["D"]
	}
	f := strings.Fields(string(m[1]))
	prog := path.Base(f[0])
	if prog == "env" && len(f) > 1 {
		prog = f[1]
	}
	return byScript[prog]
}

func forthOrFortran(src []byte) *Language {
	forth, fortran := 0, 0
	eachLine(src, func(_ int, l string) bool {
		if re(`^:\s`).MatchString(l + "\n") {
			forth++
		}
		if re(`(?i)^([c*][^a-z]|\s{6,}(subroutine|program|end|implicit)\s|\s*!)`).MatchString(l + "\n") {
			fortran++
		}
		return true
	})
	if forth > fortran {
		return byName["Forth"]
	}
	return byName["Fortran 77"]
}

func forthOrFsharp(src []byte) *Language {
	forth, fs := 0, 0
	eachLine(src, func(_ int, l string) bool {
		if re(`^:\s`).MatchString(l + "\n") {
			forth++
		}
		if re(`^\s*(#light|import|let|module|namespace|open|type)`).MatchString(l) {
			fs++
		}
		return true
	})
	if forth > fs {
		return byName["Forth"]
	}
	return byName["F#"]
}

func verilogOrCoq(src []byte) *Language {
	coq, verilog := 0, 0
	eachLine(src, func(_ int, l string) bool {
		if re(`^\s*(module|begin|input|output|always)`).MatchString(l) {
			verilog++
		}
		if re(`\b(Inductive|Fixpoint|Definition|Theorem|Lemma|Proof|Qed|forall|Section|Check|Notation|Variable|Goal|Fail|Require|Scheme|Module|Ltac|Set|Unset|Parameter|Coercion|Axiom|Locate|Type|Record|Existing|Class)\b`).MatchString(l) {
			coq++
		}
		return true
	})
	if coq > verilog {
		return byName["Coq"]
	}
	return byName["Verilog-SystemVerilog"]
}

// smartyOrNothing: a .tpl file is Smarty when two lines look like Smarty
// ({if …}, {/if}, {* *}, {$x}); otherwise cloc leaves it out.
func smartyOrNothing(src []byte) *Language {
	points := 0
	eachLine(src, func(_ int, l string) bool {
		if re(`\{(if|include)\s`).MatchString(l+"\n") || strings.Contains(l, "{/if}") || strings.Contains(l, "{*") ||
			strings.Contains(l, "*}") || re(`\{\$\w`).MatchString(l) {
			points++
		}
		return points < 2
	})
	if points >= 2 {
		return byName["Smarty"]
	}
	return nil
}

func typescriptOrLinguist(src []byte) *Language {
	ts, linguist := 0, 0
	eachLine(src, func(_ int, l string) bool {
		if re(`\b</?(message|source|translation)>`).MatchString(l) {
			linguist++
		}
		if re(`^\s*(var|const|let|class|document)\b`).MatchString(l) {
			ts++
		}
		if re(`[;}]\s*$`).MatchString(l) {
			ts++
		}
		if re(`^\s*//`).MatchString(l) {
			ts++
		}
		return true
	})
	if ts >= linguist {
		return byName["TypeScript"]
	}
	return byName["Qt Linguist"]
}

func qtOrGlade(src []byte) *Language {
	glade := false
	eachLine(src, func(_ int, l string) bool {
		glade = re(`(?i)generated\s+with\s+glade`).MatchString(l)
		return !glade
	})
	if glade {
		return byName["Glade"]
	}
	return byName["Qt"]
}

func csharpOrSmalltalk(src []byte) *Language {
	cs, st := 0, 0
	eachLine(src, func(_ int, l string) bool {
		l = re(`//.*?$`).ReplaceAllString(l, "")
		if isBlank(l) {
			return true
		}
		switch {
		case re(`[;}{]\s*$`).MatchString(l):
			cs++
		case re(`^(using|namespace)\s`).MatchString(l + "\n"):
			cs += 20
		case re(`^\s*(public|private|new)\s`).MatchString(l + "\n"):
			cs += 20
		case re(`^\s*\[assembly:`).MatchString(l):
			cs++
		}
		if re(`(!|\]\.)\s*$`).MatchString(l) {
			st++
			cs--
		}
		return true
	})
	if st > cs {
		return byName["Smalltalk"]
	}
	// C# Generated: the first two lines are a rule of dashes and an
	// <auto-generated> comment
	two := 0
	var head strings.Builder
	eachLine(src, func(_ int, l string) bool {
		head.WriteString(l)
		two++
		return two < 2
	})
	if re(`^//-{70,}.*?//\s+<auto-generated>`).MatchString(head.String()) {
		return byName["C# Generated"]
	}
	return byName["C#"]
}

func schemeOrSaltStack(src []byte) *Language {
	sch, ss := 0, 0
	eachLine(src, func(_ int, l string) bool {
		switch {
		case isBlank(l):
		case re(`\{%.*%\}`).MatchString(l), re(`map\.jinja\b`).MatchString(l):
			ss += 5
		case re(`\((define|lambda|let|cond|do)\s`).MatchString(l):
			sch++
		}
		return true
	})
	if sch > ss {
		return byName["Scheme"]
	}
	return byName["SaltStack"]
}

func vbOrTexOrApex(src []byte) *Language {
	p := map[string]float64{"Visual Basic": 0, "TeX": 0, "Apex Class": 0}
	eachLine(src, func(_ int, l string) bool {
		if isBlank(l) {
			return true
		}
		if strings.Contains(l, "%") || strings.Contains(l, `\`) {
			p["TeX"]++
			return true
		}
		if re(`^(?i)\s*(public|private)\s`).MatchString(l + "\n") {
			p["Visual Basic"]++
			p["Apex Class"]++
		} else if re(`(?i)^\s*(end|attribute|version)\s`).MatchString(l + "\n") {
			p["Visual Basic"]++
		}
		if strings.ContainsAny(l, "{}") || re(`;\s*$`).MatchString(l) {
			p["Apex Class"]++
		}
		return true
	})
	return best(p)
}

func brainfuckOrNothing(src []byte) *Language {
	n, lines := 0, 0
	eachLine(src, func(_ int, l string) bool {
		lines++
		if re(`([+-]{4,}|[\[\]]{4,}|[<>][+-]|<{3,}|^\s*[\[\]]\s*$)`).MatchString(l) {
			n++
		}
		return true
	})
	if lines > 0 && float64(n)/float64(lines) > 0.5 || n > 5 {
		return byName["Brainfuck"]
	}
	return nil
}

// xmlOr: build.xml is Ant and pom.xml Maven when they look it, else XML.
func xmlOr(src []byte, lang, marker string) *Language {
	points, xml := 0, 1
	eachLine(src, func(_ int, l string) bool {
		if re(`^\s*<project\s+`).MatchString(l + "\n") {
			points++
			xml--
		}
		if strings.Contains(l, marker) {
			points++
			xml--
		}
		return true
	})
	if xml >= points {
		return byName["XML"]
	}
	return byName[lang]
}
