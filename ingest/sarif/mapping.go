package sarif

import "strings"

// toolNames gives the tool ids of the mapping table to the driver names
// tools write (runs[].tool.driver.name), matched without case; '*' matches
// any run of characters. Other tools keep their driver name as written.
var toolNames = []struct{ pattern, id string }{
	{"golangci-lint", "golangci-lint"},
	{"staticcheck", "staticcheck"},
	{"gosec", "gosec"},
	{"eslint", "eslint"},
	{"semgrep*", "semgrep"}, // "Semgrep OSS", "Semgrep PRO", "semgrep"
	{"codeql*", "codeql"},   // "CodeQL", "CodeQL command-line toolchain"
	{"trivy*", "trivy"},
	{"gitleaks", "gitleaks"},
}

// toolID returns the tool id for a driver name.
func toolID(driver string) string {
	driver = strings.TrimSpace(driver)
	for _, t := range toolNames {
		if glob(t.pattern, driver) {
			return t.id
		}
	}
	return driver
}

// mapping is one row of the category table. A row applies when every
// condition it sets holds: the tool id, the rule key (a pattern) and the
// rule's and result's tags (each element a pattern that some tag must
// match). Patterns match without case; '*' matches any run of characters
// and '|' separates alternatives. The first row that applies decides.
type mapping struct {
	Tool     string
	Rule     string
	Tags     []string
	Category string
	// Level, when set, replaces the level the report gives.
	Level string
	// Via names a tool whose rows are tried first with the code the message
	// starts with ("G101: Potential hardcoded credentials"): golangci-lint
	// reports gosec and staticcheck findings under the linter's name.
	Via string
}

