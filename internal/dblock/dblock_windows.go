//go:build windows

package dblock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// The locked byte lies far beyond the file's text: Windows locks are
// mandatory, and the text must stay readable for the message that names
// the holder.
const lockOffset = 1 << 30

func tryLock(f *os.File) error {
	ol := windows.Overlapped{Offset: lockOffset}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return errLocked
	}
	return err
}

func unlock(f *os.File) {
	ol := windows.Overlapped{Offset: lockOffset}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}

// OpenBy: on Windows a file another process has open cannot be
// removed, so the removal itself refuses; nothing to look up here.
func OpenBy(path string) string { return "" }
