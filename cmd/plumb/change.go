package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb/cienv"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/gitrepo"
)

// The change a pull request makes, computed locally with git and sent with
// coverage and analysis uploads (POST …/changes), so the server can compute
// patch coverage without the source (docs/pull-requests.md).

// changeFlags say against what the change is computed.
type changeFlags struct {
	Base     string `name:"base" placeholder:"REF" help:"Base of the change: a branch or commit (default: the pull request's target branch, detected on CI). The change is computed against its merge base with the commit."`
	NoChange bool   `name:"no-change" help:"Do not send the change (changed lines) with the upload."`
}

// computeChange finds the merge base of head with base (a branch, tried as
// origin/<branch> first, or a commit) and the lines head changes since.
func computeChange(gitDir, base, head string) (baseSHA string, files []compare.FileChange, err error) {
	candidates := []string{base}
	if !isHex(base) {
		candidates = []string{"origin/" + base, "refs/remotes/origin/" + base, base}
	}
	for _, c := range candidates {
		if baseSHA = gitrepo.Try(gitDir, "merge-base", c, head); baseSHA != "" {
			break
		}
	}
	if baseSHA == "" {
		return "", nil, fmt.Errorf("git found no merge base of %s and %s (a shallow clone? fetch the base branch, e.g. actions/checkout with fetch-depth: 0)", base, short(head))
	}
	out := gitrepo.Try(gitDir, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "-M", "--unified=0", baseSHA+"..."+head)
	files, err = parseUnifiedDiff(strings.NewReader(out))
	return baseSHA, files, err
}

func isHex(s string) bool {
	return len(s) >= 7 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}

// parseUnifiedDiff reads `git diff -M --unified=0` output: per file its
// status, its previous path when renamed, and the head lines of its hunks.
func parseUnifiedDiff(r io.Reader) ([]compare.FileChange, error) {
	var files []compare.FileChange
	var cur *compare.FileChange
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			files = append(files, compare.FileChange{Status: "modified"})
			cur = &files[len(files)-1]
		case cur == nil:
		case strings.HasPrefix(line, "new file mode"):
			cur.Status = "added"
		case strings.HasPrefix(line, "deleted file mode"):
			cur.Status = "deleted"
		case strings.HasPrefix(line, "rename from "):
			cur.Status, cur.PreviousPath = "renamed", unquotePath(strings.TrimPrefix(line, "rename from "))
		case strings.HasPrefix(line, "rename to "):
			cur.Path = unquotePath(strings.TrimPrefix(line, "rename to "))
		case strings.HasPrefix(line, "--- "):
			if p := diffPath(line, "--- ", "a/"); p != "" && cur.Path == "" {
				cur.Path = p // deleted files keep this one
			}
		case strings.HasPrefix(line, "+++ "):
			if p := diffPath(line, "+++ ", "b/"); p != "" {
				cur.Path = p
			}
		case strings.HasPrefix(line, "@@ "):
			// @@ -a[,b] +c[,d] @@: d head lines from c (d defaults to 1).
			fields := strings.Fields(line)
			if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
				return nil, fmt.Errorf("git diff: unreadable hunk header %q", line)
			}
			startS, countS, hasCount := strings.Cut(fields[2][1:], ",")
			start, err1 := strconv.Atoi(startS)
			count := 1
			var err2 error
			if hasCount {
				count, err2 = strconv.Atoi(countS)
			}
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("git diff: unreadable hunk header %q", line)
			}
			if count > 0 {
				cur.AddedLines = append(cur.AddedLines, compare.LineRange{Start: start, End: start + count - 1})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	// Binary files and mode changes have no "+++" line: their path is in
	// the header, which a space in a name makes ambiguous; they add no line
	// either, so those without a path are left out.
	out := files[:0]
	for _, f := range files {
		if f.Path != "" {
			f.AddedLines = compare.MergeRanges(f.AddedLines)
			out = append(out, f)
		}
	}
	return out, nil
}

// diffPath reads the path of a "--- a/…" or "+++ b/…" line: "" for
// /dev/null; git ends a path holding a space with a tab and quotes a path
// with special characters.
func diffPath(line, prefix, side string) string {
	p := strings.TrimSuffix(strings.TrimPrefix(line, prefix), "\t")
	if p == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(unquotePath(p), side)
}

func unquotePath(p string) string {
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// sendChange computes and uploads the change of a pull request (or of the
// commit against --base). It never fails the upload it goes with: problems
// are warnings on stderr.
func sendChange(ctx context.Context, cl *client.Project, info cienv.Info, f changeFlags, stderr io.Writer) {
	base := f.Base
	if base == "" {
		base = info.BaseBranch
	}
	if f.NoChange || base == "" {
		return
	}
	baseSHA, files, err := computeChange(ciGitDir, base, info.Commit)
	if err != nil {
		fmt.Fprintf(stderr, "plumb: warning: the change was not sent (no patch coverage for this commit): %v\n", err)
		return
	}
	up := client.Change{CommitSHA: info.Commit, Branch: info.Branch, BaseCommitSHA: baseSHA, PullRequestNumber: info.PullRequest}
	if !isHex(base) {
		up.BaseBranch = strings.TrimPrefix(base, "refs/heads/")
	}
	for _, fc := range files {
		uf := client.ChangedFile{Path: fc.Path, PreviousPath: fc.PreviousPath, Status: fc.Status}
		for _, r := range fc.AddedLines {
			uf.AddedLines = append(uf.AddedLines, [2]int{r.Start, r.End})
		}
		up.Files = append(up.Files, uf)
	}
	res, err := cl.UploadChange(ctx, up)
	if err != nil {
		fmt.Fprintf(stderr, "plumb: warning: the change was not sent (no patch coverage for this commit): %v\n", callError(err))
		return
	}
	fmt.Fprintf(stderr, "sent the change against %s (merge base %s): %d files, %d changed lines\n", base, short(baseSHA), res.Files, res.ChangedLines)
}
