package demo

import (
	"path"
	"strings"
)

// rule is one check of one tool, as the demo uses it.
type rule struct {
	tool, key, category, level string
	doc                        string   // documentation URL; "" when the tool has none
	targets                    []target // the kinds of file it fires on
	messages                   []string // templates, see fillMessage
	weight                     int      // how often it fires, relative to the others
	span                       int      // endLine - startLine is at most this
}

// target is what a rule looks at.
type target string

const (
	tGo     target = "go"
	tGoTest target = "gotest"
	tTS     target = "ts"
	tTSX    target = "tsx" // React components (also gets tTS rules)
	tTSTest target = "tstest"
	tPy     target = "py"
	tPyTest target = "pytest"
	tDocker target = "docker"
	tTF     target = "tf"
	tK8s    target = "k8s"
	tShell  target = "sh"
	tSecret target = "secret" // files where credentials get pasted
)

// targetsOf returns the targets of a path.
func targetsOf(p string) []target {
	switch kindOf(p) {
	case kindGo:
		return []target{tGo}
	case kindGoTest:
		return []target{tGoTest}
	case kindTS:
		if strings.HasSuffix(p, ".tsx") || strings.HasSuffix(p, ".jsx") {
			return []target{tTS, tTSX}
		}
		return []target{tTS}
	case kindTSTest:
		return []target{tTSTest}
	case kindPy:
		return []target{tPy}
	case kindPyTest:
		return []target{tPyTest}
	case kindDocker:
		return []target{tDocker}
	case kindTerraform:
		switch path.Base(p) {
		case "variables.tf", "outputs.tf", "backend.tf":
			return nil // declarations only: nothing for a scanner to flag
		}
		return []target{tTF}
	case kindShell:
		return []target{tShell}
	case kindConfig:
		if strings.HasPrefix(p, "k8s/") {
			return []target{tK8s}
		}
	}
	return nil
}

// mayHoldSecret reports whether gitleaks plausibly fires on p.
func mayHoldSecret(p string) bool {
	k := kindOf(p)
	return strings.HasPrefix(p, "config/") || strings.HasPrefix(p, "testdata/") ||
		strings.HasSuffix(p, ".env.example") || strings.HasSuffix(p, ".tfvars") ||
		k == kindGoTest || k == kindPyTest || k == kindShell
}

const (
	golangciDoc = "https://golangci-lint.run/usage/linters/#"
	staticDoc   = "https://staticcheck.dev/docs/checks/#"
	gosecDoc    = "https://github.com/securego/gosec#available-rules"
	eslintDoc   = "https://eslint.org/docs/latest/rules/"
	tsEslintDoc = "https://typescript-eslint.io/rules/"
	ruffDoc     = "https://docs.astral.sh/ruff/rules/"
	semgrepDoc  = "https://semgrep.dev/r/"
	avdDoc      = "https://avd.aquasec.com/misconfig/"
)

var goAll = []target{tGo, tGoTest}

