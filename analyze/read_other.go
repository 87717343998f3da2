//go:build !unix

package analyze

import (
	"io"
	"os"
)

// readInto reads a file into buf (from its start), growing it as needed,
// as os.ReadFile does into a new slice; size is the walk's size of the
// file, a hint for the buffer's capacity.
func readInto(buf []byte, name string, size int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
