package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/extsort"
	"github.com/plumbhq/plumb/metric"
)

// A snapshot is written from its spool, in path order: its issues first (in
// listing order, with the statuses their fingerprints have), then, for the
// default branch, its files merged with the tree they change. Memory holds
// a chunk of rows and a page of the old tree at a time, never the snapshot.

// currentVersion is the since_seq of a path's row in the project's current
// snapshot (p is the path, pr its project): a pending snapshot has pointed
// current_seq past the current snapshot, and its readers keep prev_seq.
const currentVersion = `CASE WHEN p.current_seq <= pr.current_snapshot THEN p.current_seq ELSE p.prev_seq END`

// AddSnapshot stores a snapshot with its files and issues (as slices; uploads
// hand theirs over in a SnapshotSpool). A default-branch snapshot at least
// as new as the current one becomes the project's current state: its issues
// are listed, its files' figures are recorded as changes, and every
// component's totals gain a measurement. An older one enters the history at
// its own time.
func (db *DB) AddSnapshot(ctx context.Context, in plumb.SnapshotInput) (plumb.Snapshot, error) {
	sp := NewSnapshotSpool(db.tempDir)
	defer sp.Close()
	if err := sp.addAll(in); err != nil {
		return plumb.Snapshot{}, err
	}
	return db.storeSnapshot(ctx, nil, in, sp, nil)
}

// addSnapshot stores a snapshot inside the caller's transaction (an import).
func (db *DB) addSnapshot(ctx context.Context, tx *sql.Tx, in plumb.SnapshotInput) (plumb.Snapshot, error) {
	sp := NewSnapshotSpool(db.tempDir)
	defer sp.Close()
	if err := sp.addAll(in); err != nil {
		return plumb.Snapshot{}, err
	}
	return db.storeSnapshot(ctx, tx, in, sp, nil)
}

// ownSpool returns the store's own spool behind sp: a spool is made by
// NewSnapshotSpool, and the store reads back what it sorted.
func ownSpool(sp plumb.SnapshotSpool) (*SnapshotSpool, error) {
	own, ok := sp.(*SnapshotSpool)
	if !ok {
		return nil, fmt.Errorf("sqlstore: a snapshot spool not made by the store (%T)", sp)
	}
	return own, nil
}

// addAll puts a snapshot input's slices in the spool.
func (sp *SnapshotSpool) addAll(in plumb.SnapshotInput) error {
	for _, f := range in.Files {
		if err := sp.AddFile(f); err != nil {
			return err
		}
	}
	for _, p := range in.Removed {
		if err := sp.AddRemoved(p); err != nil {
			return err
		}
	}
	for _, is := range in.Issues {
		if err := sp.AddIssue(is); err != nil {
			return err
		}
	}
	sp.imported = true
	for _, c := range in.Clones {
		if err := sp.AddClone(c.A, c.B, c.Lines); err != nil {
			return err
		}
	}
	return nil
}

// AddFindings stores the issues of SARIF reports for a commit (in sp) as a
// new snapshot of it: the issues of the tools reported replace those tools'
// issues in the commit's latest snapshot, other tools' issues are kept, and
// the files' figures are unchanged. It returns the new snapshot.
func (db *DB) AddFindings(ctx context.Context, in plumb.SnapshotInput, spool plumb.SnapshotSpool, tools []string) (plumb.Snapshot, error) {
	replaced := map[string]bool{}
	for _, t := range tools {
		replaced[t] = true
	}
	sp, err := ownSpool(spool)
	if err != nil {
		return plumb.Snapshot{}, err
	}
	in.FindingsOnly = true
	return db.storeSnapshot(ctx, nil, in, sp, replaced)
}

// AddAnalysis stores an analysis upload (its files and issues in sp) as a
// new snapshot of its commit. The issues of the commit's latest snapshot on
// the same branch (for example a SARIF upload made before it) are kept for
// every tool the analysis brings no issues of; the tools it brings issues of
// replace theirs. The snapshot tells what was kept and replaced, per tool.
func (db *DB) AddAnalysis(ctx context.Context, in plumb.SnapshotInput, spool plumb.SnapshotSpool) (plumb.Snapshot, error) {
	sp, err := ownSpool(spool)
	if err != nil {
		return plumb.Snapshot{}, err
	}
	replaced := map[string]bool{}
	for _, t := range sp.Tools() {
		replaced[t] = true
	}
	return db.storeSnapshot(ctx, nil, in, sp, replaced)
}

