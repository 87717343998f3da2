package uploadbody

import (
	"fmt"
	"io"
	"os"

	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/ingest/analysis"
)

// Inputs opens the files named on a command line. "-" (Stdin) and other
// streams that cannot be read twice, such as pipes, are first copied to a
// temporary file, so that every attempt of an upload re-reads the same
// bytes; Cleanup removes those.
type Inputs struct {
	Stdin     io.Reader
	usedStdin bool
	temps     []string
}

// File is an input ready to be read as often as needed: Path is where it
// is (a temporary copy for a stream), Name how the command line named it.
type File struct {
	Path, Name string
	Size       int64
}

// InputError is an input that cannot be sent: missing, unreadable, empty,
// a directory, stdin twice. Its exit status is 2, a usage error's.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// ExitCode is 2.
func (e *InputError) ExitCode() int { return 2 }

// Open opens arg, the what ("coverage report") of the command line.
func (in *Inputs) Open(arg, what string) (File, error) {
	if arg == "-" {
		if in.usedStdin {
			return File{}, &InputError{"stdin ('-') can be read only once"}
		}
		in.usedStdin = true
		if in.Stdin == nil {
			return File{}, &InputError{"no stdin to read"}
		}
		return in.spool(in.Stdin, "stdin", what)
	}
	f, err := os.Open(arg)
	if err != nil {
		return File{}, &InputError{fmt.Sprintf("cannot read the %s: %v", what, err)}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return File{}, &InputError{fmt.Sprintf("cannot read the %s: %v", what, err)}
	}
	if st.IsDir() {
		return File{}, &InputError{fmt.Sprintf("the %s %s is a directory", what, arg)}
	}
	if !st.Mode().IsRegular() {
		return in.spool(f, arg, what)
	}
	if st.Size() == 0 {
		return File{}, &InputError{fmt.Sprintf("the %s %s is empty", what, arg)}
	}
	return File{Path: arg, Name: arg, Size: st.Size()}, nil
}

// OpenSARIF opens the SARIF files args and checks each (CheckSARIF)
// before anything is sent.
func (in *Inputs) OpenSARIF(args []string) ([]File, error) {
	var files []File
	for _, a := range args {
		f, err := in.Open(a, "SARIF file")
		if err != nil {
			return nil, err
		}
		if err := f.Check("SARIF file", CheckSARIF); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func (in *Inputs) spool(r io.Reader, name, what string) (File, error) {
	tmp, err := os.CreateTemp("", "plumb-upload-*")
	if err != nil {
		return File{}, &InputError{fmt.Sprintf("buffering the %s from %s: %v", what, name, err)}
	}
	in.temps = append(in.temps, tmp.Name())
	n, err := io.Copy(tmp, r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, &InputError{fmt.Sprintf("buffering the %s from %s: %v", what, name, err)}
	}
	if n == 0 {
		return File{}, &InputError{fmt.Sprintf("the %s from %s is empty", what, name)}
	}
	return File{Path: tmp.Name(), Name: name, Size: n}, nil
}

// Cleanup removes the temporary copies.
func (in *Inputs) Cleanup() {
	for _, p := range in.temps {
		os.Remove(p)
	}
}

// Content is the file as an upload's content, named as the command line
// names it.
func (f File) Content() (client.Content, error) {
	ct, err := client.File(f.Path)
	if err != nil {
		return ct, &InputError{fmt.Sprintf("cannot read %s: %v", f.Name, err)}
	}
	ct.Name = f.Name
	return ct, nil
}

// Check reads the file with check (CheckSARIF, a stats reader) before it
// is sent; what it finds is an InputError naming the file.
func (f File) Check(what string, check func(io.Reader) error) error {
	rd, err := os.Open(f.Path)
	if err != nil {
		return &InputError{fmt.Sprintf("cannot read the %s: %v", what, err)}
	}
	defer rd.Close()
	if err := check(rd); err != nil {
		return &InputError{fmt.Sprintf("the %s %s: %v", what, f.Name, err)}
	}
	return nil
}

// CheckStats reads a stats file (plumb upload analysis --stats) before it
// is sent and counts its files and removed paths; what it finds wrong is an
// InputError naming the file.
func (f File) CheckStats() (files, removed int, err error) {
	err = f.Check("stats file", func(r io.Reader) error {
		return analysis.ReadStats(SkipBOM(r), analysis.Handler{
			File:    func(int, analysis.File) error { files++; return nil },
			Removed: func(int, string) error { removed++; return nil },
		})
	})
	return files, removed, err
}

// AnalysisFiles are the files of an analysis upload from a stats file
// (plumb upload analysis --stats), checked: the stats file, with Files
// files and Removed removed paths, and the SARIF files.
type AnalysisFiles struct {
	Stats          File
	SARIF          []File
	Files, Removed int
}

// OpenAnalysis opens and checks the stats file stats (CheckStats) and the
// SARIF files sarifs (OpenSARIF).
func (in *Inputs) OpenAnalysis(stats string, sarifs []string) (*AnalysisFiles, error) {
	a := &AnalysisFiles{}
	var err error
	if a.Stats, err = in.Open(stats, "stats file"); err != nil {
		return nil, err
	}
	if a.Files, a.Removed, err = a.Stats.CheckStats(); err != nil {
		return nil, err
	}
	if a.SARIF, err = in.OpenSARIF(sarifs); err != nil {
		return nil, err
	}
	return a, nil
}

// Content is the upload of the analysis head with the files, streamed
// from them (Analysis).
func (a *AnalysisFiles) Content(head Head) client.Content {
	size, paths := a.Stats.Size, make([]string, len(a.SARIF))
	for i, f := range a.SARIF {
		size, paths[i] = size+f.Size, f.Path
	}
	return client.Content{Name: "analysis", Size: size, Write: Analysis(head, a.Stats.Path, paths)}
}
