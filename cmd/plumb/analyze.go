package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/cienv"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/client/uploadbody"
	"github.com/plumbhq/plumb/internal/progress"
)

type analyzeCmd struct {
	Conn       connFlags    `embed:"" set:"timeoutScope=each request to the server (the upload; with --history each commit's upload and each lookup)"`
	Commit     commitFlags  `embed:""`
	Change     changeFlags  `embed:""`
	Paths      pathFlags    `embed:""`
	Dir        string       `arg:"" optional:"" name:"dir" default:"." help:"The checkout to analyse (default: the current directory)."`
	Exclude    []string     `name:"exclude" sep:"none" placeholder:"GLOB" help:"Leave out paths matching GLOB (* matches any run of characters, / included); repeatable."`
	Out        string       `name:"out" placeholder:"FILE" help:"Write the analysis upload JSON to FILE ('-': stdout) instead of uploading; with --history, one file per commit in the directory FILE."`
	Format     string       `name:"format" enum:"upload,table" default:"upload" help:"table: print a summary for people instead of uploading (with --history: one line per commit)."`
	SARIF      []string     `name:"sarif" sep:"none" placeholder:"FILE" help:"Another tool's SARIF file, sent with the analysis (repeatable)."`
	AnalyzedAt string       `name:"analyzed-at" placeholder:"TIME" help:"When the analysis ran, RFC 3339 (default: now)."`
	NoSource   bool         `name:"no-source" help:"Do not send the measured files' source with the analysis (docs/sources.md)."`
	History    historyFlags `embed:""`
}

// Run analyses c.Dir, then prints, writes or uploads the result.
func (c *analyzeCmd) Run(e *runEnv) error {
	if c.History.on() {
		if c.Change.Base != "" || c.Change.NoChange {
			return usageError{"--base and --no-change go with the analysis of one commit, not with --history or --since"}
		}
		return runAnalyzeHistory(e.ctx, e, c)
	}
	if c.History.Every != "" {
		return usageError{"--every goes with --history or --since"}
	}
	upload := c.Out == "" && c.Format != "table"
	if err := checkAnalyzedAt(c.AnalyzedAt); err != nil {
		return err
	}
	if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
		return usageError{fmt.Sprintf("%s is not a directory to analyse", c.Dir)}
	}
	// check what uploading needs before the work
	var cl *client.Project
	var info cienv.Info
	in := &uploadbody.Inputs{Stdin: e.stdin}
	defer in.Cleanup()
	sarifs, err := in.OpenSARIF(c.SARIF)
	if err != nil {
		return err
	}
	if upload || c.Out != "" {
		if info, err = c.Commit.resolve(e.getenv); err != nil && upload {
			return err
		}
		if upload {
			if err := needBranch(info, "an analysis upload"); err != nil {
				return err
			}
			if cl, err = c.Conn.client(e.getenv, e.stderr); err != nil {
				return err
			}
		}
	}
	opts := analyze.Options{Dir: c.Dir, Exclude: c.Exclude}
	var prog *progress.Files
	if showProgress(e.getenv, e.stderr) {
		prog = &progress.Files{W: e.stderr}
		opts.Progress = prog.Update
	}
	start := time.Now()
	res, err := analyze.Run(e.ctx, opts)
	if prog != nil {
		prog.Done()
	}
	if err != nil {
		return usageError{fmt.Sprintf("analysis: %v", err)}
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.stderr, "skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, s := range res.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s: %s\n", s.Path, s.Reason)
	}
	if c.Format == "table" {
		if err := res.WriteTable(e.stdout); err != nil {
			return err
		}
	}
	if !upload && c.Out == "" {
		return nil
	}
	doc := res.Document(info.Commit, info.Branch, c.AnalyzedAt)
	sarifPaths := make([]string, len(sarifs))
	for i, s := range sarifs {
		sarifPaths[i] = s.Path
	}
	body := uploadbody.Document(doc, sarifPaths)
	if c.Out != "" {
		var w io.Writer = e.stdout
		if c.Out != "-" {
			f, err := os.Create(c.Out)
			if err != nil {
				return usageError{fmt.Sprintf("cannot write %s: %v", c.Out, err)}
			}
			defer f.Close()
			w = f
		}
		if err := body(w, func(r io.Reader) io.Reader { return r }); err != nil {
			return err
		}
		if c.Out != "-" {
			fmt.Fprintf(e.stderr, "wrote %s: %d files, %d issues (%.1fs)\n", c.Out, len(res.Files), len(res.Issues), time.Since(start).Seconds())
		}
		return nil
	}
	ctx, cancel := c.Conn.withTimeout(e.ctx)
	defer cancel()
	out, err := cl.UploadAnalysis(ctx, client.Content{Name: "analysis", Write: body}, c.Paths.mapping())
	if err != nil {
		return callError(err)
	}
	fmt.Fprintf(e.stdout, "uploaded analysis: %d files, %d issues found, %d SARIF file(s) added, %s\n", len(doc.Files), len(res.Issues), len(sarifs), describe(out))
	if !c.NoSource {
		sendSources(ctx, e, cl, c.Dir, info.Commit, res, c.Paths)
	}
	// In a pull request, the change too: it refreshes the pull request's
	// summary, whose issues have no data until the head has an analysis.
	sendChange(ctx, cl, info, c.Change, e.stderr)
	return nil
}
