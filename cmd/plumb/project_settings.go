package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/sqlstore"
)

// plumb project gate, code-host and badges: a project's settings on the
// database, like the other plumb project commands, under the rules of the
// API and of the web's settings page (compare.Gate.Validate,
// api.CheckCodeHost).

type projectGateCmd struct {
	dbCmd
	Project string   `arg:"" name:"workspace/key" help:"The project, as WORKSPACE/KEY."`
	Set     []string `name:"set" help:"CONDITION=VALUE: patchCoverage=PERCENT, coverageDrop=POINTS, newIssues=LEVEL:MAX, newSecurityIssues=MAX; off turns a condition off (repeatable)."`
	Clear   bool     `name:"clear" help:"Remove the project's own gate: the default applies again."`
}

func (projectGateCmd) Help() string {
	return `Without --set or --clear, prints the gate. --set changes the given
conditions of the current gate (the default one if the project has none).

Examples:

    plumb project gate my-org/my-repo
    plumb project gate my-org/my-repo --set patchCoverage=85 --set newIssues=medium:0 --set coverageDrop=off
    plumb project gate my-org/my-repo --clear`
}

func (c *projectGateCmd) Run(e *runEnv, db *sqlstore.DB) error {
	if c.Clear && len(c.Set) > 0 {
		return usageError{"give --set or --clear, not both"}
	}
	ctx := e.ctx
	p, err := findProjectRef(ctx, db, c.Project)
	if err != nil {
		return err
	}
	if c.Clear {
		if err := db.DeleteGate(ctx, p.ID); err != nil {
			return err
		}
	} else if len(c.Set) > 0 {
		g, _, err := db.Gate(ctx, p.ID)
		if err != nil {
			return err
		}
		if err := setGate(&g, c.Set); err != nil {
			return err
		}
		if err := db.PutGate(ctx, p.ID, g, time.Now()); err != nil {
			return err
		}
	}
	g, custom, err := db.Gate(ctx, p.ID)
	if err != nil {
		return err
	}
	printProjectGate(e.stdout, c.Project, g, custom)
	return nil
}

func findProjectRef(ctx context.Context, db *sqlstore.DB, ref string) (plumb.Project, error) {
	ws, key, ok := strings.Cut(ref, "/")
	if !ok || ws == "" || key == "" {
		return plumb.Project{}, usageError{fmt.Sprintf("the project must be WORKSPACE/KEY, got %q", ref)}
	}
	return db.FindProjectByKeys(ctx, ws, key)
}

// setGate applies CONDITION=VALUE settings; every problem is reported and
// nothing is set when there is one.
func setGate(g *compare.Gate, sets []string) error {
	var problems []string
	for _, s := range sets {
		name, val, ok := strings.Cut(s, "=")
		val = strings.TrimSpace(val)
		off := val == "off"
		bad := func(what string) {
			problems = append(problems, fmt.Sprintf("%s must be %s or off, got %q", name, what, val))
		}
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("--set %q: give CONDITION=VALUE", s))
		case name == "patchCoverage" || name == "coverageDrop":
			dst := &g.PatchCoverage
			if name == "coverageDrop" {
				dst = &g.CoverageDrop
			}
			x, err := strconv.ParseFloat(val, 64)
			switch {
			case off:
				*dst = nil
			case err != nil:
				bad("a number")
			default:
				*dst = &x
			}
		case name == "newIssues":
			level, max, _ := strings.Cut(val, ":")
			n, err := strconv.Atoi(max)
			switch {
			case off:
				g.NewIssues = nil
			case err != nil:
				bad("LEVEL:MAX (e.g. high:0)")
			default:
				g.NewIssues = &compare.IssueBound{Level: level, Max: n}
			}
		case name == "newSecurityIssues":
			n, err := strconv.Atoi(val)
			switch {
			case off:
				g.NewSecurityIssues = nil
			case err != nil:
				bad("a whole number")
			default:
				g.NewSecurityIssues = &n
			}
		default:
			problems = append(problems, fmt.Sprintf("%q is not a quality gate condition; the conditions are patchCoverage, coverageDrop, newIssues and newSecurityIssues", name))
		}
	}
	for _, p := range g.Validate() {
		problems = append(problems, strings.TrimSuffix(p, "."))
	}
	if len(problems) > 0 {
		return usageError{strings.Join(problems, "; ")}
	}
	return nil
}

func printProjectGate(w io.Writer, ref string, g compare.Gate, custom bool) {
	which := "the default gate"
	if custom {
		which = "its own gate"
	}
	fmt.Fprintf(w, "%s uses %s:\n", ref, which)
	line := func(name string, on bool, v string) {
		if !on {
			v = "off"
		}
		fmt.Fprintf(w, "  %-18s %s\n", name, v)
	}
	num := func(x *float64) string {
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'f', -1, 64)
	}
	line("patchCoverage", g.PatchCoverage != nil, num(g.PatchCoverage))
	line("coverageDrop", g.CoverageDrop != nil, num(g.CoverageDrop))
	if g.NewIssues != nil {
		line("newIssues", true, fmt.Sprintf("%s:%d", g.NewIssues.Level, g.NewIssues.Max))
	} else {
		line("newIssues", false, "")
	}
	if g.NewSecurityIssues != nil {
		line("newSecurityIssues", true, strconv.Itoa(*g.NewSecurityIssues))
	} else {
		line("newSecurityIssues", false, "")
	}
}

