// Package gitrepo reads a git repository with the git binary, never
// touching its work tree or index: one-shot commands (Try, Output), and a
// Repo that reads the first-parent history (git log), a commit's files
// (git ls-tree) and their contents through one long-lived
// git cat-file --batch. docs/architecture.md says why the git binary and not
// go-git.
//
// It imports nothing of Plumb's: CI detection (package cienv) and the
// history replay of plumb analyze (package analyze/history) use it.
package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TryTimeout bounds each command Try runs.
var TryTimeout = 5 * time.Second

// Try runs a git command in dir ("" for the current directory) and returns
// its trimmed output, or "" if git is missing, dir is not a checkout, or the
// command fails or outlasts TryTimeout: for questions whose answer is
// optional.
func Try(dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), TryTimeout)
	defer cancel()
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Output runs one git command in dir and returns its output; the error
// carries git's own message when it printed one.
func Output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %v", args[0], err)
	}
	return out, nil
}

// Repo reads commits, trees and blobs of the repository in one directory.
// Its methods may be called from several goroutines.
type Repo struct {
	dir string

	mu  sync.Mutex // one request at a time on the cat-file pipe
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// Commit is one commit of the first-parent history.
type Commit struct {
	SHA  string
	Time time.Time // committer time, UTC
}

// File is a regular file of a commit's tree.
type File struct {
	Path string // relative to the prefix the tree was listed below
	ID   string // the blob id
	Size int64
}

// Open starts git cat-file in dir; Close stops it.
func Open(dir string) (*Repo, error) {
	r := &Repo{dir: dir}
	r.cmd = exec.Command("git", "-C", dir, "cat-file", "--batch")
	in, err := r.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	r.cmd.Stderr = &stderr
	if err := r.cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %v", err)
	}
	r.in, r.out = in, bufio.NewReaderSize(out, 256<<10)
	return r, nil
}

// Close stops git cat-file.
func (r *Repo) Close() {
	r.in.Close()
	_ = r.cmd.Wait()
}

// Git runs one git command in the repository and returns its output.
func (r *Repo) Git(ctx context.Context, args ...string) ([]byte, error) {
	return Output(ctx, r.dir, args...)
}

// Object reads an object's content by name (a blob id, or REV:PATH); found
// is false when there is no such blob.
func (r *Repo) Object(name string) (b []byte, found bool, err error) {
	if strings.ContainsAny(name, "\n\x00") {
		return nil, false, fmt.Errorf("bad object name %q", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := io.WriteString(r.in, name+"\n"); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	head, err := r.out.ReadString('\n')
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	f := strings.Fields(head)
	if len(f) == 2 && f[1] == "missing" || len(f) >= 2 && f[len(f)-1] == "ambiguous" {
		return nil, false, nil
	}
	if len(f) != 3 {
		return nil, false, fmt.Errorf("git cat-file: unexpected answer %q", head)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: unexpected answer %q", head)
	}
	b = make([]byte, size+1) // the content and a newline
	if _, err := io.ReadFull(r.out, b); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	return b[:size], f[1] == "blob", nil
}

// FirstParents lists the commits reached from rev by first parents, newest
// first, with their committer times.
func (r *Repo) FirstParents(ctx context.Context, rev string) ([]Commit, error) {
	out, err := r.Git(ctx, "log", "--first-parent", "--format=%H %ct", rev, "--")
	if err != nil {
		return nil, err
	}
	var list []Commit
	for line := range strings.Lines(string(out)) {
		sha, ts, ok := strings.Cut(strings.TrimSpace(line), " ")
		sec, err := strconv.ParseInt(ts, 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("git log: unexpected line %q", line)
		}
		list = append(list, Commit{SHA: sha, Time: time.Unix(sec, 0).UTC()})
	}
	return list, nil
}

// Tree lists the regular files of a commit below prefix ("" or "dir/"),
// with paths relative to prefix (symbolic links and submodules are left
// out, as a walk of a checkout leaves them out).
func (r *Repo) Tree(ctx context.Context, commit, prefix string) ([]File, error) {
	out, err := r.Git(ctx, "ls-tree", "-r", "-z", "-l", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	var files []File
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 {
			i = len(out)
		}
		entry := string(out[:i])
		out = out[min(i+1, len(out)):]
		meta, p, ok := strings.Cut(entry, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 {
			return nil, fmt.Errorf("git ls-tree: unexpected entry %q", entry)
		}
		if f[1] != "blob" || f[0] == "120000" || !strings.HasPrefix(p, prefix) {
			continue
		}
		size, _ := strconv.ParseInt(f[3], 10, 64)
		files = append(files, File{Path: p[len(prefix):], ID: f[2], Size: size})
	}
	return files, nil
}

// ReaderOf reads the files of one tree by their paths.
func (r *Repo) ReaderOf(files []File) func(path string) ([]byte, error) {
	ids := make(map[string]string, len(files))
	for _, f := range files {
		ids[f.Path] = f.ID
	}
	return func(path string) ([]byte, error) {
		id, ok := ids[path]
		if !ok {
			return nil, errors.New("not in the commit's tree")
		}
		b, found, err := r.Object(id)
		if err == nil && !found {
			err = fmt.Errorf("blob %s is missing", id)
		}
		return b, err
	}
}
