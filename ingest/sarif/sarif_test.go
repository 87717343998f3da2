package sarif

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the parser's output")

// issueJSON is an issue as the golden files show it (the fields a parser
// sets, in the API's names).
type issueJSON struct {
	Fingerprint      string `json:"fingerprint"`
	Tool             string `json:"tool"`
	RuleKey          string `json:"ruleKey"`
	Message          string `json:"message"`
	Category         string `json:"category"`
	Level            string `json:"level"`
	Status           string `json:"status"`
	DocumentationURL string `json:"documentationUrl,omitempty"`
	Path             string `json:"path"`
	StartLine        *int   `json:"startLine,omitempty"`
	EndLine          *int   `json:"endLine,omitempty"`
}

func view(issues []plumb.Issue) []issueJSON {
	out := make([]issueJSON, len(issues))
	for i, is := range issues {
		out[i] = issueJSON{is.Fingerprint, is.Tool, is.RuleKey, is.Message, is.Category, is.Level, is.Status,
			is.DocumentationURL, is.Path, is.StartLine, is.EndLine}
	}
	return out
}

type goldenFile struct {
	Issues  []issueJSON `json:"issues"`
	Skipped []Skip      `json:"skipped"`
}

// TestFixtures parses every report in testdata (those of real tools made by
// testdata/make.sh, and hand-written ones shaped like the other tools'
// documented output) and compares the whole result with testdata/golden.
// go test ./ingest/sarif -run TestFixtures -update rewrites the golden files;
// review the diff: a changed fingerprint loses users' "ignored" statuses.
func TestFixtures(t *testing.T) {
	cases := []struct {
		file string
		opt  Options
	}{
		{"staticcheck.sarif", Options{}},
		{"golangci-lint.sarif", Options{}},
		// ESLint writes absolute file:// URIs; make.sh runs it in this directory.
		{"eslint.sarif", Options{RepoRoot: "/tmp/plumb-sarif-eslint"}},
		{"codeql.sarif", Options{}},
		{"semgrep.sarif", Options{AddPrefix: "services/api"}},
		{"trivy.sarif", Options{RepoRoot: "/home/runner/work/shop/shop"}},
		{"gitleaks.sarif", Options{}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := goldenFile{Skipped: []Skip{}}
			opt := c.opt
			opt.OnSkip = func(s Skip) { got.Skipped = append(got.Skipped, s) }
			issues, err := Parse(f, opt)
			if err != nil {
				t.Fatal(err)
			}
			got.Issues = view(issues)
			gotJSON, _ := json.MarshalIndent(got, "", "  ")
			gotJSON = append(gotJSON, '\n')
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(c.file, ".sarif")+".json")
			if *update {
				if err := os.WriteFile(golden, gotJSON, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(gotJSON, want) {
				t.Errorf("issues differ from %s (run with -update and review the diff):\n%s", golden, gotJSON)
			}
		})
	}
}

