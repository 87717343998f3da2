package history

import (
	"io"
	"os"
	"path/filepath"

	"github.com/plumbhq/plumb/gitrepo"
)

// MaxAsk is how many commits one question to the server (known, in Done)
// names.
const MaxAsk = 100

// Done is which of the plan's commits are analysed already, so that a
// re-run resumes: those known says the server has (asked about at most
// MaxAsk commits at a time; nil asks nothing), and, with dir set, those
// whose file (File) is in dir. The set holds the plan's commits only.
func (p Plan) Done(known func(shas []string) ([]string, error), dir string) (map[string]bool, error) {
	has := map[string]bool{}
	for i := 0; known != nil && i < len(p.Commits); i += MaxAsk {
		batch := p.Commits[i:min(i+MaxAsk, len(p.Commits))]
		shas := make([]string, len(batch))
		for j, c := range batch {
			shas[j] = c.SHA
		}
		answer, err := known(shas)
		if err != nil {
			return nil, err
		}
		for _, sha := range answer {
			has[sha] = true
		}
	}
	done := map[string]bool{}
	for _, c := range p.Commits {
		if has[c.SHA] {
			done[c.SHA] = true
		} else if dir != "" {
			if _, err := os.Stat(File(dir, c)); err == nil {
				done[c.SHA] = true
			}
		}
	}
	return done, nil
}

// File is where a backfill into dir puts a commit's analysis: its date and
// SHA, so that the files list in history order.
func File(dir string, c gitrepo.Commit) string {
	return filepath.Join(dir, c.Time.Format("2006-01-02")+"-"+c.SHA+".json")
}

// WriteFile writes name whole or not at all, through name.tmp renamed: an
// interrupted run leaves no half file that a re-run would take as done.
func WriteFile(name string, write func(io.Writer) error) error {
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
