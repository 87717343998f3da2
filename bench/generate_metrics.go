package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// MetricsFixture describes a generated metrics project.
type MetricsFixture struct {
	Token      string
	Workspace  string
	Project    string
	Files      int
	Snapshots  int
	Components int
	BigFile    string // a file with BigFileLines lines of coverage
	Commit     string // the latest default-branch commit (has coverage)
}

// BigFileLines is the length of the fixture's largest covered file.
const BigFileLines = 20_000

// MetricsOptions sizes the generated project.
type MetricsOptions struct {
	Files      int // default 100,000
	Days       int // daily default-branch snapshots, default 3 × 365
	Components int // default 50
	Coverage   int // coverage uploads of the whole tree, spread over the last year, default 6
}

func sha(n int) string { return fmt.Sprintf("%040x", uint64(n)*0x9e3779b97f4a7c15) }

// GenerateMetrics creates workspace "bench", project "huge" with o.Files
// files, o.Days daily default-branch snapshots ending yesterday (each
// changing about 0.1% of the files, adding a few and removing a few, with
// about 300 issues), o.Components components created before the history (so
// their totals grow incrementally), and o.Coverage coverage uploads plus the
// big file's coverage at the latest commit.
func GenerateMetrics(ctx context.Context, db *sqlstore.DB, o MetricsOptions, now time.Time) (MetricsFixture, error) {
	if o.Files == 0 {
		o.Files = 100_000
	}
	if o.Days == 0 {
		o.Days = 3 * 365
	}
	if o.Components == 0 {
		o.Components = 50
	}
	if o.Coverage == 0 {
		o.Coverage = 6
	}
	f := MetricsFixture{Workspace: "bench", Project: "huge", Files: o.Files, Snapshots: o.Days, Components: o.Components}
	token, u, p, err := benchProject(ctx, db, f.Workspace, f.Project)
	if err != nil {
		return f, err
	}
	f.Token = token
	rng := rand.New(rand.NewPCG(3, 4))
	path := func(i int) string {
		name := fmt.Sprintf("svc%02d/pkg%03d/file%06d.go", i%o.Components, (i/o.Components)%200, i)
		if i%10 == 0 {
			name = fmt.Sprintf("svc%02d/pkg%03d/file%06d_test.go", i%o.Components, (i/o.Components)%200, i)
		}
		return name
	}
	figures := func(i int) plumb.FileFigures {
		lines := int64(20 + rng.IntN(600))
		loc := lines * int64(60+rng.IntN(35)) / 100
		return plumb.FileFigures{Path: path(i), Lines: lines, LOC: loc, Complexity: int64(rng.IntN(80)), DuplicatedLines: int64(rng.IntN(int(lines / 10)))}
	}
	for c := 0; c < o.Components; c++ {
		globs := []string{fmt.Sprintf("svc%02d/*", c)}
		if c == 0 {
			globs = []string{"*_test.go"}
		}
		if _, err := db.CreateComponent(ctx, plumb.Component{ProjectID: p.ID, Name: fmt.Sprintf("component-%02d", c),
			PathGlobs: globs, CreatorID: u.ID}); err != nil {
			return f, err
		}
	}
	live := make([]int, 0, o.Files+o.Days*5)
	files := make([]plumb.FileFigures, o.Files)
	for i := range files {
		files[i] = figures(i)
		live = append(live, i)
	}
	f.BigFile = path(0)
	files[0].Lines, files[0].LOC = BigFileLines, BigFileLines*7/10
	next := o.Files
	day0 := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -o.Days)
	tools := []string{"staticcheck", "gosec", "golangci-lint"}
	cats := []string{"bug", "vulnerability", "style", "security_hotspot", "performance"}
	levels := []string{"high", "medium", "low", "note"}
	coverEvery := o.Days / o.Coverage
	for d := 0; d < o.Days; d++ {
		in := plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: sha(d), AnalyzedAt: day0.AddDate(0, 0, d).Add(13 * time.Hour)}
		if d == 0 {
			in.Files = files
		} else {
			for k := 0; k < o.Files/1000; k++ {
				in.Files = append(in.Files, figures(live[1+rng.IntN(len(live)-1)]))
			}
			for k := 0; k < 5; k++ {
				in.Files = append(in.Files, figures(next))
				live = append(live, next)
				next++
			}
			for k := 0; k < 2; k++ {
				j := 1 + rng.IntN(len(live)-1)
				in.Removed = append(in.Removed, path(live[j]))
				live[j] = live[len(live)-1]
				live = live[:len(live)-1]
			}
			in.Files = dedupeFiles(in.Files, in.Removed)
		}
		for k := 0; k < 300; k++ {
			line := 1 + rng.IntN(20)
			i := live[rng.IntN(len(live))]
			in.Issues = append(in.Issues, plumb.Issue{Fingerprint: fmt.Sprintf("fp%d-%d", i, line), Tool: tools[rng.IntN(3)],
				RuleKey: "R" + fmt.Sprint(rng.IntN(50)), Message: "generated finding", Category: cats[rng.IntN(len(cats))],
				Level: levels[rng.IntN(len(levels))], Path: path(i), StartLine: &line})
		}
		if _, err := db.AddSnapshot(ctx, in); err != nil {
			return f, fmt.Errorf("snapshot %d: %w", d, err)
		}
		last := d == o.Days-1
		if last || (o.Days-d) <= o.Coverage*coverEvery && (o.Days-d)%coverEvery == 0 && (o.Days-d) <= 365 {
			if err := addBenchCoverage(ctx, db, p.ID, in.CommitSHA, in.AnalyzedAt.Add(time.Hour), live, path, rng, last); err != nil {
				return f, err
			}
		}
		f.Commit = in.CommitSHA
	}
	return f, nil
}

func dedupeFiles(files []plumb.FileFigures, removed []string) []plumb.FileFigures {
	gone := map[string]bool{}
	for _, r := range removed {
		gone[r] = true
	}
	seen := map[string]bool{}
	out := files[:0]
	for _, f := range files {
		if seen[f.Path] || gone[f.Path] {
			continue
		}
		seen[f.Path] = true
		out = append(out, f)
	}
	return out
}

// addBenchCoverage uploads coverage of every live file (short hit arrays) and,
// at the latest commit, the big file's BigFileLines lines.
func addBenchCoverage(ctx context.Context, db *sqlstore.DB, projectID, commit string, at time.Time, live []int, path func(int) string, rng *rand.Rand, big bool) error {
	in := plumb.CoverageInput{ProjectID: projectID, CommitSHA: commit, Branch: "main", CoverageTag: "unit", UploadedAt: at}
	for _, i := range live {
		n := 30
		if i == 0 && big {
			n = BigFileLines
		}
		hits := make([]int64, n)
		for k := range hits {
			switch r := rng.IntN(10); {
			case r < 3:
				hits[k] = -1
			case r < 5:
				hits[k] = 0
			default:
				hits[k] = int64(1 + rng.IntN(20))
			}
		}
		in.Files = append(in.Files, plumb.CoverageFile{Path: path(i), Hits: hits})
	}
	_, err := db.AddCoverage(ctx, in)
	return err
}
