//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package dblock

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

func tryLock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return errLocked
		default:
			return err
		}
	}
}

func unlock(f *os.File) { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// OpenBy says which other process has the SQLite database at path
// open, from SQLite's own locks: every connection of a database in WAL mode
// holds a read lock on the database file and on its -shm file for as long
// as it is open (a rollback-journal connection, while it reads or writes).
// It returns "" when no other process does. A process's own locks are not
// seen (POSIX locks never conflict within a process).
func OpenBy(path string) string {
	for _, p := range []string{path + "-shm", path} {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		lk := unix.Flock_t{Type: unix.F_WRLCK} // the whole file
		err = unix.FcntlFlock(f.Fd(), unix.F_GETLK, &lk)
		f.Close()
		if err == nil && lk.Type != unix.F_UNLCK {
			return describePid(int(lk.Pid))
		}
	}
	return ""
}

// describePid is "pid N", with its command line where /proc has it.
func describePid(pid int) string {
	s := "pid " + strconv.Itoa(pid)
	if pid <= 0 {
		return "another process"
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return s
	}
	args := strings.Fields(strings.ReplaceAll(strings.TrimRight(string(b), "\x00"), "\x00", " "))
	if len(args) > 8 {
		args = append(args[:8], "…")
	}
	return s + " (" + strings.Join(args, " ") + ")"
}
