//go:build unix

package analyze

import (
	"os"
	"syscall"
)

// readInto reads a file into buf (from its start), growing it as needed,
// as os.ReadFile does into a new slice; size is the walk's size of the
// file, a hint for the buffer's capacity.
//
// It calls open, read and close itself: os.Open would also register the
// file with the runtime's poller (an fcntl and an epoll_ctl that fails
// for a regular file) and os.ReadFile would stat it again, together twice
// the system calls of reading a small file (C headers are mostly small).
// Errors are those os.Open and os.File.Read return.
func readInto(buf []byte, name string, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf, &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, &os.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
