// Package dblock is the lock of a SQLite database. plumb serve and plumb demo hold it for as
// long as they run, so that plumb demo never deletes a database a server is
// using, and no two servers share one SQLite file (docs/deploy.md). It is a
// lock file beside the database, <database>.lock, locked with flock
// (LockFileEx on Windows): the operating system releases it when the
// process ends, however it ends. While held, the file says who holds it.
package dblock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Lock is a held lock of a SQLite database.
type Lock struct {
	f        *os.File
	database string // the database's path
	command  string // "plumb serve", "plumb demo"
}

// errLocked is returned by tryLock when another process holds the lock.
var errLocked = errors.New("locked")

// Acquire takes the lock of the SQLite database at path for command,
// without waiting: when another process holds it, the error names that
// process (its pid, command and address) and says what to do.
func Acquire(path, command string) (*Lock, error) {
	lockPath := path + ".lock"
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o755); err != nil {
		return nil, fmt.Errorf("create database folder: %w", err)
	}
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, &InUseError{database: path, Holder: readHolder(lockPath)}
		}
		return nil, fmt.Errorf("lock %s (%s): %w", path, lockPath, err)
	}
	l := &Lock{f: f, database: path, command: command}
	l.write("")
	return l, nil
}

// SetAddr records the address the holder listens on.
func (l *Lock) SetAddr(addr string) { l.write(addr) }

func (l *Lock) write(addr string) {
	abs, err := filepath.Abs(l.database)
	if err != nil {
		abs = l.database
	}
	s := fmt.Sprintf("pid %d\ncommand %s\ndatabase %s\n", os.Getpid(), l.command, abs)
	if addr != "" {
		s += "address " + addr + "\n"
	}
	// Best effort: the lock is what protects the database; the text only
	// names its holder.
	_ = l.f.Truncate(0)
	_, _ = l.f.WriteAt([]byte(s), 0)
}

// Close empties the lock file and releases the lock.
func (l *Lock) Close() error {
	if l == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	unlock(l.f)
	return l.f.Close()
}

// Holder is what a lock file says about the process holding it.
type Holder struct {
	pid, command, address string
}

func (h Holder) String() string {
	if h.pid == "" {
		return "another process"
	}
	s := "pid " + h.pid
	switch {
	case h.command != "" && h.address != "":
		s += " (" + h.command + " on " + h.address + ")"
	case h.command != "":
		s += " (" + h.command + ")"
	}
	return s
}

func readHolder(lockPath string) Holder {
	var h Holder
	f, err := os.Open(lockPath)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		switch k {
		case "pid":
			h.pid = v
		case "command":
			h.command = v
		case "address":
			h.address = v
		}
	}
	return h
}

// HolderOf returns who holds the lock of the database at path, if anyone
// does (a lock file left by a process that ended holds nothing).
func HolderOf(path string) (Holder, bool) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR, 0)
	if err != nil {
		return Holder{}, false
	}
	defer f.Close()
	if err := tryLock(f); err == nil {
		unlock(f)
		return Holder{}, false
	} else if !errors.Is(err, errLocked) {
		return Holder{}, false
	}
	return readHolder(path + ".lock"), true
}

// InUseError: another process holds the database's lock.
type InUseError struct {
	database string
	Holder   Holder
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("database %s is in use by %s: stop that process first", e.database, e.Holder)
}
