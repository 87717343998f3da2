package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/dataset"
)

// ignoredShare is the share of findings someone marked as ignored.
const ignoredShare = 0.08

// finding is one issue of a project over its history: it shows in every
// snapshot from which it is present, with its own ID each time.
type finding struct {
	tool, rule, message, category, level, doc, path string
	start, end                                      int // 0: no location lines
	fingerprint                                     string
	ignored                                         bool
	from, to                                        int  // present in default-branch snapshots from ≤ i < to
	branchOnly                                      bool // only on the feature branch, from its snapshot branchFrom on
	branchFrom                                      int
	fixedOnBranch                                   bool // fixed on the feature branch after its first snapshot
}

// fingerprint is the stable identity of a finding: a hash of what it is and
// where, not of its line, so that it survives edits around it.
func fingerprint(tool, rule, path, message string) string {
	sum := sha256.Sum256([]byte(tool + "\x00" + rule + "\x00" + path + "\x00" + message))
	return hex.EncodeToString(sum[:])
}

// fillMessage expands a rule message template: {a-b} is a number in [a, b],
// {name} a word of the vocabulary.
func fillMessage(r *rand.Rand, tmpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		slot := tmpl[i+1 : i+j]
		if lo, hi, ok := strings.Cut(slot, "-"); ok && isNumber(lo) && isNumber(hi) {
			a, _ := strconv.Atoi(lo)
			z, _ := strconv.Atoi(hi)
			b.WriteString(strconv.Itoa(a + r.IntN(z-a+1)))
		} else if words, ok := vocabulary[slot]; ok {
			b.WriteString(words[r.IntN(len(words))])
		} else {
			b.WriteString(tmpl[i : i+j+1])
		}
		tmpl = tmpl[i+j+1:]
	}
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// findings draws a project's findings over its n default-branch snapshots,
// which span years (of a year, at most 1), as a real project's come and go:
// def.issues of them present at the latest (over a year, half since the
// first analysis or since their file exists, the others appearing one by
// one), about a third as many more (over a year) present for a while and
// fixed along the way, and, with a feature branch, some found only there.
func findings(r *rand.Rand, def *projectDef, h *history, n int, years float64) []*finding {
	var out []*finding
	seen := map[string]bool{}
	latest := n - 1
	add := func(f *finding) bool {
		f.fingerprint = fingerprint(f.tool, f.rule, f.path, f.message)
		if seen[f.fingerprint] {
			return false
		}
		seen[f.fingerprint] = true
		f.ignored = r.Float64() < ignoredShare
		out = append(out, f)
		return true
	}
	// setLines places a finding somewhere in a file of the given length.
	setLines := func(f *finding, lines int64, span int) {
		f.start = 1 + r.IntN(int(lines))
		f.end = min(f.start+r.IntN(span+1), int(lines))
	}
	// present decides when a finding still open at the latest snapshot
	// appeared.
	present := func(f *finding) {
		f.from, f.to = 0, n
		if latest > 0 && r.Float64() < 0.5*years {
			f.from = 1 + r.IntN(latest)
		}
		f.from = max(f.from, h.addedAt[f.path])
	}

	// Dependency alerts: trivy on the dependency files, no line numbers.
	files := h.paths(latest)
	for _, p := range files {
		if !isDependencyManifest(p) {
			continue
		}
		advs := advisoriesFor(p)
		for _, i := range r.Perm(len(advs))[:3+r.IntN(len(advs)-2)] {
			a := advs[i]
			f := &finding{tool: "trivy", rule: a.id, category: "dependency_alert", level: a.level, path: p,
				doc:     "https://avd.aquasec.com/nvd/" + strings.ToLower(a.id),
				message: a.pkg + " " + a.installed + ": " + a.title + " (fixed in " + a.fixed + ")"}
			present(f)
			add(f)
		}
	}
	// Secrets: a few, in configuration, fixtures and tests.
	var secretFiles []string
	for _, p := range files {
		if mayHoldSecret(p) {
			secretFiles = append(secretFiles, p)
		}
	}
	if len(secretFiles) > 0 {
		for k := 1 + r.IntN(4); k > 0; k-- {
			p := secretFiles[r.IntN(len(secretFiles))]
			sr := secretRules[r.IntN(len(secretRules))]
			f := &finding{tool: "gitleaks", rule: sr.key, category: "secret", level: "high", path: p, message: sr.message}
			setLines(f, h.states[latest][p].Lines, 0)
			present(f)
			add(f)
		}
	}
	// Everything else: rules on the files they apply to, more on bigger files.
	draw := func(state map[string]dataset.File, paths []string, want int, place func(*finding)) {
		var cands []string
		var cum []float64
		total := 0.0
		for _, p := range paths {
			if len(targetsOf(p)) == 0 {
				continue
			}
			w := 30.0
			if loc := state[p].LOC; loc > 0 {
				w += float64(loc)
			}
			total += w
			cands = append(cands, p)
			cum = append(cum, total)
		}
		if len(cands) == 0 {
			return
		}
		for attempts, limit := 0, 40*want+1000; want > 0 && attempts < limit; attempts++ {
			x := r.Float64() * total
			p := cands[sort.SearchFloat64s(cum, x)]
			rl := pickRule(r, targetsOf(p))
			if rl == nil {
				continue
			}
			f := &finding{tool: rl.tool, rule: rl.key, category: rl.category, level: rl.level, doc: rl.doc, path: p,
				message: fillMessage(r, rl.messages[r.IntN(len(rl.messages))])}
			setLines(f, state[p].Lines, rl.span)
			place(f)
			if add(f) {
				want--
			}
		}
	}
	draw(h.states[latest], files, def.issues-len(out), present)
	// Findings fixed along the way: drawn on the tree at the middle of each
	// sixth of the history, each open for a while around that point.
	if latest > 0 {
		const sixths = 6
		for b := range sixths {
			k := (2*b + 1) * latest / (2 * sixths)
			draw(h.states[k], h.paths(k), int(float64(def.issues)*0.3*years)/sixths, func(f *finding) {
				f.from = max(h.addedAt[f.path], r.IntN(k+1))
				f.to = k + 1 + r.IntN(latest-k)
			})
		}
	}
	// The feature branch fixes a few findings and brings its own.
	if fd := def.feature; fd != nil {
		for _, f := range out {
			f.fixedOnBranch = r.Float64() < 0.04
		}
		state := map[string]dataset.File{}
		for _, p := range sortedKeys(fd.files) {
			state[p] = dataset.File{Path: p, Lines: fd.files[p], LOC: fd.files[p] * 4 / 5}
		}
		draw(state, sortedKeys(fd.files), 14*len(fd.files), func(f *finding) {
			f.branchOnly = true
			f.branchFrom = r.IntN(fd.snapshots)
		})
	}
	return out
}