// rules is the catalogue the demo's issues come from. Messages are the
// tools' own wording; {name} fills from a vocabulary and {a-b} is a number.
var rules = []rule{
	// golangci-lint
	{tool: "golangci-lint", key: "errcheck", category: "bug", level: "medium", doc: golangciDoc + "errcheck", targets: goAll, weight: 14,
		messages: []string{"Error return value of `{gocall}` is not checked"}},
	{tool: "golangci-lint", key: "ineffassign", category: "dead_code", level: "low", doc: golangciDoc + "ineffassign", targets: goAll, weight: 5,
		messages: []string{"ineffectual assignment to {govar}"}},
	{tool: "golangci-lint", key: "unused", category: "dead_code", level: "low", doc: golangciDoc + "unused", targets: []target{tGo}, weight: 5,
		messages: []string{"func `{gofunc}` is unused", "const `{goconst}` is unused", "field `{gofield}` is unused"}},
	{tool: "golangci-lint", key: "govet", category: "bug", level: "medium", doc: golangciDoc + "govet", targets: goAll, weight: 4,
		messages: []string{"printf: fmt.Sprintf format %d has arg {govar} of wrong type string", "copylocks: {gofunc} passes lock by value: sync.Mutex", "shadow: declaration of \"{govar}\" shadows declaration at line {10-400}"}},
	{tool: "golangci-lint", key: "gocritic", category: "anti_pattern", level: "low", doc: golangciDoc + "gocritic", targets: goAll, weight: 6,
		messages: []string{"ifElseChain: rewrite if-else to switch statement", "appendAssign: append result not assigned to the same slice", "rangeValCopy: each iteration copies {96-512} bytes (consider pointers or indexing)", "hugeParam: {govar} is heavy ({80-400} bytes); consider passing it by pointer", "singleCaseSwitch: should rewrite switch statement to if statement"}, span: 6},
	{tool: "golangci-lint", key: "revive", category: "documentation", level: "note", doc: golangciDoc + "revive", targets: []target{tGo}, weight: 8,
		messages: []string{"exported: exported function {goexported} should have comment or be unexported", "exported: exported type {gotype} should have comment or be unexported", "exported: exported method {gotype}.{goexported} should have comment or be unexported"}},
	{tool: "golangci-lint", key: "gocognit", category: "structure", level: "medium", doc: golangciDoc + "gocognit", targets: []target{tGo}, weight: 4,
		messages: []string{"cognitive complexity {31-86} of func `{gofunc}` is high (> 30)"}, span: 60},
	{tool: "golangci-lint", key: "dupl", category: "duplication", level: "low", doc: golangciDoc + "dupl", targets: goAll, weight: 3,
		messages: []string{"{12-90} lines are duplicate of `{gofile}:{20-300}-{301-420}`"}, span: 40},
	{tool: "golangci-lint", key: "gofmt", category: "style", level: "fmt", doc: golangciDoc + "gofmt", targets: goAll, weight: 2,
		messages: []string{"File is not `gofmt`-ed with `-s`"}},
	{tool: "golangci-lint", key: "lll", category: "style", level: "fmt", doc: golangciDoc + "lll", targets: goAll, weight: 5,
		messages: []string{"the line is {121-190} characters long, which exceeds the maximum of 120 characters."}},
	{tool: "golangci-lint", key: "misspell", category: "style", level: "note", doc: golangciDoc + "misspell", targets: goAll, weight: 2,
		messages: []string{"`{misspelling}`"}},
	{tool: "golangci-lint", key: "bodyclose", category: "bug", level: "medium", doc: golangciDoc + "bodyclose", targets: []target{tGo}, weight: 2,
		messages: []string{"response body must be closed"}},
	{tool: "golangci-lint", key: "noctx", category: "bug", level: "low", doc: golangciDoc + "noctx", targets: []target{tGo}, weight: 2,
		messages: []string{"should rewrite http.NewRequestWithContext or add (*Request).WithContext", "(*database/sql.DB).Query must not be called"}},
	{tool: "golangci-lint", key: "prealloc", category: "performance", level: "note", doc: golangciDoc + "prealloc", targets: []target{tGo}, weight: 3,
		messages: []string{"Consider preallocating `{goslice}`"}},

	// staticcheck
	{tool: "staticcheck", key: "SA4006", category: "bug", level: "medium", doc: staticDoc + "SA4006", targets: goAll, weight: 4,
		messages: []string{"this value of `{govar}` is never used"}},
	{tool: "staticcheck", key: "SA1019", category: "anti_pattern", level: "low", doc: staticDoc + "SA1019", targets: goAll, weight: 4,
		messages: []string{"{deprecated}"}},
	{tool: "staticcheck", key: "SA5011", category: "bug", level: "high", doc: staticDoc + "SA5011", targets: []target{tGo}, weight: 2,
		messages: []string{"possible nil pointer dereference of `{govar}`"}},
	{tool: "staticcheck", key: "SA1012", category: "bug", level: "medium", doc: staticDoc + "SA1012", targets: goAll, weight: 1,
		messages: []string{"do not pass a nil Context, even if a function permits it; pass context.TODO if you are unsure about which Context to use"}},
	{tool: "staticcheck", key: "S1002", category: "style", level: "low", doc: staticDoc + "S1002", targets: goAll, weight: 2,
		messages: []string{"should omit comparison to bool constant, can be simplified to `{govar}`", "should omit comparison to bool constant, can be simplified to `!{govar}`"}},
	{tool: "staticcheck", key: "U1000", category: "dead_code", level: "low", doc: staticDoc + "U1000", targets: goAll, weight: 4,
		messages: []string{"func {gofunc} is unused", "type {gotype}V1 is unused", "field {gofield} is unused"}},
	{tool: "staticcheck", key: "SA6000", category: "performance", level: "medium", doc: staticDoc + "SA6000", targets: []target{tGo}, weight: 1,
		messages: []string{"calling regexp.MatchString in a loop has poor performance, consider using regexp.Compile"}},
	{tool: "staticcheck", key: "ST1003", category: "style", level: "note", doc: staticDoc + "ST1003", targets: goAll, weight: 5,
		messages: []string{"{initialism}"}},
	{tool: "staticcheck", key: "QF1003", category: "style", level: "note", doc: staticDoc + "QF1003", targets: goAll, weight: 2,
		messages: []string{"could use tagged switch on {govar}"}, span: 12},

	// gosec
	{tool: "gosec", key: "G101", category: "security_hotspot", level: "high", doc: gosecDoc, targets: goAll, weight: 1,
		messages: []string{"Potential hardcoded credentials"}},
	{tool: "gosec", key: "G104", category: "security_hotspot", level: "low", doc: gosecDoc, targets: []target{tGo}, weight: 4,
		messages: []string{"Errors unhandled."}},
	{tool: "gosec", key: "G107", category: "security_hotspot", level: "medium", doc: gosecDoc, targets: []target{tGo}, weight: 1,
		messages: []string{"Potential HTTP request made with variable url"}},
	{tool: "gosec", key: "G201", category: "vulnerability", level: "high", doc: gosecDoc, targets: []target{tGo}, weight: 1,
		messages: []string{"SQL string formatting"}},
	{tool: "gosec", key: "G202", category: "vulnerability", level: "high", doc: gosecDoc, targets: []target{tGo}, weight: 1,
		messages: []string{"SQL string concatenation"}},
	{tool: "gosec", key: "G204", category: "security_hotspot", level: "medium", doc: gosecDoc, targets: []target{tGo}, weight: 1,
		messages: []string{"Subprocess launched with variable"}},
	{tool: "gosec", key: "G304", category: "vulnerability", level: "medium", doc: gosecDoc, targets: goAll, weight: 2,
		messages: []string{"Potential file inclusion via variable"}},
	{tool: "gosec", key: "G401", category: "vulnerability", level: "medium", doc: gosecDoc, targets: []target{tGo}, weight: 1,
		messages: []string{"Use of weak cryptographic primitive"}},
	{tool: "gosec", key: "G402", category: "vulnerability", level: "high", doc: gosecDoc, targets: []target{tGo}, weight: 1,
		messages: []string{"TLS InsecureSkipVerify set true."}},
	{tool: "gosec", key: "G404", category: "security_hotspot", level: "low", doc: gosecDoc, targets: goAll, weight: 2,
		messages: []string{"Use of weak random number generator (math/rand or math/rand/v2 instead of crypto/rand)"}},
	{tool: "gosec", key: "G114", category: "security_hotspot", level: "medium", doc: gosecDoc, targets: []target{tGo}, weight: 1,
		messages: []string{"Use of net/http serve function that has no support for setting timeouts"}},
	{tool: "gosec", key: "G115", category: "vulnerability", level: "low", doc: gosecDoc, targets: []target{tGo}, weight: 2,
		messages: []string{"integer overflow conversion {intconv}"}},

	// eslint
	{tool: "eslint", key: "@typescript-eslint/no-unused-vars", category: "lint", level: "low", doc: tsEslintDoc + "no-unused-vars", targets: []target{tTS, tTSTest}, weight: 10,
		messages: []string{"'{tsvar}' is defined but never used.", "'{tsvar}' is assigned a value but never used."}},
	{tool: "eslint", key: "@typescript-eslint/no-explicit-any", category: "type_check", level: "medium", doc: tsEslintDoc + "no-explicit-any", targets: []target{tTS, tTSTest}, weight: 8,
		messages: []string{"Unexpected any. Specify a different type."}},
	{tool: "eslint", key: "@typescript-eslint/no-floating-promises", category: "bug", level: "high", doc: tsEslintDoc + "no-floating-promises", targets: []target{tTS}, weight: 3,
		messages: []string{"Promises must be awaited, end with a call to .catch, end with a call to .then with a rejection handler or be explicitly marked as ignored with the `void` operator."}},
	{tool: "eslint", key: "@typescript-eslint/no-non-null-assertion", category: "type_check", level: "low", doc: tsEslintDoc + "no-non-null-assertion", targets: []target{tTS, tTSTest}, weight: 4,
		messages: []string{"Forbidden non-null assertion."}},
	{tool: "eslint", key: "react-hooks/exhaustive-deps", category: "bug", level: "medium", targets: []target{tTSX}, weight: 6,
		messages: []string{"React Hook {hook} has a missing dependency: '{tsdep}'. Either include it or remove the dependency array."}},
	{tool: "eslint", key: "eqeqeq", category: "bug", level: "low", doc: eslintDoc + "eqeqeq", targets: []target{tTS}, weight: 3,
		messages: []string{"Expected '===' and instead saw '=='.", "Expected '!==' and instead saw '!='."}},
	{tool: "eslint", key: "no-console", category: "lint", level: "note", doc: eslintDoc + "no-console", targets: []target{tTS}, weight: 4,
		messages: []string{"Unexpected console statement."}},
	{tool: "eslint", key: "prefer-const", category: "style", level: "low", doc: eslintDoc + "prefer-const", targets: []target{tTS, tTSTest}, weight: 4,
		messages: []string{"'{tsvar}' is never reassigned. Use 'const' instead."}},
	{tool: "eslint", key: "complexity", category: "structure", level: "medium", doc: eslintDoc + "complexity", targets: []target{tTS}, weight: 3,
		messages: []string{"Function '{tsfunc}' has a complexity of {11-34}. Maximum allowed is 10.", "Arrow function has a complexity of {11-29}. Maximum allowed is 10."}, span: 40},
	{tool: "eslint", key: "max-lines", category: "structure", level: "low", doc: eslintDoc + "max-lines", targets: []target{tTS}, weight: 1,
		messages: []string{"File has too many lines ({301-900}). Maximum allowed is 300."}},
	{tool: "eslint", key: "jsx-a11y/alt-text", category: "accessibility", level: "medium", doc: "https://github.com/jsx-eslint/eslint-plugin-jsx-a11y/blob/main/docs/rules/alt-text.md", targets: []target{tTSX}, weight: 3,
		messages: []string{"img elements must have an alt prop, either with meaningful text, or an empty string for decorative images."}},
	{tool: "eslint", key: "jsx-a11y/click-events-have-key-events", category: "accessibility", level: "low", doc: "https://github.com/jsx-eslint/eslint-plugin-jsx-a11y/blob/main/docs/rules/click-events-have-key-events.md", targets: []target{tTSX}, weight: 3,
		messages: []string{"Visible, non-interactive elements with click handlers must have at least one keyboard listener."}},
	{tool: "eslint", key: "jsx-a11y/label-has-associated-control", category: "accessibility", level: "low", doc: "https://github.com/jsx-eslint/eslint-plugin-jsx-a11y/blob/main/docs/rules/label-has-associated-control.md", targets: []target{tTSX}, weight: 2,
		messages: []string{"A form label must be associated with a control."}},
	{tool: "eslint", key: "prettier/prettier", category: "style", level: "fmt", targets: []target{tTS, tTSTest}, weight: 8,
		messages: []string{"Replace {prettierReplace}", "Insert `{prettierIns}`", "Delete `{prettierDel}`"}},
	{tool: "eslint", key: "import/no-duplicates", category: "lint", level: "low", doc: "https://github.com/import-js/eslint-plugin-import/blob/main/docs/rules/no-duplicates.md", targets: []target{tTS}, weight: 2,
		messages: []string{"'{tsimport}' imported multiple times."}},
	{tool: "eslint", key: "sonarjs/no-duplicate-string", category: "duplication", level: "low", targets: []target{tTS, tTSTest}, weight: 2,
		messages: []string{"Define a constant instead of duplicating this literal {3-9} times."}},
	{tool: "eslint", key: "no-unreachable", category: "dead_code", level: "medium", doc: eslintDoc + "no-unreachable", targets: []target{tTS}, weight: 1,
		messages: []string{"Unreachable code."}},

	// ruff
	{tool: "ruff", key: "F401", category: "lint", level: "low", doc: ruffDoc + "unused-import/", targets: []target{tPy, tPyTest}, weight: 8,
		messages: []string{"`{pyimport}` imported but unused"}},
	{tool: "ruff", key: "F841", category: "dead_code", level: "low", doc: ruffDoc + "unused-variable/", targets: []target{tPy, tPyTest}, weight: 5,
		messages: []string{"Local variable `{pyvar}` is assigned to but never used"}},
	{tool: "ruff", key: "E501", category: "style", level: "fmt", doc: ruffDoc + "line-too-long/", targets: []target{tPy, tPyTest}, weight: 8,
		messages: []string{"Line too long ({89-160} > 88)"}},
	{tool: "ruff", key: "E711", category: "bug", level: "low", doc: ruffDoc + "none-comparison/", targets: []target{tPy}, weight: 2,
		messages: []string{"Comparison to `None` should be `cond is None`", "Comparison to `None` should be `cond is not None`"}},
	{tool: "ruff", key: "B006", category: "bug", level: "medium", doc: ruffDoc + "mutable-argument-default/", targets: []target{tPy}, weight: 3,
		messages: []string{"Do not use mutable data structures for argument defaults"}},
	{tool: "ruff", key: "B904", category: "anti_pattern", level: "low", doc: ruffDoc + "raise-without-from-inside-except/", targets: []target{tPy}, weight: 3,
		messages: []string{"Within an `except` clause, raise exceptions with `raise ... from err` or `raise ... from None` to distinguish them from errors in exception handling"}},
	{tool: "ruff", key: "S608", category: "vulnerability", level: "high", doc: ruffDoc + "hardcoded-sql-expression/", targets: []target{tPy}, weight: 2,
		messages: []string{"Possible SQL injection vector through string-based query construction"}},
	{tool: "ruff", key: "S603", category: "security_hotspot", level: "medium", doc: ruffDoc + "subprocess-without-shell-equals-true/", targets: []target{tPy}, weight: 2,
		messages: []string{"`subprocess` call: check for execution of untrusted input"}},
	{tool: "ruff", key: "S105", category: "security_hotspot", level: "medium", doc: ruffDoc + "hardcoded-password-string/", targets: []target{tPy, tPyTest}, weight: 1,
		messages: []string{"Possible hardcoded password assigned to: \"{pysecret}\""}},
	{tool: "ruff", key: "C901", category: "structure", level: "medium", doc: ruffDoc + "complex-structure/", targets: []target{tPy}, weight: 3,
		messages: []string{"`{pyfunc}` is too complex ({11-31} > 10)"}, span: 50},
	{tool: "ruff", key: "D103", category: "documentation", level: "note", doc: ruffDoc + "undocumented-public-function/", targets: []target{tPy}, weight: 5,
		messages: []string{"Missing docstring in public function"}},
	{tool: "ruff", key: "UP006", category: "style", level: "note", doc: ruffDoc + "non-pep585-annotation/", targets: []target{tPy, tPyTest}, weight: 3,
		messages: []string{"Use `list` instead of `List` for type annotation", "Use `dict` instead of `Dict` for type annotation", "Use `tuple` instead of `Tuple` for type annotation"}},
	{tool: "ruff", key: "PERF401", category: "performance", level: "low", doc: ruffDoc + "manual-list-comprehension/", targets: []target{tPy}, weight: 2,
		messages: []string{"Use a list comprehension to create a transformed list"}},
	{tool: "ruff", key: "ANN201", category: "type_check", level: "note", doc: ruffDoc + "missing-return-type-undocumented-public-function/", targets: []target{tPy}, weight: 4,
		messages: []string{"Missing return type annotation for public function `{pyfunc}`"}},

	// semgrep
	{tool: "semgrep", key: "go.lang.security.audit.database.string-formatted-query.string-formatted-query", category: "vulnerability", level: "high",
		doc: semgrepDoc + "go.lang.security.audit.database.string-formatted-query.string-formatted-query", targets: []target{tGo}, weight: 1, span: 3,
		messages: []string{"String-formatted SQL query detected. This could lead to SQL injection if the string is not sanitized properly. Audit this call to ensure the SQL is not manipulable by external data."}},
	{tool: "semgrep", key: "go.lang.security.audit.net.use-tls.use-tls", category: "security_hotspot", level: "low",
		doc: semgrepDoc + "go.lang.security.audit.net.use-tls.use-tls", targets: []target{tGo}, weight: 1,
		messages: []string{"Found an HTTP server without TLS. Use 'http.ListenAndServeTLS' instead. See https://golang.org/pkg/net/http/#ListenAndServeTLS for more information."}},
	{tool: "semgrep", key: "typescript.react.security.audit.react-dangerouslysetinnerhtml.react-dangerouslysetinnerhtml", category: "vulnerability", level: "medium",
		doc: semgrepDoc + "typescript.react.security.audit.react-dangerouslysetinnerhtml.react-dangerouslysetinnerhtml", targets: []target{tTSX}, weight: 1,
		messages: []string{"Detection of dangerouslySetInnerHTML from non-constant definition. This can inadvertently expose users to cross-site scripting (XSS) attacks if this comes from user-provided input. If you have to use dangerouslySetInnerHTML, consider using a sanitization library such as DOMPurify to sanitize your HTML."}},
	{tool: "semgrep", key: "javascript.browser.security.insecure-document-method.insecure-document-method", category: "vulnerability", level: "medium",
		doc: semgrepDoc + "javascript.browser.security.insecure-document-method.insecure-document-method", targets: []target{tTS}, weight: 1,
		messages: []string{"User controlled data in methods like `innerHTML`, `outerHTML` or `document.write` is an anti-pattern that can lead to XSS vulnerabilities"}},
	{tool: "semgrep", key: "python.lang.security.audit.subprocess-shell-true.subprocess-shell-true", category: "vulnerability", level: "high",
		doc: semgrepDoc + "python.lang.security.audit.subprocess-shell-true.subprocess-shell-true", targets: []target{tPy}, weight: 1,
		messages: []string{"Found 'subprocess' function 'run' with 'shell=True'. This is dangerous because this call will spawn the command using a shell process. Doing so propagates current shell settings and variables, which makes it much easier for a malicious actor to execute commands. Use 'shell=False' instead."}},
	{tool: "semgrep", key: "python.requests.security.disabled-cert-validation.disabled-cert-validation", category: "vulnerability", level: "high",
		doc: semgrepDoc + "python.requests.security.disabled-cert-validation.disabled-cert-validation", targets: []target{tPy}, weight: 1,
		messages: []string{"Certificate verification has been explicitly disabled. This permits insecure connections to insecure servers. Re-enable certification validation."}},
	{tool: "semgrep", key: "dockerfile.security.missing-user.missing-user", category: "security_hotspot", level: "medium",
		doc: semgrepDoc + "dockerfile.security.missing-user.missing-user", targets: []target{tDocker}, weight: 3,
		messages: []string{"By not specifying a USER, a program in the container may run as 'root'. This is a security hazard. If an attacker can control a process running as root, they may have control over the container. Ensure that the last USER in a Dockerfile is a USER other than 'root'."}},

	// trivy misconfiguration scanning (its dependency alerts come from advisories below)
	{tool: "trivy", key: "DS002", category: "security_hotspot", level: "high", doc: avdDoc + "ds002", targets: []target{tDocker}, weight: 3,
		messages: []string{"Specify at least 1 USER command in Dockerfile with non-root user as argument"}},
	{tool: "trivy", key: "DS026", category: "lint", level: "low", doc: avdDoc + "ds026", targets: []target{tDocker}, weight: 2,
		messages: []string{"Add HEALTHCHECK instruction in your Dockerfile"}},
	{tool: "trivy", key: "AVD-AWS-0107", category: "vulnerability", level: "high", doc: avdDoc + "avd-aws-0107", targets: []target{tTF}, weight: 3, span: 8,
		messages: []string{"Security group rule allows ingress from public internet."}},
	{tool: "trivy", key: "AVD-AWS-0104", category: "vulnerability", level: "high", doc: avdDoc + "avd-aws-0104", targets: []target{tTF}, weight: 3, span: 8,
		messages: []string{"Security group rule allows egress to multiple public internet addresses."}},
	{tool: "trivy", key: "AVD-AWS-0080", category: "vulnerability", level: "high", doc: avdDoc + "avd-aws-0080", targets: []target{tTF}, weight: 2, span: 20,
		messages: []string{"Instance does not have storage encryption enabled."}},
	{tool: "trivy", key: "AVD-AWS-0176", category: "security_hotspot", level: "medium", doc: avdDoc + "avd-aws-0176", targets: []target{tTF}, weight: 2, span: 20,
		messages: []string{"Instance does not have IAM Authentication enabled"}},
	{tool: "trivy", key: "AVD-AWS-0089", category: "lint", level: "low", doc: avdDoc + "avd-aws-0089", targets: []target{tTF}, weight: 2, span: 10,
		messages: []string{"Bucket has logging disabled"}},
	{tool: "trivy", key: "AVD-AWS-0124", category: "documentation", level: "low", doc: avdDoc + "avd-aws-0124", targets: []target{tTF}, weight: 3, span: 6,
		messages: []string{"Security group rule does not have a description."}},
	{tool: "trivy", key: "AVD-AWS-0040", category: "vulnerability", level: "high", doc: avdDoc + "avd-aws-0040", targets: []target{tTF}, weight: 1, span: 30,
		messages: []string{"Public cluster access is enabled."}},
	{tool: "trivy", key: "AVD-AWS-0178", category: "security_hotspot", level: "medium", doc: avdDoc + "avd-aws-0178", targets: []target{tTF}, weight: 1, span: 10,
		messages: []string{"VPC Flow Logs is not enabled for VPC"}},
	{tool: "trivy", key: "KSV012", category: "security_hotspot", level: "medium", doc: avdDoc + "ksv012", targets: []target{tK8s}, weight: 3, span: 15,
		messages: []string{"{k8sobject} should set 'securityContext.runAsNonRoot' to true"}},
	{tool: "trivy", key: "KSV014", category: "security_hotspot", level: "high", doc: avdDoc + "ksv014", targets: []target{tK8s}, weight: 3, span: 15,
		messages: []string{"{k8sobject} should set 'securityContext.readOnlyRootFilesystem' to true"}},
	{tool: "trivy", key: "KSV011", category: "performance", level: "low", doc: avdDoc + "ksv011", targets: []target{tK8s}, weight: 2, span: 15,
		messages: []string{"{k8sobject} should set 'resources.limits.cpu'"}},
	{tool: "trivy", key: "KSV106", category: "security_hotspot", level: "low", doc: avdDoc + "ksv106", targets: []target{tK8s}, weight: 2, span: 15,
		messages: []string{"{k8sobject} should add 'ALL' to 'securityContext.capabilities.drop'"}},

	// shellcheck
	{tool: "shellcheck", key: "SC2086", category: "bug", level: "low", doc: "https://www.shellcheck.net/wiki/SC2086", targets: []target{tShell}, weight: 5,
		messages: []string{"Double quote to prevent globbing and word splitting.", "Double quote to prevent globbing and word splitting of ${shvar}."}},
	{tool: "shellcheck", key: "SC2155", category: "anti_pattern", level: "note", doc: "https://www.shellcheck.net/wiki/SC2155", targets: []target{tShell}, weight: 2,
		messages: []string{"Declare and assign separately to avoid masking return values."}},
	{tool: "shellcheck", key: "SC2046", category: "bug", level: "low", doc: "https://www.shellcheck.net/wiki/SC2046", targets: []target{tShell}, weight: 2,
		messages: []string{"Quote this to prevent word splitting."}},
}