// mappings is the category table, most specific rows first. A result no row
// applies to is "lint". docs/sarif.md shows this table (a test keeps the
// two equal).
var mappings = []mapping{
	// staticcheck: https://staticcheck.dev/docs/checks
	{Tool: "staticcheck", Rule: "U1000", Category: "dead_code"},
	{Tool: "staticcheck", Rule: "SA1019", Category: "anti_pattern"}, // use of a deprecated identifier
	{Tool: "staticcheck", Rule: "SA6*", Category: "performance"},
	{Tool: "staticcheck", Rule: "SA*", Category: "bug"},
	{Tool: "staticcheck", Rule: "ST1000|ST1020|ST1021|ST1022", Category: "documentation"},
	{Tool: "staticcheck", Rule: "ST*|QF*", Category: "style"},
	{Tool: "staticcheck", Rule: "S*", Category: "anti_pattern"}, // simplifications

	// gosec: https://github.com/securego/gosec#available-rules
	{Tool: "gosec", Rule: "G101", Category: "secret"},
	{Tool: "gosec", Rule: "G104|G109|G115|G601|G602", Category: "bug"},
	{Tool: "gosec", Rule: "G102|G103|G107|G108|G204|G301|G302|G304|G306|G307|G404|G5*", Category: "security_hotspot"},
	{Tool: "gosec", Rule: "G*", Category: "vulnerability"},

	// golangci-lint: the rule is the linter's name.
	{Tool: "golangci-lint", Rule: "gosec", Via: "gosec", Category: "vulnerability"},
	{Tool: "golangci-lint", Rule: "staticcheck|gosimple|stylecheck", Via: "staticcheck", Category: "lint"},
	{Tool: "golangci-lint", Rule: "typecheck", Category: "type_check"},
	{Tool: "golangci-lint", Rule: "gofmt|gofumpt|goimports|gci|golines|swaggo", Category: "style", Level: "fmt"},
	{Tool: "golangci-lint", Rule: "unused|ineffassign|wastedassign|unparam|deadcode|varcheck|structcheck", Category: "dead_code"},
	{Tool: "golangci-lint", Rule: "gocyclo|gocognit|cyclop|funlen|nestif|maintidx", Category: "structure"},
	{Tool: "golangci-lint", Rule: "dupl", Category: "duplication"},
	{Tool: "golangci-lint", Rule: "misspell|godot|godox|dupword", Category: "documentation"},
	{Tool: "golangci-lint", Rule: "errcheck|govet|bodyclose|rowserrcheck|sqlclosecheck|nilerr|nilnil|errorlint|durationcheck|exhaustive|makezero|contextcheck|noctx|asasalint|errchkjson|musttag", Category: "bug"},
	{Tool: "golangci-lint", Rule: "prealloc|perfsprint", Category: "performance"},
	{Tool: "golangci-lint", Rule: "revive|lll|whitespace|wsl|wsl_v5|nlreturn|varnamelen|tagliatelle|predeclared|importas", Category: "style"},
	{Tool: "golangci-lint", Rule: "gocritic", Category: "anti_pattern"},

	// ESLint: the rule is the rule id, plugin rules prefixed by the plugin.
	{Tool: "eslint", Rule: "prettier/prettier|@stylistic/*", Category: "style", Level: "fmt"},
	{Tool: "eslint", Rule: "jsx-a11y/*|vuejs-accessibility/*|lit-a11y/*|@angular-eslint/template/accessibility-*", Category: "accessibility"},
	{Tool: "eslint", Rule: "security/*|no-unsanitized/*", Category: "vulnerability"},
	{Tool: "eslint", Rule: "no-eval|no-implied-eval|no-new-func|no-script-url", Category: "security_hotspot"},
	{Tool: "eslint", Rule: "no-unused-*|no-unreachable|no-unreachable-loop|@typescript-eslint/no-unused-*|unused-imports/*", Category: "dead_code"},
	{Tool: "eslint", Rule: "@typescript-eslint/no-unsafe-*|@typescript-eslint/no-explicit-any|@typescript-eslint/restrict-*|@typescript-eslint/strict-boolean-expressions|@typescript-eslint/no-unnecessary-type-*|@typescript-eslint/await-thenable|@typescript-eslint/no-non-null-assertion|@typescript-eslint/ban-ts-comment", Category: "type_check"},
	{Tool: "eslint", Rule: "no-undef|no-dupe-*|no-unsafe-finally|no-unsafe-negation|no-cond-assign|no-self-compare|use-isnan|valid-typeof|no-fallthrough|react-hooks/rules-of-hooks|@typescript-eslint/no-floating-promises|@typescript-eslint/no-misused-promises", Category: "bug"},
	{Tool: "eslint", Rule: "complexity|max-depth|max-lines|max-lines-per-function|max-params|max-statements|max-nested-callbacks|sonarjs/cognitive-complexity", Category: "structure"},
	{Tool: "eslint", Rule: "sonarjs/no-duplicate-string|sonarjs/no-identical-functions", Category: "duplication"},
	{Tool: "eslint", Rule: "jsdoc/*", Category: "documentation"},

	// Semgrep registry rule ids carry the rule's category
	// ("python.lang.security.audit.eval-detected.eval-detected").
	{Tool: "semgrep", Rule: "*.secrets.*", Category: "secret"},
	{Tool: "semgrep", Rule: "*.security.*", Category: "vulnerability"},
	{Tool: "semgrep", Rule: "*.correctness.*", Category: "bug"},
	{Tool: "semgrep", Rule: "*.performance.*", Category: "performance"},
	{Tool: "semgrep", Rule: "*.best-practice.*", Category: "anti_pattern"},
	{Tool: "semgrep", Rule: "*.maintainability.*", Category: "structure"},

	// CodeQL: query ids; the tags below do the rest.
	{Tool: "codeql", Rule: "*hardcoded-credential*", Category: "secret"},

	// Trivy tags every rule with its scanner.
	{Tool: "trivy", Tags: []string{"vulnerability"}, Category: "dependency_alert"},
	{Tool: "trivy", Tags: []string{"misconfiguration"}, Category: "security_hotspot"},
	{Tool: "trivy", Tags: []string{"secret"}, Category: "secret"},

	// gitleaks finds secrets only; a leaked secret is urgent whatever the
	// report's level (gitleaks writes none).
	{Tool: "gitleaks", Category: "secret", Level: "high"},

	// Any tool: advisory ids, then rule tags (CodeQL, Semgrep, gosec and
	// GitHub's conventions).
	{Rule: "CVE-*|GHSA-*", Category: "dependency_alert"},
	{Tags: []string{"secret|secrets"}, Category: "secret"},
	{Tags: []string{"security"}, Category: "vulnerability"},
	{Tags: []string{"useless-code|dead-code|unused-code|external/cwe/cwe-561|external/cwe/cwe-563"}, Category: "dead_code"},
	{Tags: []string{"correctness|reliability|bug"}, Category: "bug"},
	{Tags: []string{"performance"}, Category: "performance"},
	{Tags: []string{"accessibility|a11y"}, Category: "accessibility"},
	{Tags: []string{"documentation"}, Category: "documentation"},
	{Tags: []string{"duplicate-code|duplication"}, Category: "duplication"},
	{Tags: []string{"format|formatting"}, Category: "style", Level: "fmt"},
	{Tags: []string{"style|readability"}, Category: "style"},
	{Tags: []string{"maintainability|complexity"}, Category: "structure"},
}