// pickRule chooses, by weight, a rule that applies to one of targets.
func pickRule(r *rand.Rand, targets []target) *rule {
	total := 0
	for i := range rules {
		if appliesTo(&rules[i], targets) {
			total += rules[i].weight
		}
	}
	if total == 0 {
		return nil
	}
	x := r.IntN(total)
	for i := range rules {
		if appliesTo(&rules[i], targets) {
			if x -= rules[i].weight; x < 0 {
				return &rules[i]
			}
		}
	}
	return nil
}

func appliesTo(rl *rule, targets []target) bool {
	for _, t := range rl.targets {
		for _, u := range targets {
			if t == u {
				return true
			}
		}
	}
	return false
}

// issueList makes a snapshot's issues from the findings present in it, in
// listing order. lines gives each path's length in that snapshot, to keep
// locations inside their files.
func (g *generator) issueList(at time.Time, present []*finding, lines func(string) int64) []dataset.Issue {
	out := make([]dataset.Issue, 0, len(present))
	for _, f := range present {
		is := dataset.Issue{
			ID: g.newID(at), Fingerprint: f.fingerprint, Tool: f.tool, RuleKey: f.rule, Message: f.message,
			Category: f.category, Level: f.level, Status: "open", DocumentationURL: f.doc, Path: f.path,
		}
		if f.ignored {
			is.Status = "ignored"
		}
		if f.start > 0 {
			n := int(lines(f.path))
			start := min(f.start, n)
			end := min(max(f.end, start), n)
			is.StartLine, is.EndLine = ptr(start), ptr(end)
		}
		out = append(out, is)
	}
	sortIssues(out)
	return out
}

// sortIssues puts issues in listing order: path, start line (none first),
// rule key, then fingerprint.
func sortIssues(list []dataset.Issue) {
	sort.Slice(list, func(i, j int) bool {
		a, b := &list[i], &list[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		as, bs := lineOf(a.StartLine), lineOf(b.StartLine)
		if as != bs {
			return as < bs
		}
		if a.RuleKey != b.RuleKey {
			return a.RuleKey < b.RuleKey
		}
		return a.Fingerprint < b.Fingerprint
	})
}

func lineOf(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
