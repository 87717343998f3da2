//go:build linux || darwin

package dblock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The lock of a SQLite database in one process: a second taker is refused
// with the holder's pid, command and address; once released, it is free
// again and the file names no one.
func TestDatabaseLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.db")
	l, err := Acquire(path, "plumb serve")
	if err != nil {
		t.Fatal(err)
	}
	l.SetAddr("127.0.0.1:9999")
	_, err = Acquire(path, "plumb demo")
	var inUse *InUseError
	want := fmt.Sprintf("pid %d (plumb serve on 127.0.0.1:9999)", os.Getpid())
	if !errors.As(err, &inUse) || inUse.Holder.String() != want || !strings.Contains(err.Error(), path) {
		t.Fatalf("second lock: %v, want an inUseError naming %s", err, want)
	}
	if h, ok := HolderOf(path); !ok || h.String() != want {
		t.Errorf("lockHolder while held: %v %v", h, ok)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if h, ok := HolderOf(path); ok {
		t.Errorf("lockHolder after Close: %v", h)
	}
	l2, err := Acquire(path, "plumb demo")
	if err != nil {
		t.Fatalf("lock after Close: %v", err)
	}
	l2.Close()
}
