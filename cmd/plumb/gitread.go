package main

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

	"github.com/plumbhq/plumb/analyze"
)

// gitStore reads commits, trees and blobs of a repository with the git
// binary, never touching its work tree or index: git log for the
// first-parent history, git ls-tree for a commit's files, and one long-lived
// git cat-file --batch for the contents (docs/architecture.md says why git
// and not go-git).
type gitStore struct {
	dir string

	mu  sync.Mutex // one request at a time on the cat-file pipe
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// gitCommit is one commit of the first-parent history.
type gitCommit struct {
	SHA  string
	Time time.Time // committer time
}

// openGitStore starts git cat-file in dir.
func openGitStore(dir string) (*gitStore, error) {
	g := &gitStore{dir: dir}
	g.cmd = exec.Command("git", "-C", dir, "cat-file", "--batch")
	in, err := g.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := g.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	g.cmd.Stderr = &stderr
	if err := g.cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %v", err)
	}
	g.in, g.out = in, bufio.NewReaderSize(out, 256<<10)
	return g, nil
}

// close stops git cat-file.
func (g *gitStore) close() {
	g.in.Close()
	_ = g.cmd.Wait()
}

// git runs one git command in the repository and returns its output.
func (g *gitStore) git(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.dir}, args...)...)
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

// object reads an object's content by name (a blob id, or REV:PATH); ok is
// false when there is no such object.
func (g *gitStore) object(name string) (b []byte, ok bool, err error) {
	if strings.ContainsAny(name, "\n\x00") {
		return nil, false, fmt.Errorf("bad object name %q", name)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, err := io.WriteString(g.in, name+"\n"); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	head, err := g.out.ReadString('\n')
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
	if _, err := io.ReadFull(g.out, b); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	return b[:size], f[1] == "blob", nil
}

// firstParents lists the commits reached from rev by first parents, newest
// first, with their committer times.
func (g *gitStore) firstParents(ctx context.Context, rev string) ([]gitCommit, error) {
	out, err := g.git(ctx, "log", "--first-parent", "--format=%H %ct", rev, "--")
	if err != nil {
		return nil, err
	}
	var list []gitCommit
	for line := range strings.Lines(string(out)) {
		sha, ts, ok := strings.Cut(strings.TrimSpace(line), " ")
		sec, err := strconv.ParseInt(ts, 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("git log: unexpected line %q", line)
		}
		list = append(list, gitCommit{SHA: sha, Time: time.Unix(sec, 0).UTC()})
	}
	return list, nil
}

// tree lists the regular files of a commit below prefix ("" or "dir/"),
// with paths relative to prefix (symbolic links and submodules are left
// out, as a walk of a checkout leaves them out).
func (g *gitStore) tree(ctx context.Context, commit, prefix string) ([]analyze.TreeFile, error) {
	out, err := g.git(ctx, "ls-tree", "-r", "-z", "-l", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	var files []analyze.TreeFile
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
		files = append(files, analyze.TreeFile{Path: p[len(prefix):], ID: f[2], Size: size})
	}
	return files, nil
}

// readerOf reads the files of one tree by their blob ids.
func (g *gitStore) readerOf(files []analyze.TreeFile) func(rel string) ([]byte, error) {
	ids := make(map[string]string, len(files))
	for _, f := range files {
		ids[f.Path] = f.ID
	}
	return func(rel string) ([]byte, error) {
		id, ok := ids[rel]
		if !ok {
			return nil, errors.New("not in the commit's tree")
		}
		b, found, err := g.object(id)
		if err == nil && !found {
			err = fmt.Errorf("blob %s is missing", id)
		}
		return b, err
	}
}
