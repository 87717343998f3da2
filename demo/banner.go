package demo

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/plumbhq/plumb/dataset"
)

// Banner says where the demo runs, gives the token, lists what the demo
// user sees and three curl commands that work against this very data.
func Banner(doc *dataset.Document, token, base, dbPath string) string {
	var userID string
	for _, t := range doc.Tokens {
		if t.Token == token {
			userID = t.UserID
		}
	}
	login := ""
	for _, u := range doc.Users {
		if u.ID == userID {
			login = u.Login
		}
	}
	role := map[string]string{}
	for _, w := range doc.Workspaces {
		for _, m := range w.Members {
			if m.UserID == userID {
				role[w.ID] = m.Role
			}
		}
	}
	wsKey := map[string]string{}
	for _, w := range doc.Workspaces {
		wsKey[w.ID] = w.Key
	}

	// The current issues of each project: those of its latest default-branch
	// analysis (an older analysis arriving later does not replace it).
	type current struct {
		at       time.Time
		issues   int
		openHigh int
		seen     bool
	}
	cur := map[string]*current{}
	branch := map[string]string{}
	for _, p := range doc.Projects {
		branch[p.ID] = p.DefaultBranch
		cur[p.ID] = &current{}
	}
	for _, s := range doc.Snapshots {
		c := cur[s.ProjectID]
		if c == nil || s.Branch != branch[s.ProjectID] || c.seen && s.AnalyzedAt.Before(c.at) {
			continue
		}
		*c = current{at: s.AnalyzedAt, seen: true, issues: len(s.Issues)}
		for _, is := range s.Issues {
			if is.Level == "high" && (is.Status == "open" || is.Status == "") {
				c.openHigh++
			}
		}
	}
	var visible []dataset.Project
	for _, p := range doc.Projects {
		if role[p.WorkspaceID] != "" {
			visible = append(visible, p)
		}
	}
	if len(visible) == 0 {
		return fmt.Sprintf("Plumb demo is running at %s\nAPI token: %s\n", base, token)
	}
	// The biggest project: the most current issues, among those with open
	// high-level issues if any has some (so the second command lists rows).
	better := func(c, b *current) bool {
		if (c.openHigh > 0) != (b.openHigh > 0) {
			return c.openHigh > 0
		}
		return c.issues > b.issues
	}
	biggest := visible[0]
	for _, p := range visible[1:] {
		if better(cur[p.ID], cur[biggest.ID]) {
			biggest = p
		}
	}
	projectURL := func(p dataset.Project) string {
		return base + "/gh/" + url.PathEscape(wsKey[p.WorkspaceID]) + "/projects/" + url.PathEscape(p.Key)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\nPlumb demo is running at %s (database %s, recreated on every start).\n\n", base, dbPath)
	fmt.Fprintf(&b, "API token of the demo user %q (a new one on every start):\n\n    %s\n\n", login, token)
	fmt.Fprintf(&b, "The demo user sees these workspaces and projects:\n\n")
	byWS := map[string][]string{}
	var keys []string
	for _, p := range visible {
		k := wsKey[p.WorkspaceID]
		if byWS[k] == nil {
			keys = append(keys, k)
		}
		name := p.Key
		if p.ComponentsEnabled {
			name += " (components)"
		}
		byWS[k] = append(byWS[k], name)
	}
	sort.Strings(keys)
	for _, k := range keys {
		id := ""
		for _, w := range doc.Workspaces {
			if w.Key == k {
				id = w.ID
			}
		}
		fmt.Fprintf(&b, "    %-10s %-7s %s\n", k, role[id], strings.Join(byWS[k], ", "))
	}
	auth := fmt.Sprintf(`-H "Authorization: Bearer %s"`, token)
	fmt.Fprintf(&b, "\nTry (each command works as printed):\n\n")
	fmt.Fprintf(&b, "  # the workspaces you can see\n  curl %s '%s/workspaces'\n\n", auth, base)
	fmt.Fprintf(&b, "  # the open high-level issues of %s/%s, as CSV\n  curl %s -H 'Accept: text/csv' '%s/issues?level=high&status=open'\n\n",
		wsKey[biggest.WorkspaceID], biggest.Key, auth, projectURL(biggest))
	third := ""
	for _, p := range append([]dataset.Project{biggest}, visible...) {
		if !p.ComponentsEnabled {
			continue
		}
		for _, c := range doc.Components {
			if c.ProjectID == p.ID {
				third = fmt.Sprintf("  # monthly lines of code and coverage of the component %q of %s/%s\n  curl %s '%s/components/%s/metrics/series?metric=LOC,LCOV&interval=month'\n",
					c.Name, wsKey[p.WorkspaceID], p.Key, auth, projectURL(p), url.PathEscape(c.Name))
				break
			}
		}
		if third != "" {
			break
		}
	}
	if third == "" {
		third = fmt.Sprintf("  # the latest builds of %s/%s\n  curl %s '%s/builds'\n", wsKey[biggest.WorkspaceID], biggest.Key, auth, projectURL(biggest))
	}
	b.WriteString(third)
	fmt.Fprintf(&b, "\nThe API is described at %s/openapi.json. Press Ctrl+C to stop.\n", base)
	return b.String()
}
