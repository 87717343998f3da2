package admin

// plumb export and plumb import: the dataset document of docs/dataset.md
// out of and into a database.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/sqlstore"
)

// Export writes the whole dataset to stdout, or with --out to a file,
// which appears complete or not at all (written to a temporary file in the
// same folder, synced, then renamed).
func (a *Admin) Export(ctx context.Context, out string, withoutSource bool) error {
	opt := sqlstore.ExportOptions{WithoutSource: withoutSource}
	if out == "" || out == "-" {
		return a.DB.ExportWith(ctx, a.Out, opt)
	}
	n, err := exportToFile(ctx, a.DB, out, opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "exported the dataset to %s (%d bytes)\n", out, n)
	return nil
}

// exportToFile exports into a temporary file next to path and renames it
// to path once it is complete and synced. The file is readable by its owner
// only: it holds token hashes.
func exportToFile(ctx context.Context, db *sqlstore.DB, path string, opt sqlstore.ExportOptions) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	tmp := f.Name()
	fail := func(err error) (int64, error) {
		f.Close()
		os.Remove(tmp)
		return 0, err
	}
	if err := db.ExportWith(ctx, f, opt); err != nil {
		return fail(fmt.Errorf("export: %w", err))
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("export: %w", err))
	}
	st, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("export: %w", err))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("export: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("export: %w", err)
	}
	return st.Size(), nil
}

// Import loads a dataset file ('-': stdin) into an empty database and
// prints what it loaded.
func (a *Admin) Import(ctx context.Context, file string, stdin io.Reader) error {
	if err := a.DB.CheckEmpty(ctx); err != nil {
		return err
	}
	in := stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		in = f
	}
	doc, err := dataset.Decode(in)
	if err != nil {
		return plumb.Errorf(plumb.EINVALID, "%s: %v", file, err)
	}
	if err := a.DB.ImportDocument(ctx, doc); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "imported %s\n", doc.Summary())
	return nil
}
