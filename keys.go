package plumb

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// The rules by which Plumb checks ids, keys and names and compares them. The
// store applies them to what it writes and looks up; the dataset document's
// validation (package dataset) applies the same ones before an import.

// UploadTokenPrefix starts every upload token's secret, so it is told from a
// user token's.
const UploadTokenPrefix = "plbu_"

// IsUUID reports whether s is a UUID in canonical text form (36 characters,
// 8-4-4-4-12 hexadecimal digits, either case).
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	_, err := uuid.Parse(s)
	return err == nil
}

// ValidateKey checks a workspace or project key (what is "workspace" or
// "project"): 3 to 100 characters of letters, digits, '-', '_' and '.', as a
// repository host allows, and not a UUID (a key and an id must never be
// confused in a path). The error is an EINVALID one.
func ValidateKey(what, key string) error {
	if len(key) < 3 || len(key) > 100 {
		return Errorf(EINVALID, "a %s key must be 3 to 100 characters long, got %q", what, key)
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return Errorf(EINVALID, "a %s key may hold only letters, digits, '-', '_' and '.', got %q", what, key)
		}
	}
	if IsUUID(key) {
		return Errorf(EINVALID, "a %s key may not be a UUID", what)
	}
	return nil
}

// FoldName is the case-insensitive form of an application or component name:
// Unicode simple case folding done in Go, so every database compares names
// the same way ("Ärger" and "ärger" are one name).
func FoldName(s string) string { return strings.ToLower(strings.ToUpper(s)) }

// FoldASCII folds ASCII letters to lower case: logins and workspace and
// project keys are unique ignoring ASCII case only, as SQL lower() compares
// them (SQLite's lower() and PostgreSQL's lower() of a COLLATE "C" column
// fold ASCII letters only).
func FoldASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

// IssueProblem returns what makes an issue unfit to store, or "" when
// nothing does: a missing fingerprint, tool, rule key or path, a category or
// level outside the spec's lists, a status (when given) other than open or
// ignored, or line numbers below 1 or out of order. Only the first problem
// is told.
func IssueProblem(is Issue) string {
	switch {
	case is.Fingerprint == "":
		return "fingerprint is required"
	case is.Tool == "":
		return "tool is required"
	case is.RuleKey == "":
		return "ruleKey is required"
	case is.Path == "":
		return "path is required"
	case !Contains(IssueCategories, is.Category):
		return fmt.Sprintf("category %q is not one of %s", is.Category, strings.Join(IssueCategories, ", "))
	case !Contains(IssueLevels, is.Level):
		return fmt.Sprintf("level %q is not one of %s", is.Level, strings.Join(IssueLevels, ", "))
	case is.Status != "" && !Contains(IssueStatuses, is.Status):
		return fmt.Sprintf("status %q is not one of open, ignored", is.Status)
	case is.StartLine != nil && *is.StartLine < 1, is.EndLine != nil && *is.EndLine < 1:
		return "line numbers start at 1"
	case is.StartLine != nil && is.EndLine != nil && *is.EndLine < *is.StartLine:
		return "endLine is before startLine"
	}
	return ""
}
