package sqltest

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

type ttyBuffer struct{ *bytes.Buffer }

func (ttyBuffer) Close() error { return nil }

// A skipped backend is noted once per go test run on the terminal, however
// many packages skip it; without a terminal, on stdout.
func TestNoteSkippedOncePerRun(t *testing.T) {
	oldTTY, oldDir, oldParent := openTTY, noteDir, parentID
	t.Cleanup(func() { openTTY, noteDir, parentID = oldTTY, oldDir, oldParent })
	var tty bytes.Buffer
	dir := t.TempDir()
	openTTY = func() (io.WriteCloser, error) { return ttyBuffer{&tty}, nil }
	noteDir = func() string { return dir }
	parentID = func() int { return 4242 }

	for i := 0; i < 3; i++ { // three packages of one run
		NoteSkipped("PostgreSQL", "set X")
		NoteSkipped("Redis", "set Y")
	}
	want := "note: PostgreSQL tests skipped: set X\nnote: Redis tests skipped: set Y\n"
	if tty.String() != want {
		t.Errorf("terminal got %q, want %q", tty.String(), want)
	}
	parentID = func() int { return 4243 } // the next go test run says it again
	NoteSkipped("Redis", "set Y")
	if tty.String() != want+"note: Redis tests skipped: set Y\n" {
		t.Errorf("second run: %q", tty.String())
	}
	openTTY = func() (io.WriteCloser, error) { return nil, errors.New("no terminal") }
	NoteSkipped("Redis", "set Y") // goes to stdout: shown with -v
}