type projectCodeHostCmd struct {
	dbCmd
	Project    string `arg:"" name:"workspace/key" help:"The project, as WORKSPACE/KEY."`
	Kind       string `name:"kind" help:"github or gitlab."`
	Repository string `name:"repository" help:"OWNER/NAME on GitHub; the project's path or id on GitLab."`
	BaseURL    string `name:"api-url" help:"The host's API address (empty: github.com's or gitlab.com's)."`
	TokenStdin bool   `name:"token-stdin" help:"Read the token from the first line of standard input (without it, the stored token is kept)."`
}

func (projectCodeHostCmd) Help() string {
	return `Without --kind, prints the connection (never the token). Tokens are
read from standard input, so that they stay out of the shell's history and
of the process list.

Examples:

    plumb project code-host my-org/my-repo
    echo "$GITHUB_TOKEN" | plumb project code-host my-org/my-repo --kind github --repository my-org/my-repo --token-stdin`
}

func (c *projectCodeHostCmd) Run(e *runEnv, db *sqlstore.DB) error {
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
	ctx := e.ctx
	p, err := findProjectRef(ctx, db, c.Project)
	if err != nil {
		return err
	}
	old, found, err := db.CodeHost(ctx, p.ID)
	if err != nil {
		return err
	}
	if c.Kind != "" {
		t := codehost.Target{Kind: c.Kind, Repository: c.Repository, BaseURL: c.BaseURL, Token: token}
		if t.Token == "" && found && old.Kind == t.Kind {
			t.Token = old.Token
		}
		var problems []string
		if t.Repository == "" {
			problems = append(problems, "--repository is required")
		}
		if t.Token == "" && !(t.Kind == codehost.GitHub && app != nil) {
			problems = append(problems, "a token is required (--token-stdin)")
		}
		for _, p := range api.CheckCodeHost(&t, app) {
			problems = append(problems, strings.TrimSuffix(p, "."))
		}
		if len(problems) > 0 {
			return usageError{strings.Join(problems, "; ")}
		}
		if err := db.PutCodeHost(ctx, p.ID, t, time.Now()); err != nil {
			return err
		}
		old, found = t, true
	}
	if !found {
		fmt.Fprintf(e.stdout, "%s has no code host\n", c.Project)
		return nil
	}
	tok := "none (the server's GitHub App)"
	if old.Token != "" {
		tok = "stored"
	}
	fmt.Fprintf(e.stdout, "%s: %s %s at %s, token %s\n", c.Project, old.Kind, old.Repository, old.BaseURL, tok)
	return nil
}

type projectBadgesCmd struct {
	dbCmd
	Project string `arg:"" name:"workspace/key" help:"The project, as WORKSPACE/KEY."`
	Public  string `name:"public" enum:",on,off" default:"" help:"on: the badges answer to anyone; off: to members and the badge token only."`
	Token   string `name:"token" enum:",create,revoke" default:"" help:"create (or replace) the badge token, printed once; revoke it."`
}

func (projectBadgesCmd) Help() string {
	return `The badge token is a secret that a private project's badge URLs accept
as ?token=…, for a private repository's README (docs/web.md, Badges).

Examples:

    plumb project badges my-org/my-repo --public on
    plumb project badges my-org/my-repo --token create
    plumb project badges my-org/my-repo --token revoke`
}

func (c *projectBadgesCmd) Run(e *runEnv, db *sqlstore.DB) error {
	if (c.Public == "") == (c.Token == "") {
		return usageError{"give --public on|off or --token create|revoke"}
	}
	ctx := e.ctx
	p, err := findProjectRef(ctx, db, c.Project)
	if err != nil {
		return err
	}
	switch {
	case c.Public != "":
		if err := db.SetBadgesPublic(ctx, p.ID, c.Public == "on"); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "badges of %s are %s\n", c.Project, map[string]string{"on": "public", "off": "private"}[c.Public])
	case c.Token == "create":
		secret, err := db.CreateBadgeToken(ctx, p.ID, "")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", secret)
		fmt.Fprintf(e.stderr, "the badge token of %s (shown once; any previous one stops working): add ?token=%s to its badge URLs\n", c.Project, secret)
	default:
		had, err := db.RevokeBadgeToken(ctx, p.ID)
		if err != nil {
			return err
		}
		if !had {
			return plumb.Errorf(plumb.ENOTFOUND, "%s has no badge token", c.Project)
		}
		fmt.Fprintf(e.stdout, "badge token of %s revoked\n", c.Project)
	}
	return nil
}
