package sqlstore

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/source"
)

// SourceStates answers, for many paths at once (more than one batch of
// the IN list), what GetSource answers for each, without the content.
func TestSourceStatesMatchGetSource(t *testing.T) {
	ctx := context.Background()
	now := dT0
	db, p := sOpen(t, &now, Options{SourceLimits: source.Limits{MaxFileSize: 64}})
	var pairs, paths []string
	for i := range 450 {
		path := fmt.Sprintf("pkg/f%03d.go", i)
		pairs = append(pairs, path, fmt.Sprintf("package pkg // %d\n", i%7))
		paths = append(paths, path)
	}
	pairs = append(pairs, "big.txt", strings.Repeat("x", 65), "logo.png", "\x89PNG\x00\x00")
	_, err := db.PutSources(ctx, p, sShaA, source.OriginUpload, sFiles(pairs...))
	dCheck(t, err)
	paths = append(paths, "big.txt", "logo.png", "none.go")
	states, err := db.SourceStates(ctx, p, sShaA, paths)
	dCheck(t, err)
	if len(states) != len(paths)-1 {
		t.Fatalf("%d states for %d paths with a state", len(states), len(paths)-1)
	}
	if _, ok := states["none.go"]; ok {
		t.Error("a path without a source has a state")
	}
	for _, path := range paths[:len(paths)-1] {
		want := sGet(t, db, p, sShaA, path)
		want.Content = nil
		if got := states[path]; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: state %+v, GetSource %+v", path, got, want)
		}
	}
	if states["big.txt"].State != source.StateTooLarge || states["pkg/f000.go"].State != source.StateOK {
		t.Errorf("states: %+v %+v", states["big.txt"], states["pkg/f000.go"])
	}
	// Another commit has none; a project that refuses sources: every path disabled.
	if other, err := db.SourceStates(ctx, p, sShaB, paths); err != nil || len(other) != 0 {
		t.Errorf("another commit: %v %v", other, err)
	}
	_, err = db.SetSourcesDisabled(ctx, p, true)
	dCheck(t, err)
	states, err = db.SourceStates(ctx, p, sShaA, []string{"pkg/f001.go", "none.go"})
	dCheck(t, err)
	if states["pkg/f001.go"].State != source.StateDisabled || states["none.go"].State != source.StateDisabled {
		t.Errorf("disabled: %+v", states)
	}
}
