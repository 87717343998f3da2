package sqlstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/plumbhq/plumb"
)

// A compared snapshot's issues carry their fingerprint's status
// (issue_states) where it has one, else their own: the same as the join
// snapshotIssues replaced, for every combination of an issue's own status
// and its fingerprint's state (open, ignored, none), on both backends.
func TestSnapshotIssuesStatusMatchesJoin(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{})
	var issues []plumb.Issue
	for i := range 60 {
		issues = append(issues, plumb.Issue{Fingerprint: fmt.Sprintf("fp%02d", i), Tool: "t", RuleKey: "r", Message: "m", Category: "bug", Level: "low", Path: "a.go"})
	}
	snap, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p, Branch: "main", CommitSHA: sShaA, AnalyzedAt: now,
		Files: []plumb.FileFigures{{Path: "a.go", Lines: 1}}, Issues: issues})
	dCheck(t, err)
	// Every combination: the issue's own status (i%2), its fingerprint's
	// state (i%3: open, ignored, none).
	for i := range issues {
		own := []string{"open", "ignored"}[i%2]
		fp := issues[i].Fingerprint
		_, err := db.write.ExecContext(ctx, `UPDATE issues SET status = $1 WHERE fingerprint = $2`, own, fp)
		dCheck(t, err)
		_, err = db.write.ExecContext(ctx, `DELETE FROM issue_states WHERE project_id = $1 AND fingerprint = $2`, p, fp)
		dCheck(t, err)
		if i%3 < 2 {
			_, err = db.write.ExecContext(ctx, `INSERT INTO issue_states (project_id, fingerprint, status) VALUES ($1, $2, $3)`, p, fp, []string{"open", "ignored"}[i%3])
			dCheck(t, err)
		}
	}
	var seq int64
	dCheck(t, db.read.QueryRowContext(ctx, `SELECT seq FROM snapshots WHERE id = $1`, snap.ID).Scan(&seq))
	want := map[string]string{}
	rows, err := db.read.QueryContext(ctx, `SELECT i.fingerprint, coalesce(st.status, i.status)
		FROM issues i LEFT JOIN issue_states st ON st.project_id = $1 AND st.fingerprint = i.fingerprint
		WHERE i.snapshot_seq = $2`, p, seq)
	dCheck(t, err)
	for rows.Next() {
		var fp, st string
		dCheck(t, rows.Scan(&fp, &st))
		want[fp] = st
	}
	dCheck(t, rows.Err())
	rows.Close()
	got, err := snapshotIssues(ctx, db.read, p, seq)
	dCheck(t, err)
	if len(got) != len(issues) || len(want) != len(issues) {
		t.Fatalf("%d issues read, %d by the join, %d written", len(got), len(want), len(issues))
	}
	ignored := 0
	for _, is := range got {
		if is.Status != want[is.Fingerprint] {
			t.Errorf("%s: status %q, the join says %q", is.Fingerprint, is.Status, want[is.Fingerprint])
		}
		if is.Status == "ignored" {
			ignored++
		}
	}
	// fp i is ignored when its state is (i%3 == 1), or it has none and its own is (i%3 == 2, i odd).
	if ignored != 20+10 {
		t.Errorf("%d ignored, want 30", ignored)
	}
}
