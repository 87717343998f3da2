// Package sarif reads SARIF 2.1.0 logs, the static-analysis result format of
// golangci-lint, staticcheck, gosec, ESLint, Semgrep, CodeQL, Trivy, gitleaks
// and many others, into Plumb issues.
//
// Every run and every result of a log becomes an issue with the tool's name,
// the rule, the message (message templates filled in), a level and a
// category (mapping.go and docs/sarif.md), the rule's documentation URL, a
// repository-relative location and a fingerprint that does not change when
// lines above the finding move.
//
// The log is read as a token stream: one result at a time is decoded, so a
// large log costs memory for its rules and a small record per result, never
// for the whole document. A malformed log is a *ParseError naming the JSON
// element, its line and what was expected; no issue is handed over then.
package sarif

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/extsort"

	"github.com/plumbhq/plumb/internal/jsonstream"
)

// Options maps the locations a log names to repository-relative paths.
type Options struct {
	// StripPrefix is removed from the start of every path (after
	// normalising; a trailing "/" is implied), AddPrefix then prepended.
	StripPrefix string
	AddPrefix   string
	// RepoRoot is the absolute path of the checkout the tool ran in (for
	// example $GITHUB_WORKSPACE), as a path or a file:// URI. It is removed
	// from absolute file:// locations, which ESLint and others write.
	RepoRoot string
	// OnRun, when set, is told the tool id of every run, in order, once the
	// whole log has been read without error: runs without results too, so
	// that a caller replacing a tool's issues learns of a clean run.
	OnRun func(tool string)
	// OnSkip, when set, is told about every result that gives no issue
	// (after the whole log has been read without error).
	OnSkip func(Skip)
	// TempDir holds the issues of a log while it is read (the system's
	// temporary folder when empty).
	TempDir string
}

// Skip is a result that gave no issue, and why.
type Skip struct {
	Element string // JSON path of the result, such as "runs[0].results[3]"
	Line    int    // line of the log the result starts on
	Tool    string
	RuleKey string
	Reason  string
}

// Parse reads a SARIF 2.1.0 log and returns its issues in the log's order.
// The ID, ProjectID and SnapshotID of the issues are left empty. It holds
// every issue in memory: large logs are for ParseEach.
func Parse(r io.Reader, opt Options) ([]plumb.Issue, error) {
	type numbered struct {
		idx int64
		is  plumb.Issue
	}
	var all []numbered
	err := parse(r, opt, func(idx int64, is plumb.Issue) error {
		all = append(all, numbered{idx, is})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b numbered) int { return cmp.Compare(a.idx, b.idx) })
	out := make([]plumb.Issue, len(all))
	for i := range all {
		out[i] = all[i].is
	}
	return out, nil
}

// ParseEach reads a SARIF 2.1.0 log in bounded memory and calls fn with each
// issue, grouped by file (not in the log's order). The issues wait in
// temporary files (in Options.TempDir) until the whole log has been read
// without error: a fingerprint depends on the other results for the same
// file, and a malformed log must leave nothing stored. An error of fn stops
// the walk and is returned as is.
func ParseEach(r io.Reader, opt Options, fn func(plumb.Issue) error) error {
	return parse(r, opt, func(_ int64, is plumb.Issue) error { return fn(is) })
}

// Memory budgets of the temporary stores of a parse (variables for tests).
var (
	pendingBudget = 4 << 20  // one run's issues until its locations resolve
	sortBudget    = 16 << 20 // issues being sorted for their fingerprints
)

// parse reads the log, then calls fn with each issue and its index in the
// log's order.
func parse(r io.Reader, opt Options, fn func(idx int64, is plumb.Issue) error) error {
	p := &parser{s: newStream(r), opt: opt,
		pending: extsort.NewSpool(opt.TempDir, pendingBudget),
		early:   extsort.NewSpool(opt.TempDir, pendingBudget),
		sorted:  extsort.New(opt.TempDir, sortBudget, compareGrouped)}
	defer p.pending.Close()
	defer p.early.Close()
	defer p.sorted.Close()
	if err := p.log(); err != nil {
		return err
	}
	if opt.OnRun != nil {
		for _, tool := range p.tools {
			opt.OnRun(tool)
		}
	}
	if opt.OnSkip != nil {
		sort.SliceStable(p.skips, func(i, j int) bool {
			a, b := p.skips[i], p.skips[j]
			return a.run < b.run || (a.run == b.run && a.n < b.n)
		})
		for _, sk := range p.skips {
			opt.OnSkip(sk.Skip)
		}
	}
	return p.fingerprint(fn)
}

// The parts of SARIF 2.1.0 Plumb reads. Everything else is skipped.

type multiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type propertyBag struct {
	Tags             tagList         `json:"tags"`
	SecuritySeverity json.RawMessage `json:"security-severity"`
}

// tagList reads properties.tags leniently: tags are a convention, and older
// tools wrote nested arrays or single strings; non-string entries are dropped.
type tagList []string

func (t *tagList) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil
	}
	var add func(any)
	add = func(v any) {
		switch x := v.(type) {
		case string:
			*t = append(*t, x)
		case []any:
			for _, e := range x {
				add(e)
			}
		}
	}
	add(v)
	return nil
}

