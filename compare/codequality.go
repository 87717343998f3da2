package compare

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
)

// CodeQualityIssue is one entry of GitLab's Code Quality report (a subset
// of Code Climate's issue format, as GitLab documents it): the merge
// request's widget and diff show the head's new ones.
type CodeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    CodeQualityLocation `json:"location"`
}

// CodeQualityLocation is where a Code Quality issue is: a path relative to
// the repository's root and its first line.
type CodeQualityLocation struct {
	Path  string `json:"path"`
	Lines struct {
		Begin int `json:"begin"`
	} `json:"lines"`
}

// CodeQualitySeverities are GitLab's severities, least severe first.
var CodeQualitySeverities = []string{"info", "minor", "major", "critical", "blocker"}

// CodeQualitySeverity maps an issue level to GitLab's severity: high is
// critical, medium major, low minor, note and fmt info. (blocker is left
// for what blocks a merge: the gate says that, not one issue.)
func CodeQualitySeverity(level string) string {
	switch level {
	case "high":
		return "critical"
	case "medium":
		return "major"
	case "low":
		return "minor"
	}
	return "info"
}

// CodeQuality is the Code Quality report of issues. An issue without a path
// is left out (GitLab places every entry in a file); one without a line is
// placed on line 1. The fingerprint is the MD5 of the issue's own
// fingerprint (stable from one commit to the next for the same issue), made
// unique within the report should two issues share one.
func CodeQuality(issues []plumb.Issue) []CodeQualityIssue {
	out := make([]CodeQualityIssue, 0, len(issues))
	seen := map[string]int{}
	for _, is := range issues {
		path := strings.TrimPrefix(is.Path, "./")
		if path == "" {
			continue
		}
		key := is.Fingerprint
		if key == "" {
			key = is.Tool + "\x00" + is.RuleKey + "\x00" + path + "\x00" + is.Message
		}
		if n := seen[key]; n > 0 {
			seen[key]++
			key += "\x00" + strconv.Itoa(n)
		} else {
			seen[key] = 1
		}
		sum := md5.Sum([]byte(key))
		cq := CodeQualityIssue{Description: is.Message, CheckName: is.RuleKey, Fingerprint: hex.EncodeToString(sum[:]), Severity: CodeQualitySeverity(is.Level)}
		if is.Tool != "" {
			cq.CheckName = is.Tool + ":" + is.RuleKey
		}
		if cq.Description == "" {
			cq.Description = cq.CheckName
		}
		cq.Location.Path = path
		cq.Location.Lines.Begin = 1
		if is.StartLine != nil && *is.StartLine > 0 {
			cq.Location.Lines.Begin = *is.StartLine
		}
		out = append(out, cq)
	}
	return out
}

// WriteCodeQuality writes the Code Quality report of issues as JSON (an
// empty array when there is none).
func WriteCodeQuality(w io.Writer, issues []plumb.Issue) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(CodeQuality(issues))
}
