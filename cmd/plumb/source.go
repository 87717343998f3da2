package main

// plumb source: a file's kept text (GET …/files/source, docs/sources.md).

import (
	"context"
	"fmt"
	"strings"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/ingest/coverage"
)

// sendSources uploads the source of the files an analysis measured, under
// the paths the analysis is stored under (--strip-prefix, then
// --add-prefix, by the rule the server maps the analysis' paths with). The analysis is
// stored already: a failure here is a warning, never the command's.
func sendSources(ctx context.Context, e *runEnv, cl *client.Project, dir, commit string, res *analyze.Result, paths pathFlags) {
	files := make([]string, len(res.Files))
	for i, f := range res.Files {
		files[i] = f.Path
	}
	name := func(p string) string {
		mapped, _ := coverage.MapPath(p, coverage.Options{StripPrefix: paths.StripPrefix, AddPrefix: paths.AddPrefix})
		return mapped
	}
	out, err := cl.UploadSources(ctx, commit, client.TarFiles(dir, files, name))
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: the source was not sent (the analysis was): %v\n", callError(err))
		return
	}
	fmt.Fprintf(e.stdout, "uploaded source: %d files (%d new contents, %d already kept; %d too large, %d binary)\n",
		out.Files, out.NewBlobs, out.ReusedBlobs, out.TooLarge, out.Binary)
}

type sourceCmd struct {
	API     apiFlags `embed:""`
	Project string   `name:"project" placeholder:"WORKSPACE/PROJECT" penv:"PLUMB_PROJECT" help:"The project; required."`
	Ref     string   `name:"ref" placeholder:"REF" help:"A branch, refs/heads/…, refs/tags/…, refs/pull/N or a commit SHA (default: the project's default branch)."`
	Path    string   `arg:"" name:"path" help:"The file's repository-relative path."`
}

func (sourceCmd) Help() string {
	return `Prints the text of a file as the server keeps it: uploaded with the analysis
or coverage of a commit (docs/sources.md), for the commit the reference
names. The bytes are written as they are.

Examples:

    plumb source --project acme/web-shop web/src/App.tsx
    plumb source --project acme/web-shop --ref refs/tags/v1.4.0 internal/checkout/checkout.go

Exit status: 0 done; 1 the server refused (no such project, reference or
kept source: the message says which); 2 usage error; 3 the server could not be
reached.`
}

func (c *sourceCmd) Run(e *runEnv) error {
	ws, proj, ok := strings.Cut(c.Project, "/")
	if !ok || ws == "" || proj == "" || strings.Contains(proj, "/") {
		return usageError{fmt.Sprintf("--project must be WORKSPACE/PROJECT, got %q", c.Project)}
	}
	cl, ctx, cancel, err := c.API.client(e)
	if err != nil {
		return err
	}
	defer cancel()
	ref := c.Ref
	if ref == "" {
		p, err := cl.ProjectInfo(ctx, ws, proj)
		if err != nil {
			return callError(err)
		}
		ref = p.DefaultBranch
	}
	body, err := cl.FileSource(ctx, ws, proj, ref, c.Path)
	if err != nil {
		return callError(err)
	}
	_, err = e.stdout.Write(body)
	return err
}