// TestFixtureInvariants checks what every fixture's issues must satisfy
// whatever the golden files say.
func TestFixtureInvariants(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.sarif")
	if len(files) < 7 {
		t.Fatalf("found %d fixtures", len(files))
	}
	for _, file := range files {
		b, _ := os.ReadFile(file)
		issues, err := Parse(bytes.NewReader(b), Options{RepoRoot: "/tmp/plumb-sarif-eslint"})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(issues) == 0 {
			t.Errorf("%s: no issues", file)
		}
		seen := map[string]bool{}
		for _, is := range issues {
			if msg := checkIssue(is); msg != "" {
				t.Errorf("%s: %s: %+v", file, msg, is)
			}
			if seen[is.Fingerprint] {
				t.Errorf("%s: fingerprint %s given twice", file, is.Fingerprint)
			}
			seen[is.Fingerprint] = true
		}
	}
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// checkIssue returns what is wrong with an issue, or "".
func checkIssue(is plumb.Issue) string {
	switch {
	case !plumb.Contains(plumb.IssueCategories, is.Category):
		return "category " + is.Category
	case !plumb.Contains(plumb.IssueLevels, is.Level):
		return "level " + is.Level
	case !plumb.Contains(plumb.IssueStatuses, is.Status):
		return "status " + is.Status
	case !hex64.MatchString(is.Fingerprint):
		return "fingerprint " + is.Fingerprint
	case strings.TrimSpace(is.Tool) == "" || is.RuleKey == "" || strings.TrimSpace(is.Message) == "":
		return "empty tool, rule or message"
	case is.Path == "" || strings.HasPrefix(is.Path, "/") || strings.HasPrefix(is.Path, "./") ||
		is.Path == ".." || strings.HasPrefix(is.Path, "../") || strings.Contains(is.Path, `\`):
		return "path " + is.Path
	case (is.StartLine == nil) != (is.EndLine == nil):
		return "only one of startLine and endLine"
	case is.StartLine != nil && (*is.StartLine < 1 || *is.EndLine < *is.StartLine):
		return "lines"
	case is.DocumentationURL != "" && !strings.HasPrefix(is.DocumentationURL, "http"):
		return "documentation URL " + is.DocumentationURL
	}
	return ""
}

// sarifLog builds a one-run SARIF log.
func sarifLog(driver, rules string, results ...string) string {
	return `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "` + driver + `", "rules": [` + rules +
		`]}}, "results": [` + strings.Join(results, ",\n") + `]}]}`
}

// res builds a result on a.go line 10 with the given extra members.
func res(extra string) string {
	if extra != "" {
		extra = ", " + extra
	}
	return `{"locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go"}, "region": {"startLine": 10}}}]` + extra + `}`
}

func mustParse(t *testing.T, doc string, opt Options) []plumb.Issue {
	t.Helper()
	issues, err := Parse(strings.NewReader(doc), opt)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, doc)
	}
	return issues
}

func ip(n int) *int { return &n }

// noFingerprints blanks fingerprints, for tests about other fields.
func noFingerprints(issues []plumb.Issue) []plumb.Issue {
	for i := range issues {
		issues[i].Fingerprint = ""
	}
	return issues
}

func diff(t *testing.T, got, want []plumb.Issue) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(view(got), "", " ")
		w, _ := json.MarshalIndent(view(want), "", " ")
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
}

func TestMessages(t *testing.T) {
	rules := `{"id": "R1", "name": "RuleOne", "shortDescription": {"text": "Short one"},
		"messageStrings": {"default": {"text": "Variable '{0}' is unused in {1}; {{braces}} stay"},
			"md": {"markdown": "Use **{0}**"}}},
		{"id": "R2", "name": "RuleTwo"},
		{"id": "R3"}`
	cases := []struct {
		name, result, want string
	}{
		{"text", `"ruleId": "R1", "message": {"text": "  plain {0} text {{x}}  "}`, "plain {0} text {{x}}"},
		{"text with arguments", `"ruleId": "R1", "message": {"text": "{0} and {1} and {2}", "arguments": ["a", "b"]}`, "a and b and {2}"},
		{"template", `"ruleId": "R1", "message": {"id": "default", "arguments": ["x", "main"]}`, "Variable 'x' is unused in main; {braces} stay"},
		{"markdown template", `"ruleId": "R1", "message": {"id": "md", "arguments": ["errors.Is"]}`, "Use **errors.Is**"},
		{"global template", `"ruleId": "R2", "message": {"id": "g", "arguments": ["7"]}`, "Global message 7"},
		{"markdown only", `"ruleId": "R1", "message": {"markdown": "See *this*"}`, "See *this*"},
		{"embedded links", `"ruleId": "R1", "message": {"text": "Flows from [user input](1) to [here](2); see [docs](https://x.dev/a)."}`, "Flows from user input to here; see [docs](https://x.dev/a)."},
		{"empty: short description", `"ruleId": "R1", "message": {"text": " "}`, "Short one"},
		{"unknown id: short description", `"ruleId": "R1", "message": {"id": "nope"}`, "Short one"},
		{"empty: rule name", `"ruleId": "R2", "message": {}`, "RuleTwo"},
		{"empty: rule id", `"ruleId": "R3", "message": {}`, "R3"},
		{"empty, no descriptor: rule key", `"ruleId": "R9", "message": {}`, "R9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := strings.Replace(sarifLog("x", rules, res(c.result)), `"rules"`,
				`"globalMessageStrings": {"g": {"text": "Global message {0}"}}, "rules"`, 1)
			got := mustParse(t, doc, Options{})
			if len(got) != 1 || got[0].Message != c.want {
				t.Errorf("got %q, want %q", got[0].Message, c.want)
			}
		})
	}
}

func TestLevels(t *testing.T) {
	rules := `{"id": "E", "defaultConfiguration": {"level": "error"}},
		{"id": "N", "defaultConfiguration": {"level": "note"}},
		{"id": "S", "properties": {"security-severity": "9.1"}},
		{"id": "S5", "properties": {"security-severity": 5}},
		{"id": "S2", "properties": {"security-severity": "2.0"}},
		{"id": "S0", "properties": {"security-severity": "high"}},
		{"id": "F", "properties": {"tags": ["formatting"]}}`
	cases := []struct {
		name, tool, result, want string
	}{
		{"error", "x", `"ruleId": "R", "level": "error"`, "high"},
		{"warning", "x", `"ruleId": "R", "level": "warning"`, "medium"},
		{"note", "x", `"ruleId": "R", "level": "note"`, "low"},
		{"none", "x", `"ruleId": "R", "level": "none"`, "note"},
		{"level case", "x", `"ruleId": "R", "level": "Error"`, "high"},
		{"default: warning", "x", `"ruleId": "R"`, "medium"},
		{"rule default error", "x", `"ruleId": "E"`, "high"},
		{"rule default note", "x", `"ruleId": "N"`, "low"},
		{"result level wins over rule default", "x", `"ruleId": "E", "level": "note"`, "low"},
		{"informational", "x", `"ruleId": "E", "kind": "informational"`, "note"},
		{"review without level", "x", `"ruleId": "R", "kind": "review"`, "note"},
		{"review with level", "x", `"ruleId": "R", "kind": "review", "level": "warning"`, "medium"},
		{"security-severity 9.1 (critical)", "x", `"ruleId": "S", "level": "note"`, "high"},
		{"security-severity number 5", "x", `"ruleId": "S5", "level": "error"`, "medium"},
		{"security-severity 2.0", "x", `"ruleId": "S2", "level": "error"`, "low"},
		{"security-severity on the result wins", "x", `"ruleId": "S2", "properties": {"security-severity": "7.0"}`, "high"},
		{"security-severity not a number: ignored", "x", `"ruleId": "S0", "level": "note"`, "low"},
		{"formatting tag", "x", `"ruleId": "F", "level": "error"`, "fmt"},
		{"gitleaks fixed high", "gitleaks", `"ruleId": "generic-api-key"`, "high"},
		{"golangci-lint gofmt", "golangci-lint", `"ruleId": "gofmt", "level": "error"`, "fmt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustParse(t, sarifLog(c.tool, rules, res(c.result+`, "message": {"text": "m"}`)), Options{})
			if len(got) != 1 || got[0].Level != c.want {
				t.Errorf("got %q, want %q", got[0].Level, c.want)
			}
		})
	}
}

func TestKindsAndBaselineSkip(t *testing.T) {
	var skipped []Skip
	doc := sarifLog("x", "",
		res(`"ruleId": "A", "kind": "pass", "message": {"text": "ok"}`),
		res(`"ruleId": "B", "kind": "notApplicable", "message": {"text": "n/a"}`),
		res(`"ruleId": "C", "baselineState": "absent", "message": {"text": "gone"}`),
		res(`"ruleId": "D", "baselineState": "new", "kind": "fail", "message": {"text": "new"}`),
		`{"ruleId": "E", "message": {"text": "nowhere"}, "locations": [{"logicalLocations": [{"fullyQualifiedName": "pkg.F"}]}]}`,
	)
	got := mustParse(t, doc, Options{OnSkip: func(s Skip) { skipped = append(skipped, s) }})
	diff(t, noFingerprints(got), []plumb.Issue{{Tool: "x", RuleKey: "D", Message: "new", Category: "lint", Level: "medium",
		Status: "open", Path: "a.go", StartLine: ip(10), EndLine: ip(10)}})
	want := []Skip{
		{Element: "runs[0].results[0]", Line: 1, Tool: "x", RuleKey: "A", Reason: "kind pass: not a finding"},
		{Element: "runs[0].results[1]", Line: 2, Tool: "x", RuleKey: "B", Reason: "kind notApplicable: not a finding"},
		{Element: "runs[0].results[2]", Line: 3, Tool: "x", RuleKey: "C", Reason: "baselineState absent: the finding is no longer present"},
		{Element: "runs[0].results[4]", Line: 5, Tool: "x", RuleKey: "E", Reason: "no physical location: the result names no file"},
	}
	if !reflect.DeepEqual(skipped, want) {
		t.Errorf("skipped\n%+v\nwant\n%+v", skipped, want)
	}
}

func TestSuppressions(t *testing.T) {
	cases := []struct{ suppressions, want string }{
		{`[]`, "open"},
		{`[{"kind": "inSource"}]`, "ignored"},
		{`[{"kind": "external", "status": "accepted"}]`, "ignored"},
		{`[{"kind": "external", "status": "Accepted"}]`, "ignored"},
		{`[{"kind": "external", "status": "underReview"}]`, "open"},
		{`[{"kind": "external", "status": "rejected"}]`, "open"},
		{`[{"status": "rejected"}, {"status": "accepted"}]`, "ignored"},
		{`null`, "open"},
	}
	for _, c := range cases {
		got := mustParse(t, sarifLog("x", "", res(`"ruleId": "R", "message": {"text": "m"}, "suppressions": `+c.suppressions)), Options{})
		if got[0].Status != c.want {
			t.Errorf("suppressions %s: got %q, want %q", c.suppressions, got[0].Status, c.want)
		}
	}
}

func TestRuleResolution(t *testing.T) {
	doc := `{"version": "2.1.0", "runs": [{
		"tool": {
			"driver": {"name": "CodeQL", "rules": [{"id": "d/one", "helpUri": "https://d.example/one"}]},
			"extensions": [
				{"name": "pack/a", "rules": [{"id": "a/zero"}, {"id": "a/one", "helpUri": "https://a.example/one", "properties": {"tags": ["security"]}}]},
				{"name": "pack/b", "rules": [{"id": "b/zero", "helpUri": "relative/help.html", "properties": {"tags": ["performance"]}}]}
			]},
		"results": [
			` + res(`"rule": {"id": "a/one", "index": 1, "toolComponent": {"index": 0}}, "message": {"text": "by toolComponent index"}`) + `,
			` + res(`"rule": {"index": 0, "toolComponent": {"name": "pack/b"}}, "message": {"text": "by toolComponent name, id from the descriptor"}`) + `,
			` + res(`"ruleIndex": 0, "message": {"text": "ruleIndex into the driver"}`) + `,
			` + res(`"ruleId": "b/zero", "message": {"text": "id found in an extension"}`) + `,
			` + res(`"ruleId": "d/one/sub", "message": {"text": "hierarchical id"}`) + `,
			` + res(`"ruleId": "nowhere", "message": {"text": "no descriptor"}`) + `
		]}]}`
	got := noFingerprints(mustParse(t, doc, Options{}))
	is := func(rule, msg, cat, doc string) plumb.Issue {
		return plumb.Issue{Tool: "codeql", RuleKey: rule, Message: msg, Category: cat, Level: "medium", Status: "open",
			DocumentationURL: doc, Path: "a.go", StartLine: ip(10), EndLine: ip(10)}
	}
	diff(t, got, []plumb.Issue{
		is("a/one", "by toolComponent index", "vulnerability", "https://a.example/one"),
		is("b/zero", "by toolComponent name, id from the descriptor", "performance", ""),
		is("d/one", "ruleIndex into the driver", "lint", "https://d.example/one"),
		is("b/zero", "id found in an extension", "performance", ""),
		is("d/one/sub", "hierarchical id", "lint", "https://d.example/one"),
		is("nowhere", "no descriptor", "lint", ""),
	})
}

func TestLocations(t *testing.T) {
	loc := func(al string, region string) string {
		if region == "" {
			region = `"region": {"startLine": 3, "endLine": 5}`
		}
		return `{"ruleId": "R", "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": ` + al + `, ` + region + `}}]}`
	}
	type want struct {
		path       string
		start, end *int
		skip       string
	}
	cases := []struct {
		name   string
		result string
		opt    Options
		want   want
	}{
		{"relative", loc(`{"uri": "src/a.go"}`, ""), Options{}, want{path: "src/a.go", start: ip(3), end: ip(5)}},
		{"dot slash and backslashes", loc(`{"uri": ".\\src\\win.go"}`, ""), Options{}, want{path: "src/win.go", start: ip(3), end: ip(5)}},
		{"percent-encoded", loc(`{"uri": "src/my%20file%2Bx.go"}`, ""), Options{}, want{path: "src/my file+x.go", start: ip(3), end: ip(5)}},
		{"undescribed base (%SRCROOT%)", loc(`{"uri": "src/a.go", "uriBaseId": "%SRCROOT%"}`, ""), Options{}, want{path: "src/a.go", start: ip(3), end: ip(5)}},
		{"relative base chain", loc(`{"uri": "a.go", "uriBaseId": "PKG"}`, ""), Options{}, want{path: "lib/pkg/a.go", start: ip(3), end: ip(5)}},
		{"absolute base, no RepoRoot: relative to the base", loc(`{"uri": "src/a.go", "uriBaseId": "ROOT"}`, ""), Options{}, want{path: "src/a.go", start: ip(3), end: ip(5)}},
		{"absolute base under RepoRoot", loc(`{"uri": "a.go", "uriBaseId": "SUB"}`, ""), Options{RepoRoot: "/home/ci/repo"}, want{path: "svc/a.go", start: ip(3), end: ip(5)}},
		{"file URI with RepoRoot", loc(`{"uri": "file:///home/ci/repo/web/app%20x.js"}`, ""), Options{RepoRoot: "/home/ci/repo/"}, want{path: "web/app x.js", start: ip(3), end: ip(5)}},
		{"file URI with RepoRoot as URI", loc(`{"uri": "file:///home/ci/repo/web/app.js"}`, ""), Options{RepoRoot: "file:///home/ci/repo"}, want{path: "web/app.js", start: ip(3), end: ip(5)}},
		{"file URI outside RepoRoot", loc(`{"uri": "file:///opt/other/x.js"}`, ""), Options{RepoRoot: "/home/ci/repo"}, want{path: "opt/other/x.js", start: ip(3), end: ip(5)}},
		{"file URI, no RepoRoot, StripPrefix", loc(`{"uri": "file:///home/ci/repo/web/app.js"}`, ""), Options{StripPrefix: "/home/ci/repo"}, want{path: "web/app.js", start: ip(3), end: ip(5)}},
		{"Windows file URI", loc(`{"uri": "file:///C:/work/repo/src/A.cs"}`, ""), Options{RepoRoot: `c:\work\repo`}, want{path: "src/A.cs", start: ip(3), end: ip(5)}},
		{"Windows path", loc(`{"uri": "C:\\work\\repo\\src\\B.cs"}`, ""), Options{RepoRoot: `C:\work\repo`}, want{path: "src/B.cs", start: ip(3), end: ip(5)}},
		{"AddPrefix", loc(`{"uri": "a.go"}`, ""), Options{AddPrefix: "/services/api/"}, want{path: "services/api/a.go", start: ip(3), end: ip(5)}},
		{"StripPrefix then AddPrefix", loc(`{"uri": "build/src/a.go"}`, ""), Options{StripPrefix: "build", AddPrefix: "app"}, want{path: "app/src/a.go", start: ip(3), end: ip(5)}},
		{"artifact index", loc(`{"index": 1}`, ""), Options{}, want{path: "from/artifact.go", start: ip(3), end: ip(5)}},
		{"artifact index with uri: uri wins", loc(`{"uri": "u.go", "index": 7}`, ""), Options{}, want{path: "u.go", start: ip(3), end: ip(5)}},
		{"endLine defaults to startLine", loc(`{"uri": "a.go"}`, `"region": {"startLine": 8}`), Options{}, want{path: "a.go", start: ip(8), end: ip(8)}},
		{"endLine before startLine", loc(`{"uri": "a.go"}`, `"region": {"startLine": 8, "endLine": 2}`), Options{}, want{path: "a.go", start: ip(8), end: ip(8)}},
		{"no region: file-level", loc(`{"uri": "a.go"}`, `"contextRegion": null`), Options{}, want{path: "a.go"}},
		{"startLine 0: file-level", loc(`{"uri": "a.go"}`, `"region": {"startLine": 0}`), Options{}, want{path: "a.go"}},
		{"byte offsets only: file-level", loc(`{"uri": "a.go"}`, `"region": {"charOffset": 10, "charLength": 3}`), Options{}, want{path: "a.go"}},
		{"analysisTarget", `{"ruleId": "R", "message": {"text": "m"}, "analysisTarget": {"uri": "target.go"}}`, Options{}, want{path: "target.go"}},
		{"escapes the repository", loc(`{"uri": "../../etc/passwd"}`, ""), Options{}, want{skip: `the location "../../etc/passwd" is not a path inside the repository`}},
		{"http URI", loc(`{"uri": "https://example.com/x.js"}`, ""), Options{}, want{skip: `the location "https://example.com/x.js" is not a file of the repository`}},
		{"the repository root itself", loc(`{"uri": "file:///home/ci/repo/"}`, ""), Options{RepoRoot: "/home/ci/repo"}, want{skip: `the location "file:///home/ci/repo/" is not a path inside the repository`}},
		{"empty uri", loc(`{"uri": ""}`, ""), Options{}, want{skip: "the artifact location has no uri"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
				"originalUriBaseIds": {
					"ROOT": {"uri": "file:///home/ci/repo/"},
					"SUB": {"uri": "svc/", "uriBaseId": "ROOT"},
					"LIB": {"uri": "lib/"},
					"PKG": {"uri": "pkg/", "uriBaseId": "LIB"}
				},
				"artifacts": [{"location": {"uri": "zero.go"}}, {"location": {"uri": "from/artifact.go"}}],
				"results": [` + c.result + `]}]}`
			var skips []string
			opt := c.opt
			opt.OnSkip = func(s Skip) { skips = append(skips, s.Reason) }
			got := mustParse(t, doc, opt)
			if c.want.skip != "" {
				if len(got) != 0 || len(skips) != 1 || skips[0] != c.want.skip {
					t.Fatalf("got %d issues, skips %q; want skip %q", len(got), skips, c.want.skip)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d issues, skips %q", len(got), skips)
			}
			g := got[0]
			if g.Path != c.want.path || !reflect.DeepEqual(g.StartLine, c.want.start) || !reflect.DeepEqual(g.EndLine, c.want.end) {
				t.Errorf("got %q %v-%v, want %q %v-%v", g.Path, deref(g.StartLine), deref(g.EndLine), c.want.path, deref(c.want.start), deref(c.want.end))
			}
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestSingleArtifactFallback(t *testing.T) {
	doc := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
		"artifacts": [{"location": {"uri": "only.tf"}}],
		"results": [{"ruleId": "R", "message": {"text": "m"}}]}]}`
	got := noFingerprints(mustParse(t, doc, Options{}))
	diff(t, got, []plumb.Issue{{Tool: "x", RuleKey: "R", Message: "m", Category: "lint", Level: "medium", Status: "open", Path: "only.tf"}})
}

func TestToolNames(t *testing.T) {
	for driver, want := range map[string]string{
		"golangci-lint": "golangci-lint", "Staticcheck": "staticcheck", "gosec": "gosec", "ESLint": "eslint",
		"Semgrep OSS": "semgrep", "semgrep": "semgrep", "CodeQL": "codeql", "CodeQL command-line toolchain": "codeql",
		"Trivy": "trivy", "gitleaks": "gitleaks", "  PMD ": "PMD", "Checkov": "Checkov",
	} {
		if got := toolID(driver); got != want {
			t.Errorf("toolID(%q) = %q, want %q", driver, got, want)
		}
	}
}

// TestMapping checks the category table row by row for each tool.
func TestMapping(t *testing.T) {
	cases := []struct {
		tool, rule, msg string
		tags            []string
		category, level string
	}{
		{"staticcheck", "U1000", "", nil, "dead_code", ""},
		{"staticcheck", "SA1019", "", nil, "anti_pattern", ""},
		{"staticcheck", "SA6002", "", nil, "performance", ""},
		{"staticcheck", "SA4006", "", nil, "bug", ""},
		{"staticcheck", "ST1020", "", nil, "documentation", ""},
		{"staticcheck", "ST1005", "", nil, "style", ""},
		{"staticcheck", "QF1001", "", nil, "style", ""},
		{"staticcheck", "S1003", "", nil, "anti_pattern", ""},
		{"gosec", "G101", "", nil, "secret", ""},
		{"gosec", "G104", "", nil, "bug", ""},
		{"gosec", "G304", "", nil, "security_hotspot", ""},
		{"gosec", "G505", "", nil, "security_hotspot", ""},
		{"gosec", "G201", "", nil, "vulnerability", ""},
		{"gosec", "G401", "", []string{"security"}, "vulnerability", ""},
		{"golangci-lint", "gosec", "G101: Potential hardcoded credentials", nil, "secret", ""},
		{"golangci-lint", "gosec", "G402: TLS InsecureSkipVerify set true.", nil, "vulnerability", ""},
		{"golangci-lint", "gosec", "no code here", nil, "vulnerability", ""},
		{"golangci-lint", "staticcheck", "SA4000: identical expressions", nil, "bug", ""},
		{"golangci-lint", "staticcheck", "ST1003: should not use underscores", nil, "style", ""},
		{"golangci-lint", "gosimple", "S1000: should use a simple channel send", nil, "anti_pattern", ""},
		{"golangci-lint", "errcheck", "", nil, "bug", ""},
		{"golangci-lint", "govet", "", nil, "bug", ""},
		{"golangci-lint", "unused", "", nil, "dead_code", ""},
		{"golangci-lint", "ineffassign", "", nil, "dead_code", ""},
		{"golangci-lint", "gocognit", "", nil, "structure", ""},
		{"golangci-lint", "funlen", "", nil, "structure", ""},
		{"golangci-lint", "dupl", "", nil, "duplication", ""},
		{"golangci-lint", "misspell", "", nil, "documentation", ""},
		{"golangci-lint", "godot", "", nil, "documentation", ""},
		{"golangci-lint", "gofmt", "", nil, "style", "fmt"},
		{"golangci-lint", "goimports", "", nil, "style", "fmt"},
		{"golangci-lint", "gofumpt", "", nil, "style", "fmt"},
		{"golangci-lint", "typecheck", "", nil, "type_check", ""},
		{"golangci-lint", "revive", "", nil, "style", ""},
		{"golangci-lint", "prealloc", "", nil, "performance", ""},
		{"golangci-lint", "exhaustruct", "", nil, "lint", ""},
		{"eslint", "no-unused-vars", "", nil, "dead_code", ""},
		{"eslint", "@typescript-eslint/no-unused-vars", "", nil, "dead_code", ""},
		{"eslint", "jsx-a11y/alt-text", "", nil, "accessibility", ""},
		{"eslint", "security/detect-object-injection", "", nil, "vulnerability", ""},
		{"eslint", "no-eval", "", nil, "security_hotspot", ""},
		{"eslint", "@typescript-eslint/no-unsafe-assignment", "", nil, "type_check", ""},
		{"eslint", "@typescript-eslint/no-floating-promises", "", nil, "bug", ""},
		{"eslint", "@typescript-eslint/naming-convention", "", nil, "lint", ""},
		{"eslint", "prettier/prettier", "", nil, "style", "fmt"},
		{"eslint", "complexity", "", nil, "structure", ""},
		{"eslint", "no-undef", "", nil, "bug", ""},
		{"eslint", "eqeqeq", "", nil, "lint", ""},
		{"semgrep", "generic.secrets.security.detected-private-key.detected-private-key", "", []string{"security"}, "secret", ""},
		{"semgrep", "python.lang.security.audit.eval-detected.eval-detected", "", nil, "vulnerability", ""},
		{"semgrep", "python.lang.correctness.useless-eqeq.useless-eqeq", "", nil, "bug", ""},
		{"semgrep", "python.lang.best-practice.open-never-closed.open-never-closed", "", nil, "anti_pattern", ""},
		{"semgrep", "my.custom.rule", "", []string{"CWE-89: SQL Injection", "security"}, "vulnerability", ""},
		{"semgrep", "my.custom.rule", "", nil, "lint", ""},
		{"codeql", "js/xss", "", []string{"security", "external/cwe/cwe-079"}, "vulnerability", ""},
		{"codeql", "go/hardcoded-credentials", "", []string{"security", "external/cwe/cwe-798"}, "secret", ""},
		{"codeql", "js/unused-local-variable", "", []string{"maintainability", "useless-code"}, "dead_code", ""},
		{"codeql", "js/useless-assignment-to-local", "", []string{"maintainability", "external/cwe/cwe-563"}, "dead_code", ""},
		{"codeql", "js/trivial-conditional", "", []string{"maintainability", "correctness"}, "bug", ""},
		{"codeql", "js/missing-rate-limiting", "", []string{"performance"}, "performance", ""},
		{"codeql", "java/confusing-method-name", "", []string{"Maintainability", "readability"}, "style", ""},
		{"codeql", "cs/complex-block", "", []string{"maintainability", "testability", "complexity"}, "structure", ""},
		{"trivy", "CVE-2021-23337", "", []string{"vulnerability", "security", "HIGH"}, "dependency_alert", ""},
		{"trivy", "AVD-DS-0002", "", []string{"misconfiguration", "security", "HIGH"}, "security_hotspot", ""},
		{"trivy", "aws-access-key-id", "", []string{"secret", "security", "CRITICAL"}, "secret", ""},
		{"gitleaks", "generic-api-key", "", nil, "secret", "high"},
		{"Grype", "GHSA-35jh-r3h4-6jhm", "", nil, "dependency_alert", ""},
		{"PMD", "UnusedPrivateField", "", []string{"accessibility"}, "accessibility", ""},
		{"PMD", "CommentRequired", "", []string{"Documentation"}, "documentation", ""},
		{"PMD", "Anything", "", nil, "lint", ""},
	}
	for _, c := range cases {
		cat, lv := classify(c.tool, c.rule, messageCode(c.msg), c.tags)
		if cat != c.category || lv != c.level {
			t.Errorf("classify(%q, %q, %q, %q) = %q, %q; want %q, %q", c.tool, c.rule, c.msg, c.tags, cat, lv, c.category, c.level)
		}
	}
	for _, m := range mappings {
		if !plumb.Contains(plumb.IssueCategories, m.Category) {
			t.Errorf("row %+v: category %q is not one of Plumb's", m, m.Category)
		}
		if m.Level != "" && !plumb.Contains(plumb.IssueLevels, m.Level) {
			t.Errorf("row %+v: level %q is not one of Plumb's", m, m.Level)
		}
	}
}

// TestMappingDocumented keeps the table in docs/sarif.md equal to mappings.
func TestMappingDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/sarif.md")
	if err != nil {
		t.Fatal(err)
	}
	want := mappingMarkdown()
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/sarif.md does not hold the mapping table as mapping.go has it; put this in it:\n\n%s", want)
	}
}

// mappingMarkdown renders mappings as the markdown table of docs/sarif.md.
func mappingMarkdown() string {
	var b strings.Builder
	b.WriteString("| # | tool | rule | tags (all of) | category | level |\n|---|---|---|---|---|---|\n")
	cell := func(s string) string {
		if s == "" {
			return "any"
		}
		return "`" + strings.ReplaceAll(s, "|", "` or `") + "`"
	}
	for i, m := range mappings {
		tags := "—"
		if len(m.Tags) > 0 {
			parts := make([]string, len(m.Tags))
			for j, tg := range m.Tags {
				parts[j] = cell(tg)
			}
			tags = strings.Join(parts, " and ")
		}
		cat := m.Category
		if m.Via != "" {
			cat = fmt.Sprintf("the `%s` rows, applied to the code that starts the message; else %s", m.Via, m.Category)
		}
		lv := "from the report"
		if m.Level != "" {
			lv = "**" + m.Level + "**"
		}
		rule := cell(m.Rule)
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", i+1, cell(m.Tool), rule, tags, cat, lv)
	}
	fmt.Fprintf(&b, "| — | any | any | — | %s | from the report |\n", defaultCategory)
	return b.String()
}

// TestFingerprintStableWhenLinesMove moves every finding of the real
// golangci-lint and staticcheck reports 5 lines down (as if 5 lines were
// inserted at the top of each file): no fingerprint changes. Changing a
// message changes that finding's fingerprint only.
func TestFingerprintStableWhenLinesMove(t *testing.T) {
	for _, file := range []string{"golangci-lint.sarif", "staticcheck.sarif", "eslint.sarif", "gitleaks.sarif"} {
		t.Run(file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{RepoRoot: "/tmp/plumb-sarif-eslint"}
			before := mustParse(t, string(b), opt)
			moved := mustParse(t, shiftLines(t, b, 5), opt)
			if len(before) != len(moved) {
				t.Fatalf("%d issues before, %d after", len(before), len(moved))
			}
			for i := range before {
				if *moved[i].StartLine != *before[i].StartLine+5 {
					t.Fatalf("issue %d: line %d, want %d", i, *moved[i].StartLine, *before[i].StartLine+5)
				}
				if moved[i].Fingerprint != before[i].Fingerprint {
					t.Errorf("issue %d (%s %s line %d): fingerprint changed when the lines moved", i, before[i].RuleKey, before[i].Path, *before[i].StartLine)
				}
			}
			reworded := mustParse(t, strings.Replace(string(b), `"text":"`+jsonEscape(before[0].Message), `"text":"Reworded: `+jsonEscape(before[0].Message), 1), opt)
			if reworded[0].Message == before[0].Message {
				reworded = mustParse(t, strings.Replace(string(b), `"text": "`+jsonEscape(before[0].Message), `"text": "Reworded: `+jsonEscape(before[0].Message), 1), opt)
			}
			if reworded[0].Message == before[0].Message {
				t.Fatal("could not reword the first message")
			}
			if reworded[0].Fingerprint == before[0].Fingerprint {
				t.Error("a changed message kept its fingerprint")
			}
			for i := 1; i < len(before); i++ {
				if reworded[i].Fingerprint != before[i].Fingerprint && before[i].Message != before[0].Message {
					t.Errorf("issue %d changed fingerprint when another message changed", i)
				}
			}
		})
	}
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	s = string(b[1 : len(b)-1])
	return strings.ReplaceAll(strings.ReplaceAll(s, `\u003c`, "<"), `\u003e`, ">")
}

// shiftLines adds n to every startLine and endLine of a report.
func shiftLines(t *testing.T, b []byte, n int) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if f, ok := e.(float64); ok && (k == "startLine" || k == "endLine") {
					x[k] = f + float64(n)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	out, _ := json.Marshal(v)
	return string(out)
}

func TestFingerprints(t *testing.T) {
	fp := func(doc string) []string {
		var out []string
		for _, is := range mustParse(t, doc, Options{}) {
			out = append(out, is.Fingerprint)
		}
		return out
	}
	at := func(rule, file string, line int, msg, extra string) string {
		return fmt.Sprintf(`{"ruleId": %q, "message": {"text": %q}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": %q}, "region": {"startLine": %d}}}]%s}`, rule, msg, file, line, extra)
	}
	base := fp(sarifLog("x", "", at("R", "a.go", 10, "m", ""), at("R", "a.go", 20, "m", "")))
	if base[0] == base[1] {
		t.Fatal("two identical findings in one file share a fingerprint")
	}
	// The same two findings listed in the other order, lines moved: each
	// keeps its fingerprint, by its place in the file.
	swapped := fp(sarifLog("x", "", at("R", "a.go", 31, "m", ""), at("R", "a.go", 13, "m", "")))
	if swapped[1] != base[0] || swapped[0] != base[1] {
		t.Error("occurrence index does not follow line order")
	}
	other := []struct {
		name string
		doc  string
	}{
		{"another tool", sarifLog("y", "", at("R", "a.go", 10, "m", ""))},
		{"another rule", sarifLog("x", "", at("R2", "a.go", 10, "m", ""))},
		{"another file", sarifLog("x", "", at("R", "b.go", 10, "m", ""))},
		{"another message", sarifLog("x", "", at("R", "a.go", 10, "m2", ""))},
	}
	for _, o := range other {
		if got := fp(o.doc)[0]; got == base[0] {
			t.Errorf("%s: same fingerprint", o.name)
		}
	}
	// Line numbers inside messages do not count; whitespace is collapsed.
	a := fp(sarifLog("x", "", at("R", "a.go", 10, "x declared and not used (see line 4, column 2; lines 7-9; dup of b.go:30-40)", "")))
	b := fp(sarifLog("x", "", at("R", "a.go", 15, "x declared  and not used (see line 9, column 2; lines 12-14; dup of b.go:35-45)", "")))
	if a[0] != b[0] {
		t.Error("line numbers in the message changed the fingerprint")
	}
	// partialFingerprints decide when present: the message may change.
	pf := `, "partialFingerprints": {"primaryLocationLineHash": "abc:1", "other": ""}`
	p1 := fp(sarifLog("x", "", at("R", "a.go", 10, "m", pf)))
	p2 := fp(sarifLog("x", "", at("R", "a.go", 99, "m changed", pf)))
	p3 := fp(sarifLog("x", "", at("R", "a.go", 10, "m", `, "partialFingerprints": {"primaryLocationLineHash": "abd:1"}`)))
	if p1[0] != p2[0] || p1[0] == p3[0] {
		t.Error("partialFingerprints do not decide the fingerprint")
	}
	// fingerprints when there are no partial ones; empty values are ignored.
	f1 := fp(sarifLog("x", "", at("R", "a.go", 10, "m", `, "fingerprints": {"matchBasedId/v1": "f00"}`)))
	f2 := fp(sarifLog("x", "", at("R", "a.go", 10, "m2", `, "fingerprints": {"matchBasedId/v1": "f00"}, "partialFingerprints": {"commitSha": ""}`)))
	if f1[0] != f2[0] {
		t.Error("fingerprints do not decide the fingerprint")
	}
}