// vocabulary fills the {name} slots of rule messages.
var vocabulary = map[string][]string{
	"gocall": {"resp.Body.Close", "tx.Rollback", "w.Write", "os.Remove", "f.Close", "json.NewEncoder(w).Encode", "conn.SetDeadline",
		"rows.Close", "db.Exec", "io.Copy", "enc.Encode", "cache.Set", "srv.Shutdown", "zw.Close", "stmt.Close", "os.Setenv", "r.Body.Close"},
	"govar": {"err", "n", "total", "ok", "ctx", "offset", "resp", "rows", "id", "cfg", "body", "amount", "idx", "buf", "res", "order",
		"item", "page", "key", "limit", "cursor", "payload", "status", "event"},
	"gofunc": {"handleCheckout", "parseAmount", "loadConfig", "newRouter", "applyPromotions", "computeTax", "validateAddress", "listOrders",
		"retryWebhook", "buildQuery", "reserveStock", "renderInvoice", "settleBatch", "refundPayment", "captureCharge", "normalizeSKU",
		"scanRows", "openDB", "withTx", "encodeJSON", "decodeBody", "sessionFromRequest", "hashPassword", "sendMail", "lookupRate",
		"toMinorUnits", "publishEvent", "markPaid", "cancelOrder", "exportCSV", "mergeCarts", "debugDump", "legacyChecksum"},
	"goslice": {"orders", "items", "ids", "results", "lines", "events", "entries", "args", "keys", "errs"},
	"goconst": {"defaultPageSize", "maxRetries", "legacyPrefix", "timeFormat", "headerRequestID", "cacheTTL"},
	"gofield": {"createdBy", "legacyID", "retries", "mu", "debug", "fallbackURL", "raw"},
	"goexported": {"NewClient", "Handler", "ParseAmount", "Open", "Validate", "Refund", "Capture", "ListOrders", "NewService",
		"Register", "FromContext", "WithLogger", "MustLoad", "Migrate", "Publish"},
	"gotype":     {"Order", "Cart", "Payment", "Invoice", "LedgerEntry", "Customer", "Session", "Product", "Config", "Money", "Event", "Options"},
	"gofile":     {"store.go", "handlers.go", "service.go", "client.go", "mapping.go"},
	"deprecated": {"ioutil.ReadAll has been deprecated since Go 1.19: As of Go 1.16, this function simply calls io.ReadAll.", "strings.Title has been deprecated since Go 1.18 and an alternative has been available since Go 1.0: The rule Title uses for word boundaries does not handle Unicode punctuation properly. Use golang.org/x/text/cases instead.", "rand.Seed has been deprecated since Go 1.20 and an alternative has been available since Go 1.20: As of Go 1.20 there is no reason to call Seed with a random value.", "ioutil.WriteFile has been deprecated since Go 1.19: As of Go 1.16, this function simply calls os.WriteFile.", "ioutil.ReadFile has been deprecated since Go 1.19: As of Go 1.16, this function simply calls os.ReadFile.", "x509.ParseCRL has been deprecated since Go 1.19: Use ParseRevocationList instead."},
	"initialism": {"var userId should be userID", "func parseJson should be parseJSON", "struct field OrderId should be OrderID", "var apiUrl should be apiURL",
		"func getHttpClient should be getHTTPClient", "var skuIds should be skuIDs", "should not use underscores in Go names; var max_retries should be maxRetries",
		"func ToUuid should be ToUUID", "var requestIp should be requestIP"},
	"misspelling": {"recieve` is a misspelling of `receive", "seperate` is a misspelling of `separate", "occured` is a misspelling of `occurred",
		"adress` is a misspelling of `address", "cancelled` is a misspelling of `canceled", "paramter` is a misspelling of `parameter"},
	"intconv": {"int -> int32", "int64 -> int32", "uint64 -> int64", "int -> uint16"},
	"tsvar": {"props", "data", "error", "setLoading", "index", "response", "total", "theme", "user", "navigate", "t", "items", "query",
		"result", "locale", "prev", "e", "ref", "isOpen", "variant"},
	"tsdep":           {"fetchProducts", "cartId", "onClose", "items", "user", "locale", "debouncedQuery", "navigate", "t", "page", "filters", "onChange"},
	"hook":            {"useEffect", "useCallback", "useMemo"},
	"tsfunc":          {"handleSubmit", "renderRow", "formatPrice", "validateForm", "mapApiError", "useCheckout", "buildQuery", "parseDate", "toCents", "groupByCategory", "reducer", "onKeyDown"},
	"tsimport":        {"react", "../api/client", "./Button", "@/utils/format", "lodash", "react-router-dom", "../hooks/useCart"},
	"prettierReplace": {"`\"` with `'`", "`··` with `····`", "`⏎····` with `·`", "`(x)` with `x`", "`··});` with `});`", "`'` with `\"`"},
	"prettierIns":     {";", ",", "⏎", "··", ")"},
	"prettierDel":     {"··", "⏎", ";", "·", ","},
	"pyimport": {"os", "sys", "json", "typing.List", "typing.Dict", "datetime.timezone", "pandas as pd", "requests", "logging", "itertools",
		"collections.defaultdict", "decimal.Decimal"},
	"pyvar":    {"df", "rows", "result", "session", "conn", "payload", "resp", "tmp", "cfg", "ts", "batch", "e", "cursor"},
	"pyfunc":   {"run_export", "load_rows", "transform", "main", "backfill", "rollup_day", "dedupe_events", "write_parquet", "fetch_page", "sync_accounts", "apply_rules"},
	"pysecret": {"password", "secret", "api_key", "token", "db_pass"},
	"k8sobject": {"Container 'web' of Deployment 'web-shop'", "Container 'api' of Deployment 'payments-api'", "Container 'worker' of Deployment 'billing-worker'",
		"Container 'migrate' of Job 'db-migrate'", "Container 'prometheus' of StatefulSet 'prometheus'", "Container 'envoy' of Deployment 'payments-api'"},
	"shvar": {"BACKUP_DIR", "NODE", "TAG", "ENV", "1"},
}