// snapshotWrite is one snapshot being written: staged in short transactions
// of its own, or inside a caller's transaction (tx).
type snapshotWrite struct {
	db     *DB
	ctx    context.Context
	in     plumb.SnapshotInput
	sp     *SnapshotSpool
	staged *stagedWrite
	tx     *sql.Tx
	read   querier // the published state: the read pool, or tx

	seq   int64
	snap  plumb.Snapshot
	comps map[string]int64 // the project's components and their revisions when the write began

	// For the default branch: the open issues' figures per path, in path
	// order; then the project's and each component's change (a measured
	// snapshot) or sums (a snapshot of the history).
	figures *extsort.Sorter
	project metric.Totals
	byComp  map[string]*metric.Totals
}

// storeSnapshot writes a snapshot from its spool. With replaced (an upload)
// the issues of the commit's latest snapshot on the branch whose tool is
// not in replaced are carried into it.
func (db *DB) storeSnapshot(ctx context.Context, tx *sql.Tx, in plumb.SnapshotInput, sp *SnapshotSpool, replaced map[string]bool) (plumb.Snapshot, error) {
	if err := validateSnapshot(&in); err != nil {
		return plumb.Snapshot{}, err
	}
	// The whole upload is checked before anything depends on its branch:
	// a report refused on the default branch is refused on every other.
	if err := sp.checkPaths(); err != nil {
		return plumb.Snapshot{}, err
	}
	if err := sp.checkClones(); err != nil {
		return plumb.Snapshot{}, err
	}
	if err := sp.err(); err != nil {
		return plumb.Snapshot{}, err
	}
	w := &snapshotWrite{db: db, ctx: ctx, in: in, sp: sp, tx: tx, byComp: map[string]*metric.Totals{}}
	if tx == nil {
		staged, err := db.beginStaged(ctx, in.ProjectID, stagedSnapshot, w.start)
		if err != nil {
			return plumb.Snapshot{}, err
		}
		w.staged, w.read = staged, db.read
	} else {
		if err := db.lockProject(ctx, tx, in.ProjectID); err != nil {
			return plumb.Snapshot{}, err
		}
		if _, err := w.start(tx); err != nil {
			return plumb.Snapshot{}, err
		}
		w.read = tx
	}
	err := w.write(replaced)
	if err != nil && w.staged != nil {
		w.staged.fail(ctx)
	}
	if w.figures != nil {
		w.figures.Close()
	}
	return w.snap, classify(err)
}

func (w *snapshotWrite) write(replaced map[string]bool) error {
	if replaced != nil {
		if err := w.carry(replaced); err != nil {
			return err
		}
	}
	if err := w.writeIssues(); err != nil {
		return err
	}
	if err := w.writeClones(); err != nil {
		return err
	}
	if w.snap.History {
		if err := w.writeFiles(); err != nil {
			return err
		}
	}
	if err := w.chunk(w.publish); err != nil {
		return err
	}
	if w.staged != nil {
		w.db.published(w.ctx, stagedSnapshot)
	}
	return nil
}

// chunk runs fn in a transaction of the write.
func (w *snapshotWrite) chunk(fn func(tx *sql.Tx) error) error {
	if w.staged == nil {
		return fn(w.tx)
	}
	return w.staged.chunk(w.ctx, fn)
}