type reportingDescriptor struct {
	ID                   string                 `json:"id"`
	Name                 string                 `json:"name"`
	ShortDescription     *multiformat           `json:"shortDescription"`
	FullDescription      *multiformat           `json:"fullDescription"`
	MessageStrings       map[string]multiformat `json:"messageStrings"`
	HelpURI              string                 `json:"helpUri"`
	DefaultConfiguration *struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	Properties propertyBag `json:"properties"`
}

type toolComponent struct {
	Name                 string                 `json:"name"`
	Rules                []reportingDescriptor  `json:"rules"`
	GlobalMessageStrings map[string]multiformat `json:"globalMessageStrings"`

	byID map[string]int
}

type tool struct {
	Driver     *toolComponent  `json:"driver"`
	Extensions []toolComponent `json:"extensions"`
}

type artifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
	Index     *int   `json:"index"`
}

type region struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
}

type location struct {
	PhysicalLocation *struct {
		ArtifactLocation *artifactLocation `json:"artifactLocation"`
		Region           *region           `json:"region"`
	} `json:"physicalLocation"`
}

type message struct {
	Text      string   `json:"text"`
	Markdown  string   `json:"markdown"`
	ID        string   `json:"id"`
	Arguments []string `json:"arguments"`
}

type result struct {
	RuleID    string `json:"ruleId"`
	RuleIndex *int   `json:"ruleIndex"`
	Rule      *struct {
		ID            string `json:"id"`
		Index         *int   `json:"index"`
		ToolComponent *struct {
			Name  string `json:"name"`
			Index *int   `json:"index"`
		} `json:"toolComponent"`
	} `json:"rule"`
	Kind                string            `json:"kind"`
	Level               string            `json:"level"`
	Message             *message          `json:"message"`
	Locations           []location        `json:"locations"`
	AnalysisTarget      *artifactLocation `json:"analysisTarget"`
	Fingerprints        map[string]string `json:"fingerprints"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Suppressions        []struct {
		Status string `json:"status"`
	} `json:"suppressions"`
	BaselineState string      `json:"baselineState"`
	Properties    propertyBag `json:"properties"`
}

// run is what a run's results need to become issues. SARIF does not order a
// run's properties: a result read before the run's tool waits (its JSON, in
// parser.early) until the run ends; one read after it becomes a pending
// issue (in parser.pending) at once. Locations are resolved when the run
// ends, since originalUriBaseIds and artifacts may come after the results.
type run struct {
	index     int
	path      string
	start     int64
	tool      *tool
	toolName  string
	bases     map[string]artifactLocation
	artifacts []*artifactLocation
}

type pendingResult struct {
	res       result
	run, n    int   // runs[run].results[n]
	start     int64 // offset of the result in the log
	line, col int
}

func (pr *pendingResult) path() string { return resultPath(pr.run, pr.n) }

func resultPath(run, n int) string { return fmt.Sprintf("runs[%d].results[%d]", run, n) }

// errAt is a ParseError about an element of the result, placed at the
// result's start (its bytes may be gone when the run ends).
func (pr *pendingResult) errAt(p *parser, rel, format string, args ...any) *ParseError {
	return &ParseError{Path: joinPath(pr.path(), rel), Line: pr.line, Column: pr.col,
		Offset: pr.start + int64(p.s.lr.bom), Msg: fmt.Sprintf(format, args...)}
}

// pendingIssue is an issue whose location waits for the end of its run.
type pendingIssue struct {
	is     plumb.Issue
	basis  string // what identifies the finding in its file (see basis)
	loc    *artifactLocation
	region *region
	run, n int // the result's place
	line   int
}

func (pi *pendingIssue) encode(b []byte) []byte {
	is := &pi.is
	for _, v := range []string{is.RuleKey, is.Message, is.Category, is.Level, is.Status, is.DocumentationURL, pi.basis} {
		b = extsort.AppendString(b, v)
	}
	if pi.loc == nil {
		b = extsort.AppendInt(b, 0)
	} else {
		idx := int64(-1)
		if pi.loc.Index != nil {
			idx = int64(*pi.loc.Index)
		}
		b = extsort.AppendInt(b, 1)
		b = extsort.AppendString(b, pi.loc.URI)
		b = extsort.AppendString(b, pi.loc.URIBaseID)
		b = extsort.AppendInt(b, idx)
	}
	if pi.region == nil {
		b = extsort.AppendInt(b, 0)
	} else {
		b = extsort.AppendInt(b, 1)
		b = extsort.AppendInt(b, int64(pi.region.StartLine))
		b = extsort.AppendInt(b, int64(pi.region.EndLine))
	}
	for _, v := range []int{pi.run, pi.n, pi.line} {
		b = extsort.AppendInt(b, int64(v))
	}
	return b
}

func decodePending(rec []byte, tool string) (pendingIssue, error) {
	r := extsort.NewReader(rec)
	var pi pendingIssue
	is := &pi.is
	is.Tool = tool
	for _, v := range []*string{&is.RuleKey, &is.Message, &is.Category, &is.Level, &is.Status, &is.DocumentationURL, &pi.basis} {
		*v = r.String()
	}
	if r.Int() == 1 {
		pi.loc = &artifactLocation{URI: r.String(), URIBaseID: r.String()}
		if idx := int(r.Int()); idx >= 0 {
			pi.loc.Index = &idx
		}
	}
	if r.Int() == 1 {
		pi.region = &region{StartLine: int(r.Int()), EndLine: int(r.Int())}
	}
	pi.run, pi.n, pi.line = int(r.Int()), int(r.Int()), int(r.Int())
	return pi, r.Err()
}

type skipped struct {
	Skip
	run, n int
}

type parser struct {
	s     *stream
	opt   Options
	tools []string // of each run
	skips []skipped
	memo  map[string][2]string // classify's answers

	early   *extsort.Spool  // the run's results read before its tool (JSON)
	pending *extsort.Spool  // the run's issues until their locations resolve
	sorted  *extsort.Sorter // resolved issues by group, line and index
	kept    int64           // issues resolved so far
	rec     []byte          // scratch record
}

// classify is the package's classify, remembered: a report repeats rules.
func (p *parser) classify(tool, rule, msg string, tags []string) (string, string) {
	code := messageCode(msg)
	key := lenPrefixed(append([]string{tool, rule, code}, tags...)...)
	if v, ok := p.memo[key]; ok {
		return v[0], v[1]
	}
	c, l := classify(tool, rule, code, tags)
	if p.memo == nil {
		p.memo = map[string][2]string{}
	}
	p.memo[key] = [2]string{c, l}
	return c, l
}

// log reads the top-level object.
func (p *parser) log() error {
	s := p.s
	if _, err := s.open("", '{', `a SARIF log: a JSON object with "version" and "runs"`, false); err != nil {
		return err
	}
	var sawVersion, sawRuns bool
	for {
		k, ok, err := s.key("")
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch k {
		case "version":
			t, err := s.token("version")
			if err != nil {
				return err
			}
			if v, isStr := t.(string); !isStr || v != "2.1.0" {
				found := jsonstream.Kind(t)
				if isStr {
					found = strconv.Quote(v)
				}
				return s.errAt("version", s.lastStart, `expected "2.1.0" (Plumb reads SARIF 2.1.0), found %s`, found)
			}
			sawVersion = true
		case "runs":
			if sawRuns {
				return s.errAt("runs", s.lastStart, `expected one "runs" array, found a second`)
			}
			sawRuns = true
			if err := p.runs(); err != nil {
				return err
			}
		default:
			if err := s.skip(k); err != nil {
				return err
			}
		}
	}
	// Nothing but white space may follow the log.
	end := s.dec.InputOffset()
	if _, err := s.dec.Token(); err != io.EOF {
		return s.errAt("", s.lr.skip(end, space), "expected the end of input after the SARIF log, found more data")
	}
	if !sawVersion {
		return &ParseError{Path: "version", Msg: `expected "2.1.0", the SARIF version; the log has no "version"`}
	}
	if !sawRuns {
		return &ParseError{Path: "runs", Msg: `expected an array of runs; the log has no "runs"`}
	}
	return nil
}

func (p *parser) runs() error {
	if _, err := p.s.open("runs", '[', "an array of runs", false); err != nil {
		return err
	}
	for i := 0; p.s.dec.More(); i++ {
		if err := p.run(i); err != nil {
			return err
		}
	}
	_, err := p.s.token("runs") // ']'
	return err
}

func (p *parser) run(i int) error {
	s := p.s
	rc := &run{index: i, path: fmt.Sprintf("runs[%d]", i)}
	if _, err := s.open(rc.path, '{', "a run object", false); err != nil {
		return err
	}
	rc.start = s.lastStart
	for {
		k, ok, err := s.key(rc.path)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		kpath := rc.path + "." + k
		switch k {
		case "tool":
			rc.tool = &tool{}
			raw, start, err := s.decode(kpath, rc.tool)
			if err != nil {
				return err
			}
			if err := p.checkTool(rc, raw, start); err != nil {
				return err
			}
		case "results":
			if err := p.results(rc); err != nil {
				return err
			}
		case "originalUriBaseIds":
			if _, _, err := s.decode(kpath, &rc.bases); err != nil {
				return err
			}
		case "artifacts":
			if err := p.artifacts(rc); err != nil {
				return err
			}
		default:
			if err := s.skip(kpath); err != nil {
				return err
			}
		}
	}
	if rc.tool == nil {
		return s.errAt(rc.path+".tool", rc.start, "expected the tool that produced the run; the run has none")
	}
	p.tools = append(p.tools, rc.toolName)
	return p.finishRun(rc)
}

var (
	sarifLevels = []string{"error", "warning", "note", "none"}
	sarifKinds  = []string{"fail", "pass", "open", "review", "informational", "notApplicable"}
	suppression = []string{"accepted", "underReview", "rejected"}
)

// oneOf reports whether v is in list, ignoring case, and returns its
// canonical spelling.
func oneOf(v string, list []string) (string, bool) {
	for _, s := range list {
		if strings.EqualFold(v, s) {
			return s, true
		}
	}
	return "", false
}

func (p *parser) checkTool(rc *run, raw []byte, start int64) error {
	path := rc.path + ".tool"
	t := rc.tool
	if t.Driver == nil {
		return p.s.errAt(path+".driver", start, "expected the tool's driver component; the tool has none")
	}
	if strings.TrimSpace(t.Driver.Name) == "" {
		return p.s.elementErr(path, raw, start, "driver", "expected the tool's name in driver.name")
	}
	rc.toolName = toolID(t.Driver.Name)
	comps := []*toolComponent{t.Driver}
	rels := []string{"driver"}
	for j := range t.Extensions {
		comps = append(comps, &t.Extensions[j])
		rels = append(rels, fmt.Sprintf("extensions[%d]", j))
	}
	for c, comp := range comps {
		comp.byID = make(map[string]int, len(comp.Rules))
		for k := range comp.Rules {
			rule := &comp.Rules[k]
			if _, dup := comp.byID[rule.ID]; !dup {
				comp.byID[rule.ID] = k
			}
			if dc := rule.DefaultConfiguration; dc != nil && dc.Level != "" {
				lv, ok := oneOf(dc.Level, sarifLevels)
				if !ok {
					rel := fmt.Sprintf("%s.rules[%d].defaultConfiguration.level", rels[c], k)
					return p.s.elementErr(path, raw, start, rel, "expected one of %s, found %q", strings.Join(sarifLevels, ", "), dc.Level)
				}
				dc.Level = lv
			}
		}
	}
	return nil
}

func (p *parser) artifacts(rc *run) error {
	s := p.s
	path := rc.path + ".artifacts"
	ok, err := s.open(path, '[', "an array of artifacts", true)
	if err != nil || !ok {
		return err
	}
	for j := 0; s.dec.More(); j++ {
		var a struct {
			Location *artifactLocation `json:"location"`
		}
		if _, _, err := s.decode(fmt.Sprintf("%s[%d]", path, j), &a); err != nil {
			return err
		}
		rc.artifacts = append(rc.artifacts, a.Location)
		s.lr.release(s.dec.InputOffset())
	}
	_, err = s.token(path)
	return err
}

func (p *parser) results(rc *run) error {
	s := p.s
	path := rc.path + ".results"
	ok, err := s.open(path, '[', "an array of results", true)
	if err != nil || !ok {
		return err // null: the tool did not produce results
	}
	for j := 0; s.dec.More(); j++ {
		pr := pendingResult{run: rc.index, n: j}
		raw, start, err := s.decode(pr.path(), &pr.res)
		if err != nil {
			return err
		}
		pr.start = start
		pr.line, pr.col = s.lr.pos(start)
		if err := p.checkResult(&pr, raw, start); err != nil {
			return err
		}
		if rc.tool != nil {
			if err := p.result(rc, &pr); err != nil {
				return err
			}
		} else if err := p.early.Add(pr.encodeEarly(raw)); err != nil {
			return err
		}
		s.lr.release(s.dec.InputOffset())
	}
	_, err = s.token(path)
	return err
}

// checkResult validates what can be checked without the run's tool.
func (p *parser) checkResult(pr *pendingResult, raw []byte, start int64) error {
	s, res := p.s, &pr.res
	if res.Message == nil {
		return pr.errAt(p, "message", `expected a message object with "text" or "id"; the result has none`)
	}
	if res.RuleID == "" && (res.Rule == nil || (res.Rule.ID == "" && (res.Rule.Index == nil || *res.Rule.Index < 0))) &&
		(res.RuleIndex == nil || *res.RuleIndex < 0) {
		return pr.errAt(p, "ruleId", "expected the rule that produced the result (ruleId, rule.id or ruleIndex); the result has none")
	}
	if res.Kind != "" {
		k, ok := oneOf(res.Kind, sarifKinds)
		if !ok {
			return s.elementErr(pr.path(), raw, start, "kind", "expected one of %s, found %q", strings.Join(sarifKinds, ", "), res.Kind)
		}
		res.Kind = k
	}
	if res.Level != "" {
		lv, ok := oneOf(res.Level, sarifLevels)
		if !ok {
			return s.elementErr(pr.path(), raw, start, "level", "expected one of %s, found %q", strings.Join(sarifLevels, ", "), res.Level)
		}
		res.Level = lv
	}
	for k := range res.Suppressions {
		st := &res.Suppressions[k].Status
		if *st == "" {
			continue
		}
		v, ok := oneOf(*st, suppression)
		if !ok {
			return s.elementErr(pr.path(), raw, start, fmt.Sprintf("suppressions[%d].status", k),
				"expected one of %s, found %q", strings.Join(suppression, ", "), *st)
		}
		*st = v
	}
	return nil
}

// encodeEarly keeps a result read before its run's tool: its place and JSON.
func (pr *pendingResult) encodeEarly(raw []byte) []byte {
	b := extsort.AppendInt(nil, int64(pr.run))
	for _, v := range []int64{int64(pr.n), pr.start, int64(pr.line), int64(pr.col)} {
		b = extsort.AppendInt(b, v)
	}
	return extsort.AppendString(b, string(raw))
}

// finishRun turns the results that came before the tool into pending
// issues, then resolves the locations of all the run's issues, which go to
// the sort for their fingerprints.
func (p *parser) finishRun(rc *run) error {
	err := p.early.Each(func(rec []byte) error {
		r := extsort.NewReader(rec)
		pr := pendingResult{run: int(r.Int()), n: int(r.Int()), start: r.Int(), line: int(r.Int()), col: int(r.Int())}
		raw := r.Bytes()
		if err := r.Err(); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &pr.res); err != nil {
			return err
		}
		// Checked when read: this only puts the values in canonical form.
		if err := p.checkResult(&pr, raw, pr.start); err != nil {
			return err
		}
		return p.result(rc, &pr)
	})
	if err != nil {
		return err
	}
	if err := p.early.Reset(); err != nil {
		return err
	}
	err = p.pending.Each(func(rec []byte) error {
		pi, err := decodePending(rec, rc.toolName)
		if err != nil {
			return err
		}
		is := &pi.is
		file, start, end, reason := p.location(rc, pi.loc, pi.region)
		if reason != "" {
			p.skip(pi.run, pi.n, pi.line, is.Tool, is.RuleKey, reason)
			return nil
		}
		is.Path, is.StartLine, is.EndLine = file, start, end
		group := sha256.Sum256([]byte("plumb-sarif-1" + lenPrefixed(is.Tool, is.RuleKey, is.Path, pi.basis)))
		p.rec = encodeGrouped(p.rec[:0], group, p.kept, is)
		p.kept++
		return p.sorted.Add(p.rec)
	})
	if err != nil {
		return err
	}
	return p.pending.Reset()
}

func (p *parser) skip(run, n, line int, tool, ruleKey, reason string) {
	if p.opt.OnSkip == nil {
		return // nobody asks: keep no record per skipped result
	}
	p.skips = append(p.skips, skipped{Skip{Element: resultPath(run, n), Line: line, Tool: tool, RuleKey: ruleKey, Reason: reason}, run, n})
}

func (p *parser) result(rc *run, pr *pendingResult) error {
	res := &pr.res
	desc, comp, ruleKey, err := p.rule(rc, pr)
	if err != nil {
		return err
	}
	switch {
	case res.Kind == "pass" || res.Kind == "notApplicable":
		p.skip(pr.run, pr.n, pr.line, rc.toolName, ruleKey, "kind "+res.Kind+": not a finding")
		return nil
	case res.BaselineState == "absent":
		p.skip(pr.run, pr.n, pr.line, rc.toolName, ruleKey, "baselineState absent: the finding is no longer present")
		return nil
	}
	m := pendingIssue{run: pr.run, n: pr.n, line: pr.line}
	// The first physical location, else the analysis target.
	for _, l := range res.Locations {
		if pl := l.PhysicalLocation; pl != nil && pl.ArtifactLocation != nil {
			m.loc, m.region = pl.ArtifactLocation, pl.Region
			break
		}
	}
	if m.loc == nil {
		m.loc = res.AnalysisTarget
	}
	msg := messageText(res.Message, desc, comp, ruleKey)
	var tags []string
	var ruleProps propertyBag
	if desc != nil {
		ruleProps = desc.Properties
		tags = append(tags, desc.Properties.Tags...)
	}
	tags = append(tags, res.Properties.Tags...)
	category, fixedLevel := p.classify(rc.toolName, ruleKey, msg, tags)
	is := plumb.Issue{
		Tool:     rc.toolName,
		RuleKey:  ruleKey,
		Message:  msg,
		Category: category,
		Level:    issueLevel(res, desc, fixedLevel, res.Properties, ruleProps),
		Status:   "open",
	}
	for _, sup := range res.Suppressions {
		if sup.Status == "" || sup.Status == "accepted" {
			is.Status = "ignored"
		}
	}
	if desc != nil {
		is.DocumentationURL = httpURL(desc.HelpURI)
	}
	m.basis = basis(res, msg)
	m.is = is
	p.rec = m.encode(p.rec[:0])
	return p.pending.Add(p.rec)
}

// rule finds the rule descriptor of a result (nil when the tool lists none),
// its tool component and the rule key.
func (p *parser) rule(rc *run, pr *pendingResult) (*reportingDescriptor, *toolComponent, string, error) {
	res := &pr.res
	t := rc.tool
	comp, compPath := t.Driver, rc.path+".tool.driver"
	explicit := false
	if res.Rule != nil && res.Rule.ToolComponent != nil {
		tc := res.Rule.ToolComponent
		switch {
		case tc.Index != nil && *tc.Index >= 0:
			if *tc.Index >= len(t.Extensions) {
				return nil, nil, "", pr.errAt(p, "rule.toolComponent.index",
					"expected an index into %s.tool.extensions (%d components), found %d", rc.path, len(t.Extensions), *tc.Index)
			}
			comp, compPath, explicit = &t.Extensions[*tc.Index], fmt.Sprintf("%s.tool.extensions[%d]", rc.path, *tc.Index), true
		case tc.Name != "":
			for j := range t.Extensions {
				if t.Extensions[j].Name == tc.Name {
					comp, compPath, explicit = &t.Extensions[j], fmt.Sprintf("%s.tool.extensions[%d]", rc.path, j), true
					break
				}
			}
		}
	}
	id := res.RuleID
	if id == "" && res.Rule != nil {
		id = res.Rule.ID
	}
	idx, idxPath := -1, ""
	switch {
	case res.Rule != nil && res.Rule.Index != nil && *res.Rule.Index >= 0:
		idx, idxPath = *res.Rule.Index, "rule.index"
	case res.RuleIndex != nil && *res.RuleIndex >= 0:
		idx, idxPath = *res.RuleIndex, "ruleIndex"
	}
	var desc *reportingDescriptor
	if idx >= 0 {
		if idx >= len(comp.Rules) {
			return nil, nil, "", pr.errAt(p, idxPath, "expected an index into %s.rules (%d rules), found %d", compPath, len(comp.Rules), idx)
		}
		desc = &comp.Rules[idx]
	} else {
		search := []*toolComponent{comp}
		if !explicit {
			for j := range t.Extensions {
				search = append(search, &t.Extensions[j])
			}
		}
		// A ruleId may be more specific than its descriptor ("CA2000/1").
	find:
		for key := id; key != ""; {
			for _, c := range search {
				if k, ok := c.byID[key]; ok {
					desc, comp = &c.Rules[k], c
					break find
				}
			}
			i := strings.LastIndexByte(key, '/')
			if i < 0 {
				break
			}
			key = key[:i]
		}
	}
	if id == "" && desc != nil {
		id = desc.ID
	}
	if id == "" {
		return nil, nil, "", pr.errAt(p, "ruleId", "expected the rule's id (ruleId, rule.id, or an id on the rule ruleIndex names); found none")
	}
	return desc, comp, id, nil
}

// messageText is the result's message: text, else the template its id names
// (rule messageStrings, then the component's globalMessageStrings), with
// {0}, {1}… replaced by the arguments, else markdown; never empty.
func messageText(m *message, desc *reportingDescriptor, comp *toolComponent, ruleKey string) string {
	text, templated := m.Text, false
	if text == "" && m.ID != "" {
		var ms multiformat
		var ok bool
		if desc != nil {
			ms, ok = desc.MessageStrings[m.ID]
		}
		if !ok && comp != nil {
			ms, ok = comp.GlobalMessageStrings[m.ID]
		}
		if ok {
			text, templated = ms.Text, true
			if text == "" {
				text = ms.Markdown
			}
		}
	}
	if text == "" {
		text = m.Markdown
	}
	if templated || len(m.Arguments) > 0 {
		text = fillPlaceholders(text, m.Arguments)
	}
	if strings.Contains(text, "](") {
		text = embeddedLink.ReplaceAllString(text, "$1")
	}
	text = strings.TrimSpace(text)
	if text != "" {
		return text
	}
	if desc != nil {
		for _, d := range []*multiformat{desc.ShortDescription, desc.FullDescription} {
			if d == nil {
				continue
			}
			if t := strings.TrimSpace(d.Text); t != "" {
				return t
			}
			if t := strings.TrimSpace(d.Markdown); t != "" {
				return t
			}
		}
		if t := strings.TrimSpace(desc.Name); t != "" {
			return t
		}
	}
	return ruleKey
}

// embeddedLink is a SARIF link to a related location, "[user input](1)";
// only its text is kept. Links to URIs are left as written.
var embeddedLink = regexp.MustCompile(`\[([^\[\]]*)\]\(\d+\)`)

// fillPlaceholders replaces {n} with args[n] and {{ }} with braces, as SARIF
// message strings define them. A placeholder without an argument stays.
func fillPlaceholders(s string, args []string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(s) && s[j] == '}' {
				if n, err := strconv.Atoi(s[i+1 : j]); err == nil && n < len(args) {
					b.WriteString(args[n])
					i = j
					continue
				}
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// issueLevel: a level fixed by the mapping table, else the
// security-severity property (result, then rule), else the SARIF level
// (result, then the rule's default configuration, else "warning").
func issueLevel(res *result, desc *reportingDescriptor, fixed string, props ...propertyBag) string {
	if res.Kind == "informational" {
		return "note"
	}
	if fixed != "" {
		return fixed
	}
	for _, pb := range props {
		if sev, ok := securitySeverity(pb.SecuritySeverity); ok {
			switch {
			case sev >= 7:
				return "high" // 9.0 and above is "critical": Plumb's highest level is high
			case sev >= 4:
				return "medium"
			default:
				return "low"
			}
		}
	}
	lv := res.Level
	if lv == "" && desc != nil && desc.DefaultConfiguration != nil {
		lv = desc.DefaultConfiguration.Level
	}
	if lv == "" {
		lv = "warning"
		if res.Kind != "" && res.Kind != "fail" {
			lv = "none"
		}
	}
	return levelOf[lv]
}

// levelOf maps SARIF levels to Plumb's.
var levelOf = map[string]string{"error": "high", "warning": "medium", "note": "low", "none": "note"}

// securitySeverity reads the GitHub convention: a number (usually written as
// a string) from 0.0 to 10.0. Anything else is ignored.
func securitySeverity(raw json.RawMessage) (float64, bool) {
	if len(raw) == 0 {
		return 0, false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		s = string(raw)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(f > 0) || f > 10 {
		return 0, false
	}
	return f, true
}

// httpURL returns u when it is an absolute http(s) URL, else "".
func httpURL(u string) string {
	v, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (v.Scheme != "http" && v.Scheme != "https") || v.Host == "" {
		return ""
	}
	return v.String()
}

// location finds the file and lines of a result from its first physical
// location (or analysis target), else the run's only artifact.
func (p *parser) location(rc *run, al *artifactLocation, reg *region) (file string, start, end *int, skip string) {
	if al == nil && len(rc.artifacts) == 1 {
		al = rc.artifacts[0]
	}
	if al == nil {
		return "", nil, nil, "no physical location: the result names no file"
	}
	file, skip = rc.resolve(al, p.opt)
	if skip != "" {
		return "", nil, nil, skip
	}
	if reg != nil && reg.StartLine >= 1 {
		s, e := reg.StartLine, reg.EndLine
		if e < s {
			e = s
		}
		start, end = &s, &e
	}
	return file, start, end, ""
}

// resolve turns an artifact location into a repository-relative path.
func (rc *run) resolve(al *artifactLocation, opt Options) (string, string) {
	uri, base := al.URI, al.URIBaseID
	if uri == "" && al.Index != nil && *al.Index >= 0 && *al.Index < len(rc.artifacts) && rc.artifacts[*al.Index] != nil {
		a := rc.artifacts[*al.Index]
		uri, base = a.URI, a.URIBaseID
	}
	if strings.TrimSpace(uri) == "" {
		return "", "the artifact location has no uri"
	}
	written := uri
	// Follow uriBaseId through originalUriBaseIds. A base that is not
	// described (staticcheck's %SRCROOT%) leaves the uri relative to the
	// repository.
	abs, relToBase := "", ""
	for depth := 0; base != "" && abs == "" && !isAbsolute(uri) && depth < 16; depth++ {
		b, ok := rc.bases[base]
		if !ok {
			break
		}
		if b.URI != "" {
			if isAbsolute(b.URI) {
				abs, relToBase = joinURI(b.URI, uri), uri
				break
			}
			uri = joinURI(b.URI, uri)
		}
		base = b.URIBaseID
	}
	if abs == "" && isAbsolute(uri) {
		abs = uri
	}
	candidate := unescape(uri)
	if abs != "" {
		fsPath, ok := filePath(abs)
		if !ok {
			return "", fmt.Sprintf("the location %q is not a file of the repository", written)
		}
		if rel, ok := underRoot(fsPath, opt.RepoRoot); ok {
			candidate = rel
		} else if relToBase != "" {
			candidate = unescape(relToBase)
		} else {
			candidate = fsPath
		}
	}
	p, ok := mapPath(candidate, opt)
	if !ok {
		return "", fmt.Sprintf("the location %q is not a path inside the repository", written)
	}
	return p, ""
}

var (
	schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]+:`)
	driveRE  = regexp.MustCompile(`^/?[A-Za-z]:[/\\]`)
)

