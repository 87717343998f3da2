package compare

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ParseUnifiedDiff reads `git diff -M --unified=0` output: per file its
// status, its previous path when renamed, and the head lines of its hunks.
func ParseUnifiedDiff(r io.Reader) ([]FileChange, error) {
	var files []FileChange
	var cur *FileChange
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			files = append(files, FileChange{Status: "modified"})
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
				cur.AddedLines = append(cur.AddedLines, LineRange{Start: start, End: start + count - 1})
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
			f.AddedLines = MergeRanges(f.AddedLines)
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
