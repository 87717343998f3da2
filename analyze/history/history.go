// Package history analyses past commits of a branch from git, for
// plumb analyze --history (docs/analyze.md, "History backfill"): it picks the
// last commit of each day, week or month of a first-parent history (Pick),
// and analyses a commit's tree straight from the repository's objects, never
// touching the checkout (Repo.Analyze), with one analyze.Cache so that a file
// unchanged between two commits is measured once.
//
// Repo.Plan picks the commits and Repo.Backfill analyses them, handing each
// analysis to its caller. Run drives a whole backfill: the branch, the
// commits already done (asked of a Server, or found in the output
// directory), the analyses written and uploaded, each step told to a
// Reporter; the CLI keeps the flags, the output and the client.
package history

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/gitrepo"
)

// Repo is the repository holding the checkout to analyse, read through git.
type Repo struct {
	git    *gitrepo.Repo
	dir    string
	prefix string // the checkout's directory within the repository: "" or "dir/"
	cache  *analyze.Cache
}

// NotInRepositoryError is git's refusal of a directory outside any git
// repository (or of a missing directory).
type NotInRepositoryError struct{ Err error }

func (e *NotInRepositoryError) Error() string { return e.Err.Error() }
func (e *NotInRepositoryError) Unwrap() error { return e.Err }

// Open opens the repository holding dir, which may be one of its
// subdirectories: only the files below dir are analysed. When dir is not in
// a git repository, the error is a *NotInRepositoryError.
func Open(ctx context.Context, dir string) (*Repo, error) {
	top, err := gitrepo.Output(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, &NotInRepositoryError{err}
	}
	g, err := gitrepo.Open(dir)
	if err != nil {
		return nil, err
	}
	return &Repo{git: g, dir: dir, prefix: strings.TrimSpace(string(top)), cache: analyze.NewCache()}, nil
}

// Close stops the git process Open started.
func (r *Repo) Close() { r.git.Close() }

// DefaultBranch is the branch origin/HEAD names, else the checked-out
// branch; "" when neither is known.
func (r *Repo) DefaultBranch(ctx context.Context) string {
	if out, err := r.git.Git(ctx, "symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if b, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "origin/"); ok && b != "" {
			return b
		}
	}
	if out, err := r.git.Git(ctx, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		return strings.TrimSpace(string(out))
	}
	return ""
}

// Tip is the commit branch points to, locally or else at origin; "" when
// the repository has neither refs/heads/BRANCH nor
// refs/remotes/origin/BRANCH.
func (r *Repo) Tip(ctx context.Context, branch string) string {
	for _, ref := range []string{"refs/heads/" + branch, "refs/remotes/origin/" + branch} {
		if out, err := r.git.Git(ctx, "rev-parse", "--verify", "-q", ref+"^{commit}"); err == nil {
			return strings.TrimSpace(string(out))
		}
	}
	return ""
}

// FirstParents lists the commits reached from tip by first parents, newest
// first, with their committer times.
func (r *Repo) FirstParents(ctx context.Context, tip string) ([]gitrepo.Commit, error) {
	return r.git.FirstParents(ctx, tip)
}

// Shallow reports whether the repository is a shallow clone (its history
// may stop before the window).
func (r *Repo) Shallow(ctx context.Context) bool {
	out, _ := r.git.Git(ctx, "rev-parse", "--is-shallow-repository")
	return strings.TrimSpace(string(out)) == "true"
}

// ConfigError is a .plumb.yml of a commit that does not parse.
type ConfigError struct {
	Path   string // the file's path in the repository
	Commit string
	Err    error
}

func (e *ConfigError) Error() string { return fmt.Sprintf("%s at %s: %v", e.Path, e.Commit, e.Err) }

// Config reads the analysis settings (analyze.ConfigFile at the checkout's
// root) as of commit; the defaults when the commit has none. A file that
// does not parse is a *ConfigError.
func (r *Repo) Config(commit string) (analyze.Config, error) {
	path := r.prefix + analyze.ConfigFile
	b, found, err := r.git.Object(commit + ":" + path)
	if err != nil || !found {
		return analyze.Config{}, err
	}
	cfg, err := analyze.ParseConfig(b)
	if err != nil {
		return analyze.Config{}, &ConfigError{Path: path, Commit: commit, Err: err}
	}
	return cfg, nil
}

