// Package sources picks the files a CLI sends as a commit's sources
// (docs/sources.md) when the files to send are those a coverage report
// names: it reads the report on the client, as the server will, to learn
// the repository-relative paths of its files, and finds them in the
// checkout. client.TarFiles and (*client.Project).UploadSources send them.
package sources

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/ingest/coverage"
)

// ReportFiles returns the paths of the files a coverage report covers, each
// once, in the report's order, mapped with opt as the server maps them.
// format is the report's format, or "" to detect it as the server does.
func ReportFiles(report client.Content, format string, opt coverage.Options) ([]string, error) {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(report.Write(pw, func(r io.Reader) io.Reader { return r })) }()
	defer pr.Close()
	br := bufio.NewReaderSize(pr, 256<<10)
	f := coverage.Format(format)
	if f == "" {
		head, _ := br.Peek(16 << 10)
		if len(bytes.TrimSpace(head)) == 0 {
			return nil, errors.New("the coverage report is empty")
		}
		var err error
		if f, err = coverage.Detect(head); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	var paths []string
	err := coverage.Parse(br, f, opt, func(cf coverage.File) error {
		if !seen[cf.Path] {
			seen[cf.Path] = true
			paths = append(paths, cf.Path)
		}
		return nil
	})
	return paths, err
}

// Locate splits repository-relative paths into those that are regular
// files under dir and those that are not (missing, or not a file).
func Locate(dir string, paths []string) (found, missing []string) {
	for _, p := range paths {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if err == nil && st.Mode().IsRegular() {
			found = append(found, p)
		} else {
			missing = append(missing, p)
		}
	}
	return found, missing
}
