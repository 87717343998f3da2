package main

// plumb source: a file's kept text (GET …/files/source, docs/sources.md).

import (
	"context"
	"fmt"
	"strings"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/client/sources"
	"github.com/plumbhq/plumb/ingest/coverage"
)

// sendSources uploads the source of the files an analysis measured, under
// the paths the analysis is stored under (sources.Analysed). The analysis
// is stored already: a failure here is a warning, never the command's.
func sendSources(ctx context.Context, e *runEnv, cl *client.Project, dir, commit string, res *analyze.Result, paths pathFlags) {
	files := make([]string, len(res.Files))
	for i, f := range res.Files {
		files[i] = f.Path
	}
	set := sources.Analysed(dir, files, coverage.Options{StripPrefix: paths.StripPrefix, AddPrefix: paths.AddPrefix})
	uploadSourceFiles(ctx, e, cl, commit, set, "analysis")
}

// sendReportSources uploads, for plumb upload coverage --source, the source
// of the files the coverage report names, read from the checkout in the
// working directory (sources.Reported). The coverage is stored already:
// files missing here and any failure are warnings, never the command's.
func sendReportSources(ctx context.Context, e *runEnv, cl *client.Project, commit string, report client.Content, c *uploadCoverageCmd, module string) {
	set, missing, all, err := sources.Reported(".", report, c.Format, coverage.Options{StripPrefix: c.StripPrefix, AddPrefix: c.AddPrefix, ModulePath: module})
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: the source was not sent (the coverage was): reading the report: %v\n", err)
		return
	}
	if n := len(missing); n > 0 {
		more := ""
		if n > 5 {
			more, missing = fmt.Sprintf(" and %d more", n-5), missing[:5]
		}
		fmt.Fprintf(e.stderr, "warning: %d of the report's %d files are not in the working directory, their source was not sent: %s%s\n",
			n, all, strings.Join(missing, ", "), more)
	}
	if len(set.Paths) > 0 {
		uploadSourceFiles(ctx, e, cl, commit, set, "coverage")
	}
}

// uploadSourceFiles sends set as the sources of commit and prints what the
// server kept; what names the upload the sources go with, for the warning
// when they could not be sent.
func uploadSourceFiles(ctx context.Context, e *runEnv, cl *client.Project, commit string, set sources.Set, what string) {
	out, err := cl.UploadSources(ctx, commit, set.Content())
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: the source was not sent (the %s was): %v\n", what, callError(err))
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
