package cienv

import (
	"fmt"
	"strings"

	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/gitrepo"
)

// The change a pull request makes, computed locally with git and sent with
// coverage and analysis uploads (POST …/changes), so the server can compute
// patch coverage without the source (docs/pull-requests.md).

// Change finds, in the repository at gitDir, the merge base of head with base (a branch, tried as
// origin/<branch> first, or a commit) and the lines head changes since.
func Change(gitDir, base, head string) (baseSHA string, files []compare.FileChange, err error) {
	candidates := []string{base}
	if !IsHex(base) {
		candidates = []string{"origin/" + base, "refs/remotes/origin/" + base, base}
	}
	for _, c := range candidates {
		if baseSHA = gitrepo.Try(gitDir, "merge-base", c, head); baseSHA != "" {
			break
		}
	}
	if baseSHA == "" {
		return "", nil, fmt.Errorf("git found no merge base of %s and %s (a shallow clone? fetch the base branch, e.g. actions/checkout with fetch-depth: 0)", base, head[:min(len(head), 12)])
	}
	out := gitrepo.Try(gitDir, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "-M", "--unified=0", baseSHA+"..."+head)
	files, err = compare.ParseUnifiedDiff(strings.NewReader(out))
	return baseSHA, files, err
}

// IsHex tells whether s looks like a commit SHA (or a prefix of one, 7
// characters at least) rather than a branch name.
func IsHex(s string) bool {
	return len(s) >= 7 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}
