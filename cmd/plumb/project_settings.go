package main

import (
	"io"
	"strings"

	"github.com/plumbhq/plumb/admin"
	"github.com/plumbhq/plumb/codehost"
)

// plumb project gate, code-host and badges: a project's settings on the
// database, like the other plumb project commands, under the rules of the
// API and of the web's settings page (admin/settings.go).

type projectGateCmd struct {
	dbCmd
	projectArg
	Set   []string `name:"set" help:"CONDITION=VALUE: patchCoverage=PERCENT, coverageDrop=POINTS, newIssues=LEVEL:MAX, newSecurityIssues=MAX; off turns a condition off; CONDITION=advisory makes it advisory (shown, never failing the gate), CONDITION=blocking makes it block again (repeatable)."`
	Clear bool     `name:"clear" help:"Remove the project's own gate: the default applies again."`
}

func (c *projectGateCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.ProjectGate(e.ctx, c.Project, c.Set, c.Clear)
}

type projectCodeHostCmd struct {
	dbCmd
	projectArg
	Kind       string `name:"kind" help:"github or gitlab."`
	Repository string `name:"repository" help:"OWNER/NAME on GitHub; the project's path or id on GitLab."`
	BaseURL    string `name:"api-url" help:"The host's API address (empty: github.com's or gitlab.com's)."`
	TokenStdin bool   `name:"token-stdin" help:"Read the token from the first line of standard input (without it, the stored token is kept)."`
}

func (c *projectCodeHostCmd) Run(e *runEnv, a *admin.Admin) error {
	var token string
	if c.TokenStdin {
		if e.stdin == nil {
			return usageError{"--token-stdin: nothing on standard input"}
		}
		b, err := io.ReadAll(io.LimitReader(e.stdin, 4096))
		if err != nil {
			return err
		}
		token, _, _ = strings.Cut(string(b), "\n")
		token = strings.TrimSpace(token)
		if token == "" {
			return usageError{"--token-stdin: the first line of standard input is empty"}
		}
	}
	app, err := c.Server.GitHub.app()
	if err != nil {
		return err
	}
	var t *codehost.Target
	if c.Kind != "" {
		t = &codehost.Target{Kind: c.Kind, Repository: c.Repository, BaseURL: c.BaseURL, Token: token}
	}
	return a.ProjectCodeHost(e.ctx, c.Project, t, app)
}

type projectBadgesCmd struct {
	dbCmd
	projectArg
	Public string `name:"public" enum:",on,off" default:"" help:"on: the badges answer to anyone; off: to members and the badge token only."`
	Token  string `name:"token" enum:",create,revoke" default:"" help:"create (or replace) the badge token, printed once; revoke it."`
}

func (c *projectBadgesCmd) Run(e *runEnv, a *admin.Admin) error {
	if (c.Public == "") == (c.Token == "") {
		return usageError{"give --public on|off or --token create|revoke"}
	}
	if c.Public != "" {
		return a.ProjectBadgesPublic(e.ctx, c.Project, c.Public == "on")
	}
	return a.ProjectBadgeToken(e.ctx, c.Project, c.Token == "create")
}