// start inserts the snapshot's row, pending, and returns its seq. A
// default-branch snapshot at least as new as the current one will become
// current (plumb.SnapshotMeasured); an older one enters the history at its
// own time (plumb.SnapshotHistory).
func (w *snapshotWrite) start(tx *sql.Tx) (int64, error) {
	ctx, in := w.ctx, w.in
	s := plumb.Snapshot{ID: in.ID, ProjectID: in.ProjectID, Branch: in.Branch, CommitSHA: in.CommitSHA, AnalyzedAt: in.AnalyzedAt.UTC().Truncate(time.Second)}
	if s.ID == "" {
		s.ID = NewID()
	}
	var defaultBranch string
	var currentAt sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT p.default_branch, s.analyzed_at FROM projects p
		LEFT JOIN snapshots s ON s.seq = p.current_snapshot WHERE p.id = $1`, in.ProjectID).Scan(&defaultBranch, &currentAt)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFound(fmt.Sprintf("no project %q", in.ProjectID))
	} else if err != nil {
		return 0, err
	}
	s.Measured = in.Branch == defaultBranch && (!currentAt.Valid || unix(s.AnalyzedAt) >= currentAt.Int64)
	s.History = in.Branch == defaultBranch
	if err := tx.QueryRowContext(ctx, `INSERT INTO snapshots (id, project_id, branch, commit_sha, analyzed_at, measured, created_at, analysis, pending)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1) RETURNING seq`, s.ID, s.ProjectID, s.Branch, s.CommitSHA, unix(s.AnalyzedAt), s.Measurement(),
		w.db.now().Unix(), boolInt(!in.FindingsOnly)).Scan(&w.seq); err != nil {
		return 0, err
	}
	w.snap = s
	var err2 error
	w.comps, err2 = componentRevisions(ctx, tx, in.ProjectID)
	return w.seq, err2
}

// carry adds to the spool the issues of the commit's latest snapshot on the
// branch whose tool is not replaced, counting what was kept and replaced.
func (w *snapshotWrite) carry(replaced map[string]bool) error {
	ctx, in := w.ctx, w.in
	var prev sql.NullInt64
	if err := w.read.QueryRowContext(ctx, `SELECT max(seq) FROM snapshots WHERE project_id = $1 AND branch = $2 AND commit_sha = $3 AND pending = 0`,
		in.ProjectID, in.Branch, in.CommitSHA).Scan(&prev); err != nil {
		return err
	}
	w.snap.Kept, w.snap.Replaced = map[string]int{}, map[string]int{}
	if !prev.Valid {
		return nil
	}
	return eachRow(ctx, w.read, `SELECT `+issueColumns+` FROM issues WHERE snapshot_seq = $1 ORDER BY seq`, []any{prev.Int64}, func(rows *sql.Rows) error {
		_, is, err := scanIssue(rows)
		if err != nil {
			return err
		}
		if replaced[is.Tool] {
			w.snap.Replaced[is.Tool]++
			return nil
		}
		w.snap.Kept[is.Tool]++
		is.ID = ""
		return w.sp.AddIssue(is)
	})
}

// writeIssues stores the snapshot's issues in listing order, a chunk per
// transaction, applying the statuses their fingerprints have, and for the
// default branch sums the open issues' figures per path.
func (w *snapshotWrite) writeIssues() error {
	it, err := w.sp.issues.Iter()
	if err != nil {
		return err
	}
	if w.snap.History {
		w.figures = extsort.New(w.db.tempDir, spoolBudget/4, compareByPath)
	}
	var (
		chunk   []plumb.Issue
		figPath string
		fig     metric.FileStats
		hasFig  bool
		rec     []byte
	)
	flushFigure := func() error {
		if !hasFig {
			return nil
		}
		hasFig = false
		rec = extsort.AppendString(rec[:0], figPath)
		for _, v := range fileStatsArgs(fig) {
			rec = extsort.AppendInt(rec, v.(int64))
		}
		return w.figures.Add(rec)
	}
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		if err := w.chunk(func(tx *sql.Tx) error { return w.insertIssues(tx, chunk) }); err != nil {
			return err
		}
		if w.figures != nil {
			for _, is := range chunk {
				if is.Status != "open" {
					continue
				}
				if !hasFig || is.Path != figPath {
					if err := flushFigure(); err != nil {
						return err
					}
					figPath, fig, hasFig = is.Path, metric.FileStats{}, true
				}
				lv, _ := metric.ParseLevel(is.Level)
				fig.AddOpenIssue(lv, is.Category)
			}
		}
		chunk = chunk[:0]
		return nil
	}
	for it.Next() {
		is, err := decodeIssueRecord(it.Record())
		if err != nil {
			return err
		}
		chunk = append(chunk, is)
		if len(chunk) >= w.db.stageChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	return flushFigure()
}

// insertIssues stores a chunk of issues, giving each the status its
// fingerprint has (a new fingerprint keeps the status given, else open, and
// records it, owned by this snapshot until it is published).
func (w *snapshotWrite) insertIssues(tx *sql.Tx, chunk []plumb.Issue) error {
	ctx, in := w.ctx, w.in
	states := map[string]string{}
	if !in.KeepStatus {
		// Only this chunk's fingerprints are looked up, so ingestion cost
		// does not grow with the project's history.
		fps := make([]string, 0, len(chunk))
		for _, is := range chunk {
			fps = append(fps, is.Fingerprint)
		}
		slices.Sort(fps)
		fps = slices.Compact(fps)
		err := inBatches(fps, func(inList string, args []any) error {
			return readIssueStates(ctx, tx, states, in.ProjectID, `fingerprint IN (`+inList+`)`, args...)
		})
		if err != nil {
			return err
		}
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO issues (id, snapshot_seq, fingerprint, tool, rule_key, message, category, level, status,
		documentation_url, path, start_line, end_line) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	// The status belongs to the fingerprint: the first status a fingerprint
	// gets is kept for the issue in every later snapshot (an import sets it).
	saveState, err := tx.PrepareContext(ctx, `INSERT INTO issue_states (project_id, fingerprint, status, origin_seq) VALUES ($1, $2, $3, $4)
		ON CONFLICT (project_id, fingerprint) DO UPDATE SET status = excluded.status`)
	if err != nil {
		return err
	}
	defer saveState.Close()
	for i := range chunk {
		is := &chunk[i]
		if is.ID == "" {
			is.ID = NewID()
		}
		if st, ok := states[is.Fingerprint]; ok {
			is.Status = st
		} else {
			if is.Status == "" {
				is.Status = "open"
			}
			if _, err := saveState.ExecContext(ctx, in.ProjectID, is.Fingerprint, is.Status, w.seq); err != nil {
				return err
			}
			if !in.KeepStatus {
				states[is.Fingerprint] = is.Status
			}
		}
		var doc any
		if is.DocumentationURL != "" {
			doc = is.DocumentationURL
		}
		if _, err := stmt.ExecContext(ctx, is.ID, w.seq, is.Fingerprint, is.Tool, is.RuleKey, is.Message, is.Category, is.Level, is.Status,
			doc, is.Path, is.StartLine, is.EndLine); err != nil {
			return err
		}
	}
	return nil
}

// treeEntry is one file of a tree: its path, its id (0 when not known yet)
// and its figures.
type treeEntry struct {
	path   string
	pathID int64
	stats  metric.FileStats
}

// treePager reads a tree in path order, a page at a time.
type treePager struct {
	fetch func(after string) ([]treeEntry, error) // the next page after a path
	page  []treeEntry
	pos   int
	last  string
	done  bool
	err   error
}

// head returns the pager's current entry, nil at the end.
func (t *treePager) head() *treeEntry {
	if t == nil {
		return nil
	}
	if t.pos >= len(t.page) && !t.done && t.err == nil {
		t.page, t.pos = nil, 0
		t.page, t.err = t.fetch(t.last)
		if len(t.page) == 0 {
			t.done = true
		} else {
			t.last = t.page[len(t.page)-1].path
		}
	}
	if t.pos >= len(t.page) {
		return nil
	}
	return &t.page[t.pos]
}

const treePage = 2000

// queryPager pages through a query whose last placeholder is the path to
// start after; it selects a path's id, the path and its figures, ordered by
// path.
func queryPager(ctx context.Context, q querier, query string, args ...any) *treePager {
	return &treePager{fetch: func(after string) ([]treeEntry, error) {
		var out []treeEntry
		err := eachRow(ctx, q, query, append(slices.Clone(args), after), func(rows *sql.Rows) error {
			var e treeEntry
			if err := rows.Scan(scanFileStats([]any{&e.pathID, &e.path}, &e.stats)...); err != nil {
				return err
			}
			out = append(out, e)
			return nil
		})
		return out, err
	}}
}

// currentTree pages through the files of the project's current snapshot.
func currentTree(ctx context.Context, q querier, projectID string) *treePager {
	return queryPager(ctx, q, `SELECT p.id, p.path, `+prefixCols("v.", fileStatsColumns)+` FROM paths p
		JOIN projects pr ON pr.id = p.project_id
		JOIN file_versions v ON v.path_id = p.id AND v.since_seq = `+currentVersion+`
		WHERE p.project_id = $1 AND v.deleted = 0 AND p.path > $2 ORDER BY p.path LIMIT `+fmt.Sprint(treePage), projectID)
}

// currentFilesOf pages through the files of the project's current snapshot
// among the sorted paths an iterator gives.
func currentFilesOf(ctx context.Context, q querier, projectID string, paths *extsort.Iter) *treePager {
	var prev string
	started := false
	return &treePager{fetch: func(string) ([]treeEntry, error) {
		for {
			var batch []string
			for len(batch) < 400 && paths.Next() {
				p := extsort.NewReader(paths.Record())
				path := p.String()
				if started && path == prev {
					continue
				}
				started, prev = true, path
				batch = append(batch, path)
			}
			if err := paths.Err(); err != nil || len(batch) == 0 {
				return nil, err
			}
			var out []treeEntry
			err := inBatches(batch, func(in string, args []any) error {
				return eachRow(ctx, q, `SELECT p.id, p.path, `+prefixCols("v.", fileStatsColumns)+` FROM paths p
					JOIN projects pr ON pr.id = p.project_id
					JOIN file_versions v ON v.path_id = p.id AND v.since_seq = `+currentVersion+`
					WHERE p.project_id = $1 AND v.deleted = 0 AND p.path IN (`+in+`)`,
					append([]any{projectID}, args...), func(rows *sql.Rows) error {
						var e treeEntry
						if err := rows.Scan(scanFileStats([]any{&e.pathID, &e.path}, &e.stats)...); err != nil {
							return err
						}
						out = append(out, e)
						return nil
					})
			})
			if err != nil {
				return nil, err
			}
			if len(out) > 0 {
				slices.SortFunc(out, func(a, b treeEntry) int { return strings.Compare(a.path, b.path) })
				return out, nil
			}
		}
	}}
}

// treeBefore pages through the tree of the project's latest measurement at
// or before at (other than the snapshot being written): a snapshot of the
// history's own tree, or the files of a snapshot that was current, as they
// were then. Nil when there is none.
func (w *snapshotWrite) treeBefore() (*treePager, error) {
	ctx := w.ctx
	var prev, measured int64
	err := w.read.QueryRowContext(ctx, `SELECT seq, measured FROM snapshots WHERE project_id = $1 AND measured IN (`+sqlSnapshotMeasured+`, `+sqlSnapshotHistory+`) AND seq <> $2
		AND analyzed_at <= $3 AND pending = 0 ORDER BY analyzed_at DESC, seq DESC LIMIT 1`, w.in.ProjectID, w.seq, unix(w.snap.AnalyzedAt)).Scan(&prev, &measured)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if measured == plumb.SnapshotHistory {
		return queryPager(ctx, w.read, `SELECT p.id, p.path, `+prefixCols("f.", fileStatsColumns)+` FROM snapshot_files f
			JOIN paths p ON p.id = f.path_id WHERE f.snapshot_seq = $1 AND p.path > $2 ORDER BY p.path LIMIT `+fmt.Sprint(treePage), prev), nil
	}
	return queryPager(ctx, w.read, `SELECT p.id, p.path, `+prefixCols("v.", fileStatsColumns)+` FROM paths p
		JOIN file_versions v ON v.path_id = p.id AND v.deleted = 0 AND v.since_seq =
			(SELECT max(x.since_seq) FROM file_versions x WHERE x.path_id = p.id AND x.since_seq <= $1)
		WHERE p.project_id = $2 AND p.path > $3 ORDER BY p.path LIMIT `+fmt.Sprint(treePage), prev, w.in.ProjectID), nil
}

// recordIter is a sorted iterator with its current record decoded.
type recordIter struct {
	it   *extsort.Iter
	path string
	rec  []byte
	ok   bool
}

func newRecordIter(s *extsort.Sorter) (*recordIter, error) {
	it, err := s.Iter()
	if err != nil {
		return nil, err
	}
	r := &recordIter{it: it}
	r.next()
	return r, nil
}

func (r *recordIter) next() {
	r.ok = r.it.Next()
	if r.ok {
		r.rec = r.it.Record()
		rd := extsort.NewReader(r.rec)
		r.path = string(rd.Bytes())
	}
}

// treeChange is one file's change in a measured snapshot (old nil: a new
// file; new nil: a removed one), or one file of a history snapshot's tree
// (new only).
type treeChange struct {
	path     string
	pathID   int64
	old, new *metric.FileStats
}

// writeFiles merges the snapshot's files with the tree they change, in
// path order, and stores the result a chunk per transaction: for the
// current snapshot the files whose figures changed (file_versions, each
// path then pointing at its new row), for one of the history its whole
// tree (snapshot_files).
func (w *snapshotWrite) writeFiles() error {
	ctx, in := w.ctx, w.in
	files, err := newRecordIter(w.sp.files)
	if err != nil {
		return err
	}
	removed, err := newRecordIter(w.sp.removed)
	if err != nil {
		return err
	}
	figures, err := newRecordIter(w.figures)
	if err != nil {
		return err
	}
	// prior: for the current snapshot, the current tree (all of it for a
	// full tree, else the files the snapshot touches); for the history, the
	// tree before it when it reports changes.
	var prior *treePager
	switch {
	case w.snap.Measured && in.FullTree:
		prior = currentTree(ctx, w.read, in.ProjectID)
	case w.snap.Measured:
		touched, err := w.touchedPaths()
		if err != nil {
			return err
		}
		defer touched.Close()
		it, err := touched.Iter()
		if err != nil {
			return err
		}
		prior = currentFilesOf(ctx, w.read, in.ProjectID, it)
	case !in.FullTree:
		if prior, err = w.treeBefore(); err != nil {
			return err
		}
	}
	var chunk []treeChange
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		err := w.chunk(func(tx *sql.Tx) error { return w.writeChanges(tx, chunk) })
		chunk = chunk[:0]
		return err
	}
	for {
		// The smallest path at the head of any source.
		p, found := "", false
		consider := func(ok bool, path string) {
			if ok && (!found || path < p) {
				p, found = path, true
			}
		}
		consider(files.ok, files.path)
		consider(removed.ok, removed.path)
		consider(figures.ok, figures.path)
		if h := prior.head(); h != nil {
			consider(true, h.path)
		}
		if prior != nil && prior.err != nil {
			return prior.err
		}
		if !found {
			break
		}
		var next metric.FileStats
		present := false
		if files.ok && files.path == p {
			f, err := decodeSpooledFile(files.rec)
			if err != nil {
				return err
			}
			next = metric.FileStats{Lines: f.Lines, LOC: f.LOC, Complexity: f.Complexity, DuplicatedLines: f.DuplicatedLines}
			present = true
			if files.next(); files.ok && files.path == p {
				dup, _ := decodeSpooledFile(files.rec)
				return plumb.Errorf(plumb.EINVALID, "files[%d]: path %q is listed twice", dup.index, p)
			}
		}
		isRemoved := false
		for removed.ok && removed.path == p {
			isRemoved = true
			removed.next()
		}
		var old *treeEntry
		if h := prior.head(); h != nil && h.path == p {
			e := *h
			old = &e
			prior.pos++
		}
		if !present && !in.FullTree && old != nil && !isRemoved {
			next = old.stats
			next.OpenIssues, next.RemediationMinutes, next.SecurityIssues = 0, 0, metric.LevelCounts{}
			present = true
		}
		if figures.ok && figures.path == p {
			if present {
				r := extsort.NewReader(figures.rec)
				r.Bytes()
				var fig metric.FileStats
				for _, v := range scanFileStats(nil, &fig) {
					*(v.(*int64)) = r.Int()
				}
				next.OpenIssues, next.RemediationMinutes, next.SecurityIssues = fig.OpenIssues, fig.RemediationMinutes, fig.SecurityIssues
			}
			figures.next()
		}
		c := treeChange{path: p}
		if old != nil {
			c.pathID = old.pathID
		}
		if present {
			c.new = &next
		}
		if w.snap.Measured {
			switch {
			case old != nil && present && old.stats == next:
				continue // unchanged
			case old != nil:
				c.old = &old.stats
			case !present:
				continue
			}
		} else if !present {
			continue
		}
		chunk = append(chunk, c)
		if len(chunk) >= w.db.stageChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	for _, it := range []*recordIter{files, removed, figures} {
		if err := it.it.Err(); err != nil {
			return err
		}
	}
	return flush()
}

// touchedPaths sorts the paths whose figures a snapshot of changes can
// alter: the files it lists or removes, and the files with open issues in
// it or in the snapshot it replaces (their issue figures are recomputed).
func (w *snapshotWrite) touchedPaths() (*extsort.Sorter, error) {
	out := extsort.New(w.db.tempDir, spoolBudget/4, compareByPath)
	for _, s := range []*extsort.Sorter{w.sp.files, w.sp.removed, w.figures} {
		it, err := s.Iter()
		if err != nil {
			return out, err
		}
		for it.Next() {
			r := extsort.NewReader(it.Record())
			if err := out.Add(extsort.AppendString(nil, string(r.Bytes()))); err != nil {
				return out, err
			}
		}
		if err := it.Err(); err != nil {
			return out, err
		}
	}
	err := eachRow(w.ctx, w.read, `SELECT DISTINCT i.path FROM issues i JOIN projects p ON p.current_snapshot = i.snapshot_seq WHERE p.id = $1`,
		[]any{w.in.ProjectID}, func(rows *sql.Rows) error {
			var p string
			if err := rows.Scan(&p); err != nil {
				return err
			}
			return out.Add(extsort.AppendString(nil, p))
		})
	return out, err
}

// writeChanges stores a chunk of file changes (or of a history snapshot's
// tree) and adds them to the project's and the components' figures.
func (w *snapshotWrite) writeChanges(tx *sql.Tx, chunk []treeChange) error {
	ctx := w.ctx
	var fresh []string
	for _, c := range chunk {
		if c.pathID == 0 {
			fresh = append(fresh, c.path)
		}
	}
	if len(fresh) > 0 {
		ids, err := w.db.pathIDs(ctx, tx, w.in.ProjectID, fresh)
		if err != nil {
			return err
		}
		for i := range chunk {
			if chunk[i].pathID == 0 {
				chunk[i].pathID = ids[chunk[i].path]
			}
		}
	}
	var insert, point *sql.Stmt
	var err error
	if w.snap.Measured {
		insert, err = tx.PrepareContext(ctx, `INSERT INTO file_versions (path_id, since_seq, deleted, `+fileStatsColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`)
		if err != nil {
			return err
		}
		defer insert.Close()
		// The path points at its new row; readers keep the old one
		// (prev_seq) until the snapshot is published.
		point, err = tx.PrepareContext(ctx, `UPDATE paths SET prev_seq = current_seq, current_seq = $1 WHERE id = $2`)
		if err != nil {
			return err
		}
		defer point.Close()
	} else {
		insert, err = tx.PrepareContext(ctx, `INSERT INTO snapshot_files (snapshot_seq, path_id, `+fileStatsColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`)
		if err != nil {
			return err
		}
		defer insert.Close()
	}
	ids := make([]int64, len(chunk))
	var project metric.Totals
	for i, c := range chunk {
		ids[i] = c.pathID
		if w.snap.Measured {
			st, deleted := metric.FileStats{}, 1
			if c.new != nil {
				st, deleted = *c.new, 0
			}
			if _, err := insert.ExecContext(ctx, append([]any{c.pathID, w.seq, deleted}, fileStatsArgs(st)...)...); err != nil {
				return err
			}
			if _, err := point.ExecContext(ctx, w.seq, c.pathID); err != nil {
				return err
			}
		} else if _, err := insert.ExecContext(ctx, append([]any{w.seq, c.pathID}, fileStatsArgs(*c.new)...)...); err != nil {
			return err
		}
		c.applyTo(&project)
	}
	members, err := componentsOfPaths(ctx, tx, ids)
	if err != nil {
		return err
	}
	byComp := map[string]*metric.Totals{}
	for _, c := range chunk {
		for comp := range members[c.pathID] {
			if byComp[comp] == nil {
				byComp[comp] = &metric.Totals{}
			}
			c.applyTo(byComp[comp])
		}
	}
	// Counted once the chunk is stored (a failed chunk fails the write).
	addTotals(&w.project, project)
	for comp, t := range byComp {
		if w.byComp[comp] == nil {
			w.byComp[comp] = &metric.Totals{}
		}
		addTotals(w.byComp[comp], *t)
	}
	return nil
}

// applyTo adds a change to totals: the old figures out, the new in.
func (c treeChange) applyTo(t *metric.Totals) {
	if c.old != nil {
		t.Sub(*c.old)
	}
	if c.new != nil {
		t.Add(*c.new)
	}
}

// addTotals adds d (a change: counts may be negative) to t.
func addTotals(t *metric.Totals, d metric.Totals) {
	t.Files += d.Files
	t.Stats.Add(d.Stats)
}

// publish makes the snapshot visible in one transaction: the project's and
// the components' totals at its time, then, for the current snapshot, the
// project's pointer to it.
func (w *snapshotWrite) publish(tx *sql.Tx) error {
	ctx, in, at := w.ctx, w.in, w.snap.AnalyzedAt
	if err := w.db.lockProject(ctx, tx, in.ProjectID); err != nil {
		return err
	}
	if w.snap.History {
		pt := w.project
		if w.snap.Measured {
			base, err := latestProjectTotals(ctx, tx, in.ProjectID)
			if err != nil {
				return err
			}
			addTotals(&base, pt)
			pt = base
		}
		if err := insertProjectTotals(ctx, tx, in.ProjectID, w.seq, at, pt); err != nil {
			return err
		}
		comps, err := componentRevisions(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		for _, id := range keys(comps) {
			t, err := w.componentTotals(tx, id, comps[id])
			if err != nil {
				return err
			}
			if err := insertSnapshotTotals(ctx, tx, id, w.seq, at, t); err != nil {
				return err
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE snapshots SET pending = 0 WHERE seq = $1`, w.seq); err != nil {
		return err
	}
	if w.snap.Measured {
		if _, err := tx.ExecContext(ctx, `UPDATE projects SET current_snapshot = $1, issues_version = issues_version + 1 WHERE id = $2`, w.seq, in.ProjectID); err != nil {
			return err
		}
	}
	if err := w.db.recordAnswer(ctx, tx, w.snap); err != nil {
		return err
	}
	if w.staged != nil {
		return w.staged.release(ctx, tx)
	}
	return nil
}

