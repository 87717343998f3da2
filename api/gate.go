package api

import (
	"encoding/json"
	"net/http"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/compare"
)

const gateAdminRefusal = "Changing the quality gate of project %q needs the project admin role."

type gateView struct {
	// Custom is false while the project uses the default gate.
	Custom bool `json:"custom"`
	compare.Gate
	// Advisory is always present, [] when every condition blocks.
	Advisory []string `json:"advisory"`
}

func newGateView(g compare.Gate, custom bool) gateView {
	return gateView{Custom: custom, Gate: g, Advisory: append([]string{}, g.Advisory...)}
}

func (s *Server) handleGetGate(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	g, custom, err := s.store.Gate(r.Context(), p.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newGateView(g, custom))
}

// handlePutGate replaces the gate: every condition is given, null turning
// it off; advisory, optional, names the conditions that do not block.
func (s *Server) handlePutGate(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	if err := s.requireProjectAdmin(r.Context(), c, p, gateAdminRefusal); err != nil {
		return err
	}
	f, err := s.readFields(w, r)
	if err != nil {
		return err
	}
	var g compare.Gate
	for name := range f.obj {
		switch name {
		case "patchCoverage", "coverageDrop", "newIssues", "newSecurityIssues", "advisory":
		default:
			f.fail("Field %s is not a quality gate condition; the conditions are patchCoverage, coverageDrop, newIssues and newSecurityIssues (and advisory lists those that do not block).", name)
		}
	}
	decode := func(name string, dst any, what string) {
		raw, ok := f.obj[name]
		if !ok {
			f.fail("Field %s is required (null turns the condition off).", name)
			return
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			f.fail("Field %s must be %s or null.", name, what)
		}
	}
	decode("patchCoverage", &g.PatchCoverage, "a number (percent)")
	decode("coverageDrop", &g.CoverageDrop, "a number (points)")
	decode("newIssues", &g.NewIssues, `an object {"level": "high", "max": 0}`)
	decode("newSecurityIssues", &g.NewSecurityIssues, "an integer")
	if raw, ok := f.obj["advisory"]; ok {
		if err := json.Unmarshal(raw, &g.Advisory); err != nil {
			f.fail(`Field advisory must be a list of condition names (e.g. ["coverageDrop"]) or null.`)
		}
		if len(g.Advisory) == 0 {
			g.Advisory = nil
		}
	}
	if err := f.err(); err != nil {
		return err
	}
	if err := plumb.Invalid(prefixed("Field ", g.Validate())); err != nil {
		return err
	}
	if err := s.store.PutGate(r.Context(), p.ID, g, s.now()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newGateView(g, true))
}

func prefixed(prefix string, list []string) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = prefix + v
	}
	return out
}

// gateStatusView is the gate's outcome for a head commit.
type gateStatusView = apiv1.GateStatus

// handleGateStatus evaluates the gate for a head commit (plumb gate, with
// the CI's upload token).
func (s *Server) handleGateStatus(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.ingestProject(r.Context(), c)
	if err != nil {
		return err
	}
	base, head, change, err := s.queryComparison(r.Context(), c, p, true)
	if err != nil {
		return err
	}
	cmp, err := s.Compare(r.Context(), p, base, head, change, CompareOptions{})
	if err != nil {
		return err
	}
	v := cmp.View(nil)
	out := gateStatusView{GateResult: cmp.Gate, BaseCommitSHA: base, HeadCommitSHA: head, CoverageDelta: v.CoverageDelta}
	if v.Patch != nil {
		out.PatchCoverage = v.Patch.Percent
	}
	if cmp.noIssueData == "" {
		out.NewIssues = make([]apiv1.Issue, 0, len(cmp.issues.New))
		for _, is := range cmp.issues.New {
			out.NewIssues = append(out.NewIssues, apiv1.Issue(newIssueView(is)))
		}
	}
	return writeJSON(w, http.StatusOK, out)
}