// advisory is a known vulnerability of a dependency, for trivy's dependency
// alerts. Severity maps to the level.
type advisory struct {
	id, pkg, installed, fixed, level, title string
}

// advisories by the dependency file they are found in.
var advisories = map[string][]advisory{
	"go.sum": {
		{"CVE-2023-44487", "golang.org/x/net", "v0.15.0", "0.17.0", "high", "HTTP/2 rapid reset can cause excessive work in net/http"},
		{"CVE-2023-39325", "golang.org/x/net", "v0.15.0", "0.17.0", "high", "net/http, x/net/http2: rapid stream resets can cause excessive work"},
		{"CVE-2023-45288", "golang.org/x/net", "v0.15.0", "0.23.0", "medium", "net/http, x/net/http2: unlimited number of CONTINUATION frames causes DoS"},
		{"CVE-2024-45338", "golang.org/x/net", "v0.15.0", "0.33.0", "medium", "Non-linear parsing of case-insensitive content in golang.org/x/net/html"},
		{"CVE-2023-48795", "golang.org/x/crypto", "v0.14.0", "0.17.0", "medium", "ssh: Prefix truncation attack on Binary Packet Protocol (BPP)"},
		{"CVE-2024-45337", "golang.org/x/crypto", "v0.14.0", "0.31.0", "high", "Misuse of ServerConfig.PublicKeyCallback may cause authorization bypass in golang.org/x/crypto"},
		{"CVE-2025-30204", "github.com/golang-jwt/jwt/v4", "v4.5.0", "4.5.2", "high", "jwt-go allows excessive memory allocation during header parsing"},
		{"CVE-2024-24786", "google.golang.org/protobuf", "v1.31.0", "1.33.0", "medium", "golang-protobuf: encoding/protojson, internal/encoding/json: infinite loop in protojson.Unmarshal when unmarshaling certain forms of invalid JSON"},
		{"CVE-2024-27304", "github.com/jackc/pgx/v5", "v5.5.3", "5.5.4", "high", "pgx SQL Injection via Protocol Message Size Overflow"},
	},
	"package-lock.json": {
		{"CVE-2024-4068", "braces", "3.0.2", "3.0.3", "high", "Uncontrolled resource consumption in braces"},
		{"CVE-2024-4067", "micromatch", "4.0.5", "4.0.8", "medium", "Regular Expression Denial of Service (ReDoS) in micromatch"},
		{"CVE-2022-25883", "semver", "7.5.1", "7.5.2", "medium", "semver vulnerable to Regular Expression Denial of Service"},
		{"CVE-2023-26136", "tough-cookie", "4.1.2", "4.1.3", "medium", "tough-cookie Prototype Pollution vulnerability"},
		{"CVE-2023-45133", "@babel/traverse", "7.22.5", "7.23.2", "high", "Babel vulnerable to arbitrary code execution when compiling specifically crafted malicious code"},
		{"CVE-2024-37890", "ws", "8.13.0", "8.17.1", "high", "ws affected by a DoS when handling a request with many HTTP headers"},
		{"CVE-2024-39338", "axios", "1.6.0", "1.7.4", "high", "Server-Side Request Forgery in axios"},
		{"CVE-2024-21538", "cross-spawn", "7.0.3", "7.0.5", "high", "Regular Expression Denial of Service (ReDoS) in cross-spawn"},
		{"CVE-2024-45296", "path-to-regexp", "0.1.7", "0.1.10", "high", "path-to-regexp outputs backtracking regular expressions"},
	},
	"python": {
		{"CVE-2023-32681", "requests", "2.28.2", "2.31.0", "medium", "Unintended leak of Proxy-Authorization header in requests"},
		{"CVE-2024-35195", "requests", "2.28.2", "2.32.0", "medium", "Requests `Session` object does not verify requests after making first request with verify=False"},
		{"CVE-2023-43804", "urllib3", "1.26.15", "1.26.17", "high", "`Cookie` HTTP header isn't stripped on cross-origin redirects"},
		{"CVE-2023-45803", "urllib3", "1.26.15", "1.26.18", "medium", "urllib3's request body not stripped after redirect from 303 status changes request method to GET"},
		{"CVE-2024-3651", "idna", "3.4", "3.7", "medium", "Internationalized Domain Names in Applications (IDNA) vulnerable to denial of service from specially crafted inputs to idna.encode"},
		{"CVE-2023-50782", "cryptography", "41.0.3", "42.0.0", "high", "Python Cryptography package vulnerable to Bleichenbacher timing oracle attack"},
		{"CVE-2024-22195", "jinja2", "3.1.2", "3.1.3", "medium", "Jinja vulnerable to HTML attribute injection when passing user input as keys to xmlattr filter"},
		{"CVE-2023-37920", "certifi", "2023.5.7", "2023.7.22", "high", "Removal of e-Tugra root certificate"},
	},
}

// advisoriesFor returns the advisories that can be found in dependency file p.
func advisoriesFor(p string) []advisory {
	switch base := p[strings.LastIndex(p, "/")+1:]; base {
	case "go.sum", "package-lock.json":
		return advisories[base]
	default:
		return advisories["python"]
	}
}

// secretRules are gitleaks' rules, with its own descriptions. Gitleaks
// documents its rules in its source only, so the issues carry no URL.
var secretRules = []struct{ key, message string }{
	{"generic-api-key", "Detected a Generic API Key, potentially exposing access to various services and sensitive operations."},
	{"stripe-access-token", "Found a Stripe Access Token, posing a risk to payment processing services and sensitive financial data."},
	{"aws-access-token", "Identified a pattern that may indicate AWS credentials, risking unauthorized cloud resource access and data breaches on AWS platforms."},
	{"slack-webhook-url", "Discovered a Slack Webhook, which could lead to unauthorized message posting and data leakage in Slack channels."},
	{"private-key", "Identified a Private Key, which may compromise cryptographic security and sensitive data encryption."},
	{"jwt", "Uncovered a JSON Web Token, which may lead to unauthorized access to web applications and sensitive user data."},
}