// defaultCategory is the category of a result no row applies to.
const defaultCategory = "lint"

// messageCode returns the rule code a message starts with ("G101" of
// "G101: Potential hardcoded credentials", "SA4006" of "SA4006: ..."): one to
// three capital letters, three to five digits, a colon and a space; else "".
func messageCode(msg string) string {
	i := 0
	for i < len(msg) && i < 3 && msg[i] >= 'A' && msg[i] <= 'Z' {
		i++
	}
	j := i
	for j < len(msg) && j-i < 5 && msg[j] >= '0' && msg[j] <= '9' {
		j++
	}
	if i == 0 || j-i < 3 || j+1 >= len(msg) || msg[j] != ':' || (msg[j+1] != ' ' && msg[j+1] != '\t') {
		return ""
	}
	return msg[:j]
}

// compiled is mappings with its patterns split and lower-cased once.
var compiled = compileMappings(mappings)

type compiledMapping struct {
	*mapping
	rule []string   // alternatives; nil = any
	tags [][]string // per required tag, its alternatives
}

func compileMappings(ms []mapping) []compiledMapping {
	split := func(p string) []string { return strings.Split(strings.ToLower(p), "|") }
	out := make([]compiledMapping, len(ms))
	for i := range ms {
		c := compiledMapping{mapping: &ms[i]}
		if ms[i].Rule != "" {
			c.rule = split(ms[i].Rule)
		}
		for _, t := range ms[i].Tags {
			c.tags = append(c.tags, split(t))
		}
		out[i] = c
	}
	return out
}

// classify returns the category of a result and the level the table fixes
// ("" to keep the report's). code is the rule code the message starts with
// (messageCode), used by rows with Via.
func classify(tool, rule, code string, tags []string) (category, level string) {
	rule = strings.ToLower(rule)
	lower := make([]string, len(tags))
	for i, t := range tags {
		lower[i] = strings.ToLower(t)
	}
	for i := range compiled {
		m := &compiled[i]
		if !m.applies(tool, rule, lower) {
			continue
		}
		if m.Via != "" && code != "" {
			lc := strings.ToLower(code)
			for k := range compiled {
				if v := &compiled[k]; v.Tool == m.Via && v.applies(m.Via, lc, lower) {
					return v.Category, v.Level
				}
			}
		}
		return m.Category, m.Level
	}
	return defaultCategory, ""
}

// applies takes the rule and tags lower-cased.
func (m *compiledMapping) applies(tool, rule string, tags []string) bool {
	if m.Tool != "" && m.Tool != tool {
		return false
	}
	if m.rule != nil && !matchAny(m.rule, rule) {
		return false
	}
	for _, want := range m.tags {
		found := false
		for _, t := range tags {
			if matchAny(want, t) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func matchAny(alternatives []string, s string) bool {
	for _, a := range alternatives {
		if globOne(a, s) {
			return true
		}
	}
	return false
}

// glob matches s against pattern without case: '*' matches any run of
// characters, '|' separates alternatives.
func glob(pattern, s string) bool {
	s = strings.ToLower(s)
	for _, alt := range strings.Split(strings.ToLower(pattern), "|") {
		if globOne(alt, s) {
			return true
		}
	}
	return false
}

func globOne(p, s string) bool {
	parts := strings.Split(p, "*")
	if len(parts) == 1 {
		return p == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}
