package demo

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// The demo's pull requests, at two points in time: four on web-shop, #40
// with a missed changed line, #41 adding the feature branch's new files,
// #42 with every changed line hit, #43 on the coverage-only head; every
// changed line a line the head's coverage has.
func TestPullRequests(t *testing.T) {
	for _, now := range []time.Time{time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC), time.Date(2027, 2, 14, 8, 30, 0, 0, time.UTC)} {
		doc := Generate(now, "plb_testtoken0123456789abcdefghijklmnopqrstu")
		prs := PullRequests(&doc)
		if len(prs) != 4 {
			t.Fatalf("%s: %d pull requests, want 4", now, len(prs))
		}
		hits := map[string]map[string][]int64{}
		for _, c := range doc.Coverage {
			if hits[c.CommitSHA] == nil {
				hits[c.CommitSHA] = map[string][]int64{}
			}
			for _, f := range c.Files {
				hits[c.CommitSHA][f.Path] = unionHits(hits[c.CommitSHA][f.Path], f.Hits)
			}
		}
		for i, pr := range prs {
			ch := pr.Change
			if *ch.PullRequestNumber != 40+i || pr.ProjectID == "" || len(ch.Files) == 0 || ch.BaseCommitSHA == "" {
				t.Fatalf("%s: #%d: %+v", now, 40+i, pr)
			}
			if problems := ch.Validate(); len(problems) > 0 {
				t.Errorf("#%d: %v", 40+i, problems)
			}
			missed, hit := 0, 0
			for _, f := range ch.Files {
				h, ok := hits[ch.CommitSHA][f.Path]
				if !ok {
					t.Fatalf("#%d: %s has no coverage at the head", 40+i, f.Path)
				}
				for _, r := range f.AddedLines {
					if r.End > len(h) {
						t.Fatalf("#%d: %s changed to line %d of %d", 40+i, f.Path, r.End, len(h))
					}
					for l := r.Start; l <= r.End; l++ {
						switch {
						case h[l-1] == 0:
							missed++
						case h[l-1] > 0:
							hit++
						}
					}
				}
			}
			switch 40 + i {
			case 40, 41:
				if missed == 0 {
					t.Errorf("%s: #%d has no missed changed line", now, 40+i)
				}
			case 42, 43:
				if missed != 0 || hit == 0 {
					t.Errorf("%s: #%d: %d missed, %d hit changed lines", now, 40+i, missed, hit)
				}
			}
		}
		for _, f := range prs[1].Change.Files {
			if f.Status != "added" {
				t.Errorf("#41: %s is %s", f.Path, f.Status)
			}
		}
		if prs[3].Change.Branch != pullCoverageBranch {
			t.Errorf("#43 on %s", prs[3].Change.Branch)
		}
		for _, s := range doc.Snapshots {
			if s.CommitSHA == prs[3].Change.CommitSHA {
				t.Errorf("#43's head has an analysis")
			}
		}
		// The code host's deliveries: opened and synchronize for each,
		// closed (merged) for #40, oldest first, each id once, the same
		// every time.
		hooks := PullHooks(prs)
		if len(hooks) != 9 || !reflect.DeepEqual(hooks, PullHooks(prs)) {
			t.Fatalf("%s: %d deliveries (want 9), or not the same twice", now, len(hooks))
		}
		ids := map[string]bool{}
		for i, d := range hooks {
			if ids[d.ID] || d.Event != "pull_request" || d.Repository != "acme/web-shop" || d.PullRequest == nil || d.PullRequest.Title == "" ||
				i > 0 && d.At.Before(hooks[i-1].At) || d.At.After(now) {
				t.Errorf("%s: delivery %d: %+v", now, i, d)
			}
			ids[d.ID] = true
		}
		var closed []string
		for _, d := range hooks {
			if d.Action == "closed" {
				closed = append(closed, fmt.Sprintf("#%d %s merged %v", d.PullRequest.Number, d.PullRequest.State, d.PullRequest.Merged))
			}
		}
		if fmt.Sprint(closed) != "[#40 closed merged true]" {
			t.Errorf("%s: closed deliveries %v, want #40 merged", now, closed)
		}
	}
}
