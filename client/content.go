package client

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// TarFiles is a tar archive of files of the directory dir, read anew by
// each attempt and streamed (one file in memory at a time, never the
// archive): each file at dir/path is stored under name(path), or under path
// when name is nil; a file name maps to "" is left out. Paths use forward slashes. A file that changed size
// while it was read fails the attempt.
func TarFiles(dir string, paths []string, name func(string) string) Content {
	var size int64
	for _, p := range paths {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
			size += st.Size()
		}
	}
	return Content{Name: "sources", Size: size, Write: func(w io.Writer, read func(io.Reader) io.Reader) error {
		tw := tar.NewWriter(w)
		for _, p := range paths {
			if err := tarFile(tw, dir, p, name, read); err != nil {
				return err
			}
		}
		return tw.Close()
	}}
}

func tarFile(tw *tar.Writer, dir, p string, name func(string) string, read func(io.Reader) io.Reader) error {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return nil
	}
	n := p
	if name != nil {
		if n = name(p); n == "" {
			return nil
		}
	}
	if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: st.Size(), ModTime: st.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := io.CopyN(tw, read(f), st.Size()); err != nil {
		return fmt.Errorf("%s changed while it was read: %w", p, err)
	}
	return nil
}
