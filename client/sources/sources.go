// Package sources picks the files a CLI sends as a commit's sources
// (docs/sources.md), and the paths they are stored under: those an
// analysis measured (Analysed), or those a coverage report names
// (Reported: it reads the report on the client, as the server will, to
// learn the repository-relative paths of its files, and finds them in the
// checkout). A Set's Content is what (*client.Project).UploadSources sends.
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

// Set is files of a checkout to send as a commit's sources: the files at
// Dir/path for each of Paths, each stored under Name(path).
type Set struct {
	Dir   string
	Paths []string
	Name  func(path string) string
}

// Content is the set as UploadSources takes it (client.TarFiles).
func (s Set) Content() client.Content { return client.TarFiles(s.Dir, s.Paths, s.Name) }

// Analysed is the set of the files an analysis of dir measured (paths
// relative to dir), stored under the paths the server stores the
// analysis' files under: opt's StripPrefix removed, then its AddPrefix
// added (coverage.MapPath, the rule the server maps the analysis with).
func Analysed(dir string, paths []string, opt coverage.Options) Set {
	return Set{Dir: dir, Paths: paths, Name: func(p string) string {
		mapped, _ := coverage.MapPath(p, coverage.Options{StripPrefix: opt.StripPrefix, AddPrefix: opt.AddPrefix})
		return mapped
	}}
}

// Reported is the set of the files a coverage report names (ReportFiles,
// read with opt's StripPrefix and ModulePath) that are files under dir,
// stored with opt's AddPrefix; missing are those dir does not have, and
// all every file the report names.
func Reported(dir string, report client.Content, format string, opt coverage.Options) (s Set, missing []string, all int, err error) {
	files, err := ReportFiles(report, format, coverage.Options{StripPrefix: opt.StripPrefix, ModulePath: opt.ModulePath})
	if err != nil {
		return Set{}, nil, 0, err
	}
	found, missing := Locate(dir, files)
	return Analysed(dir, found, coverage.Options{AddPrefix: opt.AddPrefix}), missing, len(files), nil
}