func TestParseEachStoresNothingOnError(t *testing.T) {
	doc := sarifLog("x", "", res(`"ruleId": "R", "message": {"text": "first"}`), res(`"ruleId": "R", "level": "fatal", "message": {"text": "bad"}`))
	calls := 0
	err := ParseEach(strings.NewReader(doc), Options{OnSkip: func(Skip) { calls++ }}, func(plumb.Issue) error { calls++; return nil })
	var pe *ParseError
	if !errors.As(err, &pe) || calls != 0 {
		t.Fatalf("err %v, %d calls", err, calls)
	}
	stop := errors.New("stop")
	n := 0
	err = ParseEach(strings.NewReader(sarifLog("x", "", res(`"ruleId": "R", "message": {"text": "a"}`), res(`"ruleId": "R", "message": {"text": "b"}`))),
		Options{}, func(plumb.Issue) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("err %v after %d calls, want stop after 1", err, n)
	}
}

func TestEmpty(t *testing.T) {
	for _, doc := range []string{
		`{"version": "2.1.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": null}]}`,
		"\xef\xbb\xbf" + `{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "runs": [], "version": "2.1.0"}` + "\n\n",
	} {
		got := mustParse(t, doc, Options{})
		if got == nil || len(got) != 0 {
			t.Errorf("%s: got %#v, want an empty list", doc, got)
		}
	}
}