// isAbsolute reports a URI with a scheme (two letters or more: "C:" is a
// Windows drive) or a Windows or POSIX absolute path.
func isAbsolute(u string) bool {
	return schemeRE.MatchString(u) || driveRE.MatchString(u) || strings.HasPrefix(u, "/") || strings.HasPrefix(u, `\\`)
}

func joinURI(base, rel string) string {
	if isAbsolute(rel) {
		return rel
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + strings.TrimPrefix(rel, "./")
}

// filePath returns the decoded file system path of a file: URI or of an
// absolute path, with forward slashes; false for other schemes.
func filePath(u string) (string, bool) {
	if schemeRE.MatchString(u) && !driveRE.MatchString(u) {
		if len(u) < 5 || !strings.EqualFold(u[:5], "file:") {
			return "", false
		}
		u = u[5:]
		if strings.HasPrefix(u, "//") { // authority: a host, usually empty
			u = u[2:]
			i := strings.IndexByte(u, '/')
			if i < 0 {
				return "", false
			}
			u = u[i:]
		}
		u = unescape(u)
	}
	u = strings.ReplaceAll(u, `\`, "/")
	if driveRE.MatchString(u) {
		u = strings.TrimPrefix(u, "/") // "/C:/src" → "C:/src"
	}
	return u, true
}

func unescape(s string) string {
	if v, err := url.PathUnescape(s); err == nil {
		return v
	}
	return s
}

// underRoot returns p relative to root when p is inside it.
func underRoot(p, root string) (string, bool) {
	if strings.TrimSpace(root) == "" {
		return "", false
	}
	r, ok := filePath(root)
	if !ok {
		return "", false
	}
	r = strings.TrimRight(r, "/")
	if len(p) <= len(r) || p[len(r)] != '/' {
		return "", false
	}
	// Windows drive paths compare without case.
	if p[:len(r)] == r || (driveRE.MatchString(r) && strings.EqualFold(p[:len(r)], r)) {
		return p[len(r)+1:], true
	}
	return "", false
}

// mapPath normalises a path (forward slashes, no "./", no leading "/", no
// drive letter), removes StripPrefix and adds AddPrefix. It reports false for
// an empty path or one that leaves the repository ("../").
func mapPath(p string, opt Options) (string, bool) {
	p = strings.ReplaceAll(p, `\`, "/")
	if driveRE.MatchString(p) {
		p = p[strings.IndexByte(p, ':')+1:]
	}
	rooted := strings.HasPrefix(p, "/")
	p = path.Clean(p)
	if !rooted && (p == ".." || strings.HasPrefix(p, "../")) {
		return "", false
	}
	p = strings.TrimPrefix(p, "/")
	if strip := strings.Trim(strings.ReplaceAll(opt.StripPrefix, `\`, "/"), "/"); strip != "" {
		if p == strip {
			return "", false
		}
		p = strings.TrimPrefix(p, strip+"/")
	}
	if add := strings.Trim(strings.ReplaceAll(opt.AddPrefix, `\`, "/"), "/"); add != "" {
		p = path.Clean(add + "/" + p)
	}
	if p == "" || p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// basis is what identifies a finding within its file, besides tool, rule and
// path: the tool's partialFingerprints, else its fingerprints, else the
// normalised message.
func basis(res *result, msg string) string {
	for _, fp := range []struct {
		kind string
		m    map[string]string
	}{{"partial", res.PartialFingerprints}, {"full", res.Fingerprints}} {
		var kv []string
		for k, v := range fp.m {
			if strings.TrimSpace(v) != "" { // gitleaks writes empty ones
				kv = append(kv, k+"="+v)
			}
		}
		if len(kv) > 0 {
			sort.Strings(kv)
			return fp.kind + "\x00" + strings.Join(kv, "\x00")
		}
	}
	return "message\x00" + normaliseMessage(msg)
}

var (
	// Line and column numbers inside messages ("declared at line 12",
	// "lines 10-20 are duplicate of `a.go:30-40`") move with the code.
	lineRefRE = regexp.MustCompile(`(?i)\b(lines?|col(?:umn)?s?)\s+\d+(?:\s*[-–,]\s*\d+)*`)
	fileRefRE = regexp.MustCompile(`(\.[A-Za-z0-9_]+):\d+(?::\d+)?(?:-\d+(?::\d+)?)?\b`)
)

func normaliseMessage(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	if !strings.ContainsAny(msg, "0123456789") {
		return msg
	}
	msg = lineRefRE.ReplaceAllString(msg, "$1 N")
	if strings.IndexByte(msg, ':') >= 0 {
		msg = fileRefRE.ReplaceAllString(msg, "$1:N")
	}
	return msg
}

// A resolved issue waits in the sort as its group (SHA-256 of tool, rule,
// path and basis), its start line and its index in the log's order, all
// fixed-width big-endian so that records compare as bytes, then the issue.
const groupedKey = 32 + 8 + 8

func compareGrouped(a, b []byte) int { return bytes.Compare(a[:groupedKey], b[:groupedKey]) }

func encodeGrouped(b []byte, group [32]byte, idx int64, is *plumb.Issue) []byte {
	b = append(b, group[:]...)
	line, end := int64(0), int64(0)
	if is.StartLine != nil {
		line, end = int64(*is.StartLine), int64(*is.EndLine)
	}
	b = binary.BigEndian.AppendUint64(b, uint64(line))
	b = binary.BigEndian.AppendUint64(b, uint64(idx))
	for _, v := range []string{is.Tool, is.RuleKey, is.Message, is.Category, is.Level, is.Status, is.DocumentationURL, is.Path} {
		b = extsort.AppendString(b, v)
	}
	return extsort.AppendInt(b, end)
}

func decodeGrouped(rec []byte) (group []byte, idx int64, is plumb.Issue, err error) {
	group = rec[:32]
	line := int(binary.BigEndian.Uint64(rec[32:]))
	idx = int64(binary.BigEndian.Uint64(rec[40:]))
	r := extsort.NewReader(rec[groupedKey:])
	for _, v := range []*string{&is.Tool, &is.RuleKey, &is.Message, &is.Category, &is.Level, &is.Status, &is.DocumentationURL, &is.Path} {
		*v = r.String()
	}
	if end := int(r.Int()); line > 0 {
		is.StartLine, is.EndLine = &line, &end
	}
	return group, idx, is, r.Err()
}

// fingerprint sets every issue's fingerprint and hands it to fn: hex
// SHA-256 of the issue's group and its index among the issues of the same
// group, counted in line order (then the log's). No line number goes in, so
// moving a finding does not change it; two identical findings in one file
// still differ. The issues come out of the sort group by group.
func (p *parser) fingerprint(fn func(idx int64, is plumb.Issue) error) error {
	it, err := p.sorted.Iter()
	if err != nil {
		return err
	}
	var prev [32]byte
	var buf [32 + 20]byte
	for k, occ := 0, 0; it.Next(); k++ {
		group, idx, is, err := decodeGrouped(it.Record())
		if err != nil {
			return err
		}
		if k > 0 && bytes.Equal(prev[:], group) {
			occ++
		} else {
			occ = 0
			copy(prev[:], group)
		}
		b := strconv.AppendInt(append(buf[:0], group...), int64(occ), 10)
		sum := sha256.Sum256(b)
		is.Fingerprint = hex.EncodeToString(sum[:])
		if err := fn(idx, is); err != nil {
			return err
		}
	}
	return it.Err()
}

func lenPrefixed(parts ...string) string {
	var b strings.Builder
	for _, s := range parts {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	return b.String()
}
