package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGateGitLabCodeQuality: plumb gate --format gitlab-codequality writes
// the gate answer's new issues as GitLab's Code Quality report, keeps the
// gate's exit status, and writes an empty report (with a note) while the
// issues are not compared.
func TestGateGitLabCodeQuality(t *testing.T) {
	head := "e000000000000000000000000000000000000002"
	gate := `{"status":"failed","conditions":[{"condition":"new_issues","status":"failed","threshold":"≤ 0","actual":"1"}],
		"baseCommitSha":"e000000000000000000000000000000000000001","headCommitSha":"` + head + `","patchCoverage":null,"coverageDelta":null,
		"newIssues":[{"id":"0190a000-0000-7000-8000-000000000001","fingerprint":"fp3","tool":"gosec","ruleKey":"G101","message":"Hard-coded credentials",
		"category":"vulnerability","level":"high","status":"open","location":{"path":"cmd/main.go","startLine":12}}]}`
	srv := newFakeIngest(t, fakeReply{status: 200, body: gate})
	res := runCLI(t, srv, nil, "", "gate", "--head", head, "--format", "gitlab-codequality")
	if res.code != 1 {
		t.Fatalf("exit %d (%v), want 1 for the failed gate; stderr %s", res.code, res.err, res.stderr)
	}
	var report []map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &report); err != nil || len(report) != 1 {
		t.Fatalf("report %q: %v", res.stdout, err)
	}
	loc := report[0]["location"].(map[string]any)
	if report[0]["severity"] != "critical" || report[0]["check_name"] != "gosec:G101" || report[0]["description"] != "Hard-coded credentials" ||
		loc["path"] != "cmd/main.go" || loc["lines"].(map[string]any)["begin"] != 12.0 {
		t.Errorf("report entry %v", report[0])
	}
	if strings.Contains(res.stdout, "Quality gate:") {
		t.Errorf("the table went to standard output with the report:\n%s", res.stdout)
	}

	passed := strings.Replace(strings.Replace(gate, `"status":"failed","conditions"`, `"status":"passed","conditions"`, 1), `"newIssues":[`, `"newIssues":null,"x":[`, 1)
	srv = newFakeIngest(t, fakeReply{status: 200, body: passed})
	res = runCLI(t, srv, nil, "", "gate", "--head", head, "--format", "gitlab-codequality")
	if res.code != 0 || strings.TrimSpace(res.stdout) != "[]" || !strings.Contains(res.stderr, "not compared") {
		t.Errorf("without compared issues: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
	if res := runCLI(t, srv, nil, "", "gate", "--head", head, "--format", "sarif"); res.code != 2 {
		t.Errorf("--format sarif: exit %d, want 2", res.code)
	}
}