// TestMultipleRuns: every run is read, each with its own tool and rules;
// OnRun learns of every run, one without results too.
func TestMultipleRuns(t *testing.T) {
	doc := `{"version": "2.1.0", "runs": [
		{"tool": {"driver": {"name": "gosec", "rules": [{"id": "G101", "helpUri": "https://securego.io/docs/rules/g101"}]}},
		 "results": [` + res(`"ruleId": "G101", "level": "error", "message": {"text": "Potential hardcoded credentials"}`) + `]},
		{"results": [` + res(`"ruleIndex": 0, "message": {"text": "x is unused"}`) + `],
		 "tool": {"driver": {"name": "Staticcheck", "rules": [{"id": "U1000", "defaultConfiguration": {"level": "warning"}}]}}},
		{"tool": {"driver": {"name": "ESLint custom"}}, "results": []}
	]}`
	var tools []string
	got := noFingerprints(mustParse(t, doc, Options{OnRun: func(tool string) { tools = append(tools, tool) }}))
	if !reflect.DeepEqual(tools, []string{"gosec", "staticcheck", "ESLint custom"}) {
		t.Errorf("OnRun told %q", tools)
	}
	diff(t, got, []plumb.Issue{
		{Tool: "gosec", RuleKey: "G101", Message: "Potential hardcoded credentials", Category: "secret", Level: "high", Status: "open",
			DocumentationURL: "https://securego.io/docs/rules/g101", Path: "a.go", StartLine: ip(10), EndLine: ip(10)},
		{Tool: "staticcheck", RuleKey: "U1000", Message: "x is unused", Category: "dead_code", Level: "medium", Status: "open",
			Path: "a.go", StartLine: ip(10), EndLine: ip(10)},
	})
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want ParseError
	}{
		{"not JSON", "hello", ParseError{Line: 1, Column: 1, Msg: "invalid JSON: invalid character 'h' looking for beginning of value"}},
		{"empty", "", ParseError{Line: 1, Column: 1, Msg: "unexpected end of input: the JSON document is cut short"}},
		{"not an object", `[1]`, ParseError{Line: 1, Column: 1, Msg: "expected a SARIF log: a JSON object with \"version\" and \"runs\", found an array"}},
		{"syntax error inside a result", "{\"version\": \"2.1.0\",\n \"runs\": [{\"tool\": {\"driver\": {\"name\": \"x\"}},\n  \"results\": [\n   {\"ruleId\": \"R\",\n    \"message\": {\"text\": \"m\"} \"level\": \"error\"}]}]}",
			ParseError{Path: "runs[0].results[0]", Line: 5, Column: 30, Offset: 130, Msg: "invalid JSON: invalid character '\"' after object key:value pair"}},
		{"syntax error between members", "{\"version\": \"2.1.0\"\n \"runs\": []}",
			ParseError{Line: 2, Column: 2, Offset: 21, Msg: "invalid JSON: invalid character '\"' after object key:value pair"}},
		{"cut short", "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"x\"}}, \"results\": [{\"ruleId\": \"R\"",
			ParseError{Path: "runs[0].results[0]", Line: 1, Column: 93, Offset: 92, Msg: "unexpected end of input: the JSON document is cut short"}},
		{"data after the log", "{\"version\": \"2.1.0\", \"runs\": []}\n  {}",
			ParseError{Line: 2, Column: 3, Offset: 35, Msg: "expected the end of input after the SARIF log, found more data"}},
		{"version 2.0.0", `{"version": "2.0.0", "runs": []}`, ParseError{Path: "version", Line: 1, Column: 13, Offset: 12, Msg: "expected \"2.1.0\" (Plumb reads SARIF 2.1.0), found \"2.0.0\""}},
		{"version number", `{"version": 2.1, "runs": []}`, ParseError{Path: "version", Line: 1, Column: 13, Offset: 12, Msg: "expected \"2.1.0\" (Plumb reads SARIF 2.1.0), found a number"}},
		{"no version", `{"runs": []}`, ParseError{Path: "version", Msg: `expected "2.1.0", the SARIF version; the log has no "version"`}},
		{"no runs", `{"version": "2.1.0"}`, ParseError{Path: "runs", Msg: `expected an array of runs; the log has no "runs"`}},
		{"runs null", `{"version": "2.1.0", "runs": null}`, ParseError{Path: "runs", Line: 1, Column: 30, Offset: 29, Msg: "expected an array of runs, found null"}},
		{"runs twice", `{"version": "2.1.0", "runs": [], "runs": []}`, ParseError{Path: "runs", Line: 1, Column: 34, Offset: 33, Msg: "expected one \"runs\" array, found a second"}},
		{"run not an object", `{"version": "2.1.0", "runs": ["x"]}`, ParseError{Path: "runs[0]", Line: 1, Column: 31, Offset: 30, Msg: "expected a run object, found a string"}},
		{"run without tool", "{\"version\": \"2.1.0\", \"runs\": [\n  {\"results\": []}]}", ParseError{Path: "runs[0].tool", Line: 2, Column: 3, Offset: 33, Msg: "expected the tool that produced the run; the run has none"}},
		{"tool without driver", "{\"version\": \"2.1.0\", \"runs\": [\n  {\"tool\": {}}]}", ParseError{Path: "runs[0].tool.driver", Line: 2, Column: 12, Offset: 42, Msg: "expected the tool's driver component; the tool has none"}},
		{"driver without name", "{\"version\": \"2.1.0\", \"runs\": [\n  {\"tool\": {\"driver\": {\"rules\": []}}}]}", ParseError{Path: "runs[0].tool.driver", Line: 2, Column: 23, Offset: 53, Msg: "expected the tool's name in driver.name"}},
		{"results not an array", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": {"a": 1}}]}`,
			ParseError{Path: "runs[0].results", Line: 1, Column: 78, Offset: 77, Msg: "expected an array of results, found an object"}},
		{"result without message", sarifLog("x", "", res(`"ruleId": "R"`), "\n  "+res(`"ruleId": "R"`)),
			ParseError{Path: "runs[0].results[0].message", Line: 1, Column: 92, Offset: 91, Msg: "expected a message object with \"text\" or \"id\"; the result has none"}},
		{"second result without message", sarifLog("x", "", res(`"ruleId": "R", "message": {"text": "m"}`), "\n  "+res(`"ruleId": "R"`)),
			ParseError{Path: "runs[0].results[1].message", Line: 3, Column: 3, Offset: 242, Msg: "expected a message object with \"text\" or \"id\"; the result has none"}},
		{"result without rule", sarifLog("x", "", res(`"message": {"text": "m"}`)),
			ParseError{Path: "runs[0].results[0].ruleId", Line: 1, Column: 92, Offset: 91, Msg: "expected the rule that produced the result (ruleId, rule.id or ruleIndex); the result has none"}},
		{"ruleIndex out of range", sarifLog("x", `{"id": "A"}`, res(`"ruleIndex": 3, "message": {"text": "m"}`)),
			ParseError{Path: "runs[0].results[0].ruleIndex", Line: 1, Column: 103, Offset: 102, Msg: "expected an index into runs[0].tool.driver.rules (1 rules), found 3"}},
		{"toolComponent out of range", sarifLog("x", "", res(`"rule": {"id": "A", "toolComponent": {"index": 0}}, "message": {"text": "m"}`)),
			ParseError{Path: "runs[0].results[0].rule.toolComponent.index", Line: 1, Column: 92, Offset: 91, Msg: "expected an index into runs[0].tool.extensions (0 components), found 0"}},
		{"unknown level", "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"x\"}}, \"results\": [\n" + res(`"ruleId": "R", "message": {"text": "m"},`+"\n"+`   "level": "fatal"`) + "]}]}",
			ParseError{Path: "runs[0].results[0].level", Line: 3, Column: 13, Offset: 238, Msg: "expected one of error, warning, note, none, found \"fatal\""}},
		{"unknown kind", sarifLog("x", "", res(`"ruleId": "R", "kind": "failed", "message": {"text": "m"}`)),
			ParseError{Path: "runs[0].results[0].kind", Line: 1, Column: 221, Offset: 220, Msg: "expected one of fail, pass, open, review, informational, notApplicable, found \"failed\""}},
		{"unknown suppression status", sarifLog("x", "", res(`"ruleId": "R", "message": {"text": "m"}, "suppressions": [{"status": "maybe"}]`)),
			ParseError{Path: "runs[0].results[0].suppressions[0].status", Line: 1, Column: 267, Offset: 266, Msg: "expected one of accepted, underReview, rejected, found \"maybe\""}},
		{"startLine a string", "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"x\"}}, \"results\": [\n" +
			`{"ruleId": "R", "message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go"},` + "\n" + `"region": {"startLine": "12"}}}]}]}]}`,
			ParseError{Path: "runs[0].results[0].locations[0].physicalLocation.region.startLine", Line: 3, Column: 25, Offset: 218, Msg: "expected an integer, found string"}},
		{"arguments not strings", sarifLog("x", "", res(`"ruleId": "R", "message": {"text": "{0}", "arguments": [1]}`)),
			ParseError{Path: "runs[0].results[0].message.arguments[0]", Line: 1, Column: 254, Offset: 253, Msg: "expected a string, found number"}},
		{"bad rule default level", "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"x\", \"rules\": [\n {\"id\": \"A\"},\n {\"id\": \"B\", \"defaultConfiguration\": {\"level\": \"severe\"}}]}},\n \"results\": []}]}",
			ParseError{Path: "runs[0].tool.driver.rules[1].defaultConfiguration.level", Line: 3, Column: 48, Offset: 136, Msg: "expected one of error, warning, note, none, found \"severe\""}},
		{"extension rule level", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}, "extensions": [{"name": "e", "rules": [{"id": "A", "defaultConfiguration": {"level": "bad"}}]}]}}]}`,
			ParseError{Path: "runs[0].tool.extensions[0].rules[0].defaultConfiguration.level", Line: 1, Column: 151, Offset: 150, Msg: "expected one of error, warning, note, none, found \"bad\""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fnCalls int
			err := ParseEach(strings.NewReader(c.doc), Options{}, func(plumb.Issue) error { fnCalls++; return nil })
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if *pe != c.want {
				t.Errorf("got  %#v\nwant %#v\n%s", *pe, c.want, pe)
			}
			if fnCalls != 0 {
				t.Errorf("%d issues handed over from a malformed report", fnCalls)
			}
			if pe.Line > 0 && pe.Offset > 0 {
				// Line, column and offset agree with the document.
				lines := strings.Split(c.doc[:pe.Offset], "\n")
				if len(lines) != pe.Line || len(lines[len(lines)-1])+1 != pe.Column {
					t.Errorf("offset %d is line %d column %d, not line %d column %d", pe.Offset, len(lines), len(lines[len(lines)-1])+1, pe.Line, pe.Column)
				}
				if testing.Verbose() {
					t.Logf("at: %q", c.doc[pe.Offset:min(len(c.doc), int(pe.Offset)+12)])
				}
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	e := &ParseError{Path: "runs[0].results[12].message", Line: 40, Column: 7, Offset: 1234, Msg: `expected a message object with "text" or "id"; the result has none`}
	want := `SARIF report at runs[0].results[12].message (line 40, column 7, byte 1234): expected a message object with "text" or "id"; the result has none`
	if e.Error() != want {
		t.Errorf("got  %s\nwant %s", e, want)
	}
	e = &ParseError{Path: "version", Msg: "expected x"}
	if e.Error() != "SARIF report at version: expected x" {
		t.Errorf("got %s", e)
	}
}

// TestLargeReport: positions stay right past the amounts the reader keeps
// (it forgets what the decoder has passed).
func TestLargeReport(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n \"version\": \"2.1.0\",\n \"runs\": [{\n  \"tool\": {\"driver\": {\"name\": \"x\"}},\n  \"results\": [\n")
	const n = 20000
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "   {\"ruleId\": \"R%d\",\n    \"message\": {\"text\": \"finding %d\"},\n    \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"f%d.go\"}, \"region\": {\"startLine\": %d}}}]}", i%7, i, i%50, i+1)
	}
	b.WriteString("\n  ]\n }]\n}\n")
	doc := b.String()
	got := mustParse(t, doc, Options{})
	if len(got) != n || got[n-1].Message != fmt.Sprintf("finding %d", n-1) {
		t.Fatalf("got %d issues", len(got))
	}
	// An error in the last result: lines 6 + 3i (0-based i) start result i.
	bad := strings.Replace(doc, fmt.Sprintf(`"ruleId": "R%d",`+"\n    \"message\": {\"text\": \"finding %d\"}", (n-1)%7, n-1), fmt.Sprintf(`"ruleId": "R%d", "level": "x",`+"\n    \"message\": {\"text\": \"finding %d\"}", (n-1)%7, n-1), 1)
	_, err := Parse(strings.NewReader(bad), Options{})
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	wantLine := 6 + 3*(n-1)
	if pe.Path != fmt.Sprintf("runs[0].results[%d].level", n-1) || pe.Line != wantLine || pe.Column != 30 {
		t.Errorf("got %s, want line %d column 30", pe, wantLine)
	}
	// A syntax error near the end.
	cut := strings.Replace(doc, fmt.Sprintf(`"finding %d"}`, n-2), fmt.Sprintf(`"finding %d"]`, n-2), 1)
	_, err = Parse(strings.NewReader(cut), Options{})
	if !errors.As(err, &pe) || pe.Line != 6+3*(n-2)+1 {
		t.Errorf("got %v, want line %d", err, 6+3*(n-2)+1)
	}
}

func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "golangci-lint"}}, "results": [`)
	const n = 10000
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `{"ruleId": "errcheck", "level": "error", "message": {"text": "Error return value of `+"`f.Close`"+` is not checked"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "pkg/p%d/file.go", "index": 0}, "region": {"startLine": %d, "startColumn": 9}}}]}`, i%100, i+1)
	}
	sb.WriteString("]}]}")
	doc := sb.String()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(strings.NewReader(doc), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
