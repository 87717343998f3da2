package main

// plumb whoami and plumb projects: a person's first questions to a server
// ("is my token right?", "which projects can I see?"), asked through the v1
// API with a user's API token.

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/plumbhq/plumb/client"
)

// apiFlags connect to the server's v1 API with a user's token.
type apiFlags struct {
	URL     string        `name:"url" placeholder:"URL" default:"http://127.0.0.1:8080" penv:"PLUMB_URL" help:"Server URL (default ${default})."`
	Token   string        `name:"token" placeholder:"TOKEN" penv:"PLUMB_TOKEN" help:"Your API token (from the web's token settings or 'plumb token create'); required."`
	Timeout time.Duration `name:"timeout" placeholder:"DURATION" default:"1m" help:"Longest the command may take, retries included; 0: no limit (default ${default})."`
	Retries int           `name:"retries" placeholder:"N" default:"3" help:"Retries on network errors, 429 (after Retry-After) and 502/503/504 (default ${default})."`
}

func (o *apiFlags) client(e *runEnv) (*client.Client, context.Context, context.CancelFunc, error) {
	if err := checkToken(o.Token, "your API token"); err != nil {
		return nil, nil, nil, err
	}
	cl, err := newClient(o.URL, o.Token, o.Retries, o.Timeout, e.getenv, e.stderr)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := withTimeout(e.ctx, o.Timeout)
	return cl, ctx, cancel, nil
}

type whoamiCmd struct {
	API apiFlags `embed:""`
}

func (c *whoamiCmd) Run(e *runEnv) error {
	cl, ctx, cancel, err := c.API.client(e)
	if err != nil {
		return err
	}
	defer cancel()
	u, err := cl.User(ctx)
	if err != nil {
		return callError(err)
	}
	workspaces, err := cl.Workspaces(ctx)
	if err != nil {
		return callError(err)
	}
	keys := make([]string, len(workspaces))
	for i, w := range workspaces {
		keys[i] = w.Key
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "login\t%s\n", u.Login)
	fmt.Fprintf(tw, "name\t%s\n", firstOf(u.Name, "-"))
	fmt.Fprintf(tw, "email\t%s\n", firstOf(u.Email, "-"))
	fmt.Fprintf(tw, "workspaces\t%s\n", firstOf(strings.Join(keys, ", "), "-"))
	fmt.Fprintf(tw, "server\t%s\n", strings.TrimRight(strings.TrimSpace(c.API.URL), "/"))
	return tw.Flush()
}

type projectsCmd struct {
	API       apiFlags `embed:""`
	Workspace string   `arg:"" optional:"" name:"workspace" help:"Only this workspace's projects (default: every workspace the token sees)."`
}

func (c *projectsCmd) Run(e *runEnv) error {
	cl, ctx, cancel, err := c.API.client(e)
	if err != nil {
		return err
	}
	defer cancel()
	var keys []string
	if ws := strings.TrimSpace(c.Workspace); ws != "" {
		keys = []string{ws}
	} else {
		workspaces, err := cl.Workspaces(ctx)
		if err != nil {
			return callError(err)
		}
		for _, w := range workspaces {
			keys = append(keys, w.Key)
		}
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECT\tDEFAULT BRANCH\tID")
	for _, ws := range keys {
		projects, err := cl.Projects(ctx, ws)
		if err != nil {
			return callError(err)
		}
		for _, p := range projects {
			fmt.Fprintf(tw, "%s/%s\t%s\t%s\n", p.WorkspaceKey, p.Key, firstOf(p.DefaultBranch, "-"), p.ID)
		}
	}
	return tw.Flush()
}
