package client

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Content is what an upload sends. Write writes it, anew for each attempt,
// reading any file through read so that the progress reports count its
// bytes; the client compresses what Write writes.
type Content struct {
	Name  string // for messages and progress: "cover.out"
	Size  int64  // the bytes Write reads through read, in all; 0 when unknown
	Write func(w io.Writer, read func(io.Reader) io.Reader) error
}

// File is the content of the file at path, read anew by each attempt. It
// refuses a directory and an empty file. Name is path.
func File(path string) (Content, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Content{}, err
	}
	if st.IsDir() {
		return Content{}, fmt.Errorf("%s is a directory", path)
	}
	if st.Size() == 0 {
		return Content{}, fmt.Errorf("%s is empty", path)
	}
	return Content{Name: path, Size: st.Size(), Write: func(w io.Writer, read func(io.Reader) io.Reader) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.CopyBuffer(w, read(f), make([]byte, 64<<10))
		return err
	}}, nil
}

// Bytes is content held in memory, named name.
func Bytes(name string, b []byte) Content {
	return Content{Name: name, Size: int64(len(b)), Write: func(w io.Writer, read func(io.Reader) io.Reader) error {
		_, err := io.Copy(w, read(bytes.NewReader(b)))
		return err
	}}
}