// componentTotals is a component's totals at the snapshot: its previous
// totals plus the changes of its files (the current snapshot) or the sum of
// its files (the history), as counted while the files were written; a
// component created or re-globbed meanwhile is counted again from the tree.
func (w *snapshotWrite) componentTotals(tx *sql.Tx, id string, revision int64) (metric.Totals, error) {
	ctx := w.ctx
	var counted metric.Totals
	if d := w.byComp[id]; d != nil {
		counted = *d
	}
	if rev, ok := w.comps[id]; ok && rev == revision {
		if !w.snap.Measured {
			return counted, nil
		}
		t, err := latestSnapshotTotals(ctx, tx, id)
		if err != nil {
			return t, err
		}
		addTotals(&t, counted)
		return t, nil
	}
	sums := make([]string, 0, 11)
	for _, c := range strings.Split(fileStatsColumns, ", ") {
		sums = append(sums, "coalesce(sum(v."+c+"), 0)")
	}
	query := `SELECT count(*), ` + strings.Join(sums, ", ") + ` FROM component_paths cp JOIN paths p ON p.id = cp.path_id
		JOIN file_versions v ON v.path_id = p.id AND v.since_seq = CASE WHEN p.current_seq <= $2 THEN p.current_seq ELSE p.prev_seq END
		WHERE cp.component_id = $1 AND v.deleted = 0`
	if !w.snap.Measured {
		query = `SELECT count(*), ` + strings.Join(sums, ", ") + ` FROM snapshot_files v
			JOIN component_paths cp ON cp.path_id = v.path_id AND cp.component_id = $1 WHERE v.snapshot_seq = $2`
	}
	var t metric.Totals
	err := tx.QueryRowContext(ctx, query, id, w.seq).Scan(scanFileStats([]any{&t.Files}, &t.Stats)...)
	return t, err
}

// componentRevisions returns the project's components and their revisions.
func componentRevisions(ctx context.Context, q querier, projectID string) (map[string]int64, error) {
	out := map[string]int64{}
	err := eachRow(ctx, q, `SELECT id, revision FROM components WHERE project_id = $1`, []any{projectID}, func(rows *sql.Rows) error {
		var id string
		var rev int64
		if err := rows.Scan(&id, &rev); err != nil {
			return err
		}
		out[id] = rev
		return nil
	})
	return out, err
}
