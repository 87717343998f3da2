package admin

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
)

// A project's settings on the store (plumb project gate, code-host and
// badges), under the rules of the API and of the web's settings page
// (compare.Gate.Validate, codehost.Target.Check).

// findProject finds a project named WORKSPACE/KEY.
func (a *Admin) findProject(ctx context.Context, ref string) (plumb.Project, error) {
	ws, key, ok := strings.Cut(ref, "/")
	if !ok || ws == "" || key == "" {
		return plumb.Project{}, UsageError{fmt.Sprintf("the project must be WORKSPACE/KEY, got %q", ref)}
	}
	return a.DB.FindProjectByKeys(ctx, ws, key)
}

// ProjectGate does what plumb project gate does: it removes the project's
// own gate (clear), or changes the conditions sets names (CONDITION=VALUE,
// on the current gate or the default one), then prints the gate to Out.
func (a *Admin) ProjectGate(ctx context.Context, ref string, sets []string, clear bool) error {
	if clear && len(sets) > 0 {
		return UsageError{"give --set or --clear, not both"}
	}
	p, err := a.findProject(ctx, ref)
	if err != nil {
		return err
	}
	if clear {
		if err := a.DB.DeleteGate(ctx, p.ID); err != nil {
			return err
		}
	} else if len(sets) > 0 {
		g, _, err := a.DB.Gate(ctx, p.ID)
		if err != nil {
			return err
		}
		if err := SetGate(&g, sets); err != nil {
			return err
		}
		if err := a.DB.PutGate(ctx, p.ID, g, time.Now()); err != nil {
			return err
		}
	}
	g, custom, err := a.DB.Gate(ctx, p.ID)
	if err != nil {
		return err
	}
	PrintGate(a.Out, ref, g, custom)
	return nil
}

// SetGate applies CONDITION=VALUE settings (patchCoverage=PERCENT,
// coverageDrop=POINTS, newIssues=LEVEL:MAX, newSecurityIssues=MAX; off turns
// a condition off; advisory makes a condition advisory, blocking makes it
// block again) to g. Every problem is reported, as a UsageError, and the
// gate is not valid to store when there is one.
func SetGate(g *compare.Gate, sets []string) error {
	var problems []string
	for _, s := range sets {
		name, val, ok := strings.Cut(s, "=")
		val = strings.TrimSpace(val)
		off := val == "off"
		bad := func(what string) {
			problems = append(problems, fmt.Sprintf("%s must be %s, off, advisory or blocking, got %q", name, what, val))
		}
		if off {
			g.Advisory = slices.DeleteFunc(g.Advisory, func(a string) bool { return a == name })
		}
		switch {
		case ok && (val == "advisory" || val == "blocking") && slices.Contains(compare.GateConditions, name):
			g.Advisory = slices.DeleteFunc(g.Advisory, func(a string) bool { return a == name })
			if val == "advisory" {
				g.Advisory = append(g.Advisory, name)
			}
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
		return UsageError{strings.Join(problems, "; ")}
	}
	return nil
}

// PrintGate writes a project's gate, one condition a line.
func PrintGate(w io.Writer, ref string, g compare.Gate, custom bool) {
	which := "the default gate"
	if custom {
		which = "its own gate"
	}
	fmt.Fprintf(w, "%s uses %s:\n", ref, which)
	line := func(name string, on bool, v string) {
		switch {
		case !on:
			v = "off"
		case !g.Blocking(name):
			v += " (advisory: shown, never fails the gate)"
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

// ProjectCodeHost does what plumb project code-host does: with t (its kind
// set), it connects the project to its code host, keeping the stored token
// when t has none and the kind is the same; then it prints the connection
// (never the token) to Out. app is the server's GitHub App, if any.
func (a *Admin) ProjectCodeHost(ctx context.Context, ref string, t *codehost.Target, app *codehost.App) error {
	p, err := a.findProject(ctx, ref)
	if err != nil {
		return err
	}
	old, found, err := a.DB.CodeHost(ctx, p.ID)
	if err != nil {
		return err
	}
	if t != nil {
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
		for _, p := range t.Check(app) {
			problems = append(problems, strings.TrimSuffix(p, "."))
		}
		if len(problems) > 0 {
			return UsageError{strings.Join(problems, "; ")}
		}
		if err := a.DB.PutCodeHost(ctx, p.ID, *t, time.Now()); err != nil {
			return err
		}
		old, found = *t, true
	}
	if !found {
		fmt.Fprintf(a.Out, "%s has no code host\n", ref)
		return nil
	}
	tok := "none (the server's GitHub App)"
	if old.Token != "" {
		tok = "stored"
	}
	fmt.Fprintf(a.Out, "%s: %s %s at %s, token %s\n", ref, old.Kind, old.Repository, old.BaseURL, tok)
	return nil
}

// ProjectBadgesPublic does what plumb project badges --public does: the
// badges answer to anyone (on) or to members and the badge token only.
func (a *Admin) ProjectBadgesPublic(ctx context.Context, ref string, on bool) error {
	p, err := a.findProject(ctx, ref)
	if err != nil {
		return err
	}
	if err := a.DB.SetBadgesPublic(ctx, p.ID, on); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "badges of %s are %s\n", ref, map[bool]string{true: "public", false: "private"}[on])
	return nil
}

// ProjectBadgeToken does what plumb project badges --token does: it creates
// (or replaces) the badge token and prints it once to Out, with a note to
// Notes, or revokes it (ENOTFOUND when there is none).
func (a *Admin) ProjectBadgeToken(ctx context.Context, ref string, create bool) error {
	p, err := a.findProject(ctx, ref)
	if err != nil {
		return err
	}
	if create {
		secret, err := a.DB.CreateBadgeToken(ctx, p.ID, "")
		if err != nil {
			return err
		}
		fmt.Fprintf(a.Out, "%s\n", secret)
		fmt.Fprintf(a.notes(), "the badge token of %s (shown once; any previous one stops working): add ?token=%s to its badge URLs\n", ref, secret)
		return nil
	}
	had, err := a.DB.RevokeBadgeToken(ctx, p.ID)
	if err != nil {
		return err
	}
	if !had {
		return plumb.Errorf(plumb.ENOTFOUND, "%s has no badge token", ref)
	}
	fmt.Fprintf(a.Out, "badge token of %s revoked\n", ref)
	return nil
}

// notes is where notes for people go: Notes, or nowhere.
func (a *Admin) notes() io.Writer {
	if a.Notes == nil {
		return io.Discard
	}
	return a.Notes
}