// Files lists the regular files of commit below the checkout's directory.
func (r *Repo) Files(ctx context.Context, commit string) ([]gitrepo.File, error) {
	return r.git.Tree(ctx, commit, r.prefix)
}

// Analyze analyses files (of one commit, as Files lists them) as
// analyze.Run analyses a checkout, with the settings cfg and the excludes.
// read is how many files it measured: the others were unchanged since a
// commit analysed before.
func (r *Repo) Analyze(ctx context.Context, files []gitrepo.File, cfg *analyze.Config, exclude []string) (res *analyze.Result, read int, err error) {
	tree := make([]analyze.TreeFile, len(files))
	for i, f := range files {
		tree[i] = analyze.TreeFile(f)
	}
	misses := r.cache.Misses
	res, err = analyze.Run(ctx, analyze.Options{Dir: r.dir, Exclude: exclude, Config: cfg, Read: r.git.ReaderOf(files), Tree: tree, Cache: r.cache})
	return res, r.cache.Misses - misses, err
}

// Periods are the lengths Pick takes: a UTC day, a week from Monday, a
// month.
const (
	Day   = "day"
	Week  = "week"
	Month = "month"
)

// PeriodOf is the start of the UTC period holding t: its day, its week
// (from Monday) or its month, as the metric series buckets them.
func PeriodOf(t time.Time, every string) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch every {
	case Week:
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	case Month:
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return day
}

// Pick chooses, of first-parent commits (newest first), the last commit of
// each period from start to now: the one with the latest committer time
// (the newer in the history on a tie). The result is oldest first.
func Pick(commits []gitrepo.Commit, start, now time.Time, every string) []gitrepo.Commit {
	last := map[time.Time]gitrepo.Commit{}
	for _, c := range commits {
		if c.Time.Before(start) || c.Time.After(now) {
			continue
		}
		p := PeriodOf(c.Time, every)
		if old, ok := last[p]; !ok || c.Time.After(old.Time) {
			last[p] = c
		}
	}
	out := make([]gitrepo.Commit, 0, len(last))
	for _, c := range last {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}

// durationRE reads a --history duration: 90d, 26w, 6m, 1y, "2 years".
var durationRE = regexp.MustCompile(`^([1-9][0-9]{0,4})\s*(d|days?|w|weeks?|m|mo|months?|y|years?)$`)

// Window reads the CLI's history options: history, a duration back from now
// (90d, 26w, 6m, 1y), or since, a date (2025-01-01) or RFC 3339 date-time,
// and every, the period (day, week or month; "" is week). It returns the
// first instant of the history, in UTC, and the period. An error says which
// option (--history, --since, --every) is wrong and why.
func Window(history, since, every string, now time.Time) (start time.Time, period string, err error) {
	period = strings.TrimSpace(every)
	switch period {
	case "":
		period = Week
	case "day", "week", "month":
	default:
		return start, "", fmt.Errorf("--every takes day, week or month, got %q", every)
	}
	switch {
	case history != "" && since != "":
		return start, "", errors.New("--history and --since both say where the history starts: give one")
	case history != "":
		m := durationRE.FindStringSubmatch(strings.ToLower(strings.TrimSpace(history)))
		if m == nil {
			return start, "", fmt.Errorf("--history takes a number of days, weeks, months or years such as 90d, 26w, 6m or 1y, got %q", history)
		}
		n, _ := strconv.Atoi(m[1])
		switch m[2][0] {
		case 'd':
			start = now.AddDate(0, 0, -n)
		case 'w':
			start = now.AddDate(0, 0, -7*n)
		case 'm':
			start = now.AddDate(0, -n, 0)
		default:
			start = now.AddDate(-n, 0, 0)
		}
	default:
		s := strings.TrimSpace(since)
		if start, err = time.Parse(time.DateOnly, s); err != nil {
			if start, err = time.Parse(time.RFC3339, s); err != nil {
				return start, "", fmt.Errorf("--since takes a date (2025-01-01) or an RFC 3339 date-time, got %q", since)
			}
		}
		if !start.Before(now) {
			return start, "", fmt.Errorf("--since %s is not in the past", since)
		}
	}
	return start.UTC(), period, nil
}
