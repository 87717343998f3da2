package dataset

// Sources in the dataset (docs/sources.md, docs/dataset.md): each kept
// content once per project (SourceBlob), and per commit the state of each
// file (SourceCommit). Both lists are left out of a document without
// sources, and out of an export made --without-source.

import (
	"encoding/base64"
	"fmt"
	"sort"
	"time"

	"github.com/plumbhq/plumb/source"
)

// SourceBlob is one content kept for a project, under its git blob id. An
// export gives it as Zstd: the standard base64 of the zstd frame as kept,
// so a backup is as small as the store. A hand-written document (a fixture,
// the demo) may give Content instead, the text itself; exactly one of the
// two is set.
type SourceBlob struct {
	ProjectID string    `json:"projectId"`
	BlobID    string    `json:"blobId"`
	Origin    string    `json:"origin"` // upload, github or gitlab
	CreatedAt time.Time `json:"createdAt"`
	Size      int64     `json:"size"` // the content's length, uncompressed
	Zstd      string    `json:"zstd,omitempty"`
	Content   string    `json:"content,omitempty"`
}

// Bytes returns the blob's content: Content, or Zstd decoded and
// decompressed.
func (b *SourceBlob) Bytes() ([]byte, error) {
	if b.Zstd == "" {
		return []byte(b.Content), nil
	}
	z, err := base64.StdEncoding.DecodeString(b.Zstd)
	if err != nil {
		return nil, fmt.Errorf("zstd is not base64: %v", err)
	}
	return source.Decompress(z)
}

// Frame returns the blob's content as the zstd frame the store keeps: Zstd
// decoded, or Content compressed.
func (b *SourceBlob) Frame() ([]byte, error) {
	if b.Zstd == "" {
		return source.Compress([]byte(b.Content)), nil
	}
	return base64.StdEncoding.DecodeString(b.Zstd)
}

// SourceCommit is a commit with sources: the state of each of its files.
type SourceCommit struct {
	ProjectID string       `json:"projectId"`
	CommitSHA string       `json:"commitSha"`
	CreatedAt time.Time    `json:"createdAt"`
	Files     []SourceFile `json:"files"`
}

// SourceFile is one file of a commit with sources: state ok with the blob
// id of its content, or too_large or binary (no blob id); Size is the
// content's length. FetchedFrom and FetchedAt, both or neither: the file was
// fetched from the project's code host (github or gitlab) on a first view,
// at that time; neither for an upload.
type SourceFile struct {
	Path        string     `json:"path"`
	State       string     `json:"state"`
	BlobID      string     `json:"blobId,omitempty"`
	Size        int64      `json:"size"`
	FetchedFrom string     `json:"fetchedFrom,omitempty"`
	FetchedAt   *time.Time `json:"fetchedAt,omitempty"`
}

// SourceCommitHead is the part of a SourceCommit before its files.
type SourceCommitHead struct {
	ProjectID string    `json:"projectId"`
	CommitSHA string    `json:"commitSha"`
	CreatedAt time.Time `json:"createdAt"`
}

// WriteSourceCommit writes one commit with sources as a record of the
// current list.
func (w *Writer) WriteSourceCommit(c *SourceCommit) {
	w.OpenRecord(SourceCommitHead{ProjectID: c.ProjectID, CommitSHA: c.CommitSHA, CreatedAt: c.CreatedAt})
	w.OpenList("files", true)
	for i := range c.Files {
		w.Element(&c.Files[i])
	}
	w.CloseList()
	w.CloseRecord()
}

// checkSources checks the kept contents and the commits' file states: known
// projects; each content once per project, its blob id, length and origin
// those of its content; each commit once per project, its paths valid and
// unique, each file's state with the blob id (of a content of the same
// project, of the same length) it needs.
func (v *validator) checkSources(blobs []SourceBlob, commits []SourceCommit) {
	sizes := map[string]int64{} // project id NUL blob id → size
	for i := range blobs {
		b := &blobs[i]
		rec := fmt.Sprintf("sourceBlobs[%d] (blobId %s)", i, b.BlobID)
		v.projects.ref(rec, "projectId", b.ProjectID)
		if !source.ValidBlobID(b.BlobID) {
			v.add(rec, "blobId %q is not a git blob id (40 lowercase hexadecimal characters)", b.BlobID)
		}
		key := b.ProjectID + "\x00" + b.BlobID
		if _, dup := sizes[key]; dup {
			v.add(rec, "blobId is also the blobId of an earlier content of the project; a content is kept once per project")
		}
		sizes[key] = b.Size
		if !source.ValidOrigin(b.Origin) {
			v.add(rec, "origin %q is not one of upload, github, gitlab", b.Origin)
		}
		v.requireTime(rec, "createdAt", b.CreatedAt)
		v.checkBlobContent(rec, b)
	}
	kept := seen{}
	for i, c := range commits {
		rec := fmt.Sprintf("sourceCommits[%d] (commitSha %s)", i, c.CommitSHA)
		v.projects.ref(rec, "projectId", c.ProjectID)
		if v.requireText(rec, "commitSha", c.CommitSHA) {
			if j, dup := kept.first(c.ProjectID+"\x00"+c.CommitSHA, i); dup {
				v.add(rec, "commitSha is also the commitSha of sourceCommits[%d] of the same project", j)
			}
		}
		v.requireTime(rec, "createdAt", c.CreatedAt)
		paths := seen{}
		for j, f := range c.Files {
			frec := fmt.Sprintf("%s: files[%d]", rec, j)
			if err := source.ValidatePath(f.Path); err != nil {
				v.add(frec, "path %q is not a clean repository-relative path", f.Path)
			} else if k, dup := paths.first(f.Path, j); dup {
				v.add(frec, "path %q is also the path of files[%d]", f.Path, k)
			}
			v.checkSourceFile(frec, c.ProjectID, f, sizes)
			v.checkFetched(frec, f)
		}
	}
}

// checkBlobContent checks that a content has the blob id and length given.
func (v *validator) checkBlobContent(rec string, b *SourceBlob) {
	if (b.Zstd == "") == (b.Content == "") && !(b.Zstd == "" && b.Size == 0) {
		v.add(rec, "exactly one of zstd and content gives the content")
		return
	}
	content, err := b.Bytes()
	switch {
	case err != nil:
		v.add(rec, "zstd does not hold a content: %v", err)
	case int64(len(content)) != b.Size:
		v.add(rec, "size %d is not the content's length, %d", b.Size, len(content))
	case source.BlobID(content) != b.BlobID:
		v.add(rec, "blobId is not the content's blob id, %s", source.BlobID(content))
	}
}

// checkFetched checks a file's fetchedFrom and fetchedAt: both or neither,
// from a code host.
func (v *validator) checkFetched(frec string, f SourceFile) {
	switch {
	case (f.FetchedFrom == "") != (f.FetchedAt == nil):
		v.add(frec, "fetchedFrom and fetchedAt go together: give both (a file fetched from the code host) or neither (an upload)")
	case f.FetchedFrom != "" && (f.FetchedFrom == source.OriginUpload || !source.ValidOrigin(f.FetchedFrom)):
		v.add(frec, "fetchedFrom %q is not one of github, gitlab", f.FetchedFrom)
	case f.FetchedAt != nil:
		v.requireTime(frec, "fetchedAt", *f.FetchedAt)
	}
}

func (v *validator) checkSourceFile(frec, project string, f SourceFile, sizes map[string]int64) {
	switch f.State {
	case string(source.StateOK):
		size, ok := sizes[project+"\x00"+f.BlobID]
		if !ok {
			v.add(frec, "blobId %q is not the blobId of any of the project's sourceBlobs", f.BlobID)
		} else if size != f.Size {
			v.add(frec, "size %d is not the size of its content, %d", f.Size, size)
		}
	case string(source.StateTooLarge), string(source.StateBinary):
		if f.BlobID != "" {
			v.add(frec, "a %s file has no blobId", f.State)
		}
		if f.Size < 0 {
			v.add(frec, "size %d is negative", f.Size)
		}
	default:
		v.add(frec, "state %q is not one of ok, too_large, binary", f.State)
	}
}

// canonicalSources orders the contents by project (in project order) and
// blob id, each given as zstd; the commits by project and commit, each
// commit's files by path.
func canonicalSources(blobs []SourceBlob, commits []SourceCommit, projectOrder map[string]int) ([]SourceBlob, []SourceCommit) {
	if len(blobs) == 0 && len(commits) == 0 {
		return nil, nil // a document without sources has neither list
	}
	outBlobs := cloneSlice(blobs)
	for i := range outBlobs {
		b := &outBlobs[i]
		b.CreatedAt = utc(b.CreatedAt)
		if b.Zstd == "" {
			b.Zstd, b.Content = base64.StdEncoding.EncodeToString(source.Compress([]byte(b.Content))), ""
		}
	}
	sortByParent(outBlobs, projectOrder, func(b *SourceBlob) string { return b.ProjectID }, func(a, b *SourceBlob) bool { return a.BlobID < b.BlobID })
	outCommits := cloneSlice(commits)
	for i := range outCommits {
		c := &outCommits[i]
		c.CreatedAt = utc(c.CreatedAt)
		c.Files = cloneSlice(c.Files)
		for j := range c.Files {
			if at := c.Files[j].FetchedAt; at != nil {
				u := utc(*at)
				c.Files[j].FetchedAt = &u
			}
		}
		sort.Slice(c.Files, func(a, b int) bool { return c.Files[a].Path < c.Files[b].Path })
	}
	sortByParent(outCommits, projectOrder, func(c *SourceCommit) string { return c.ProjectID },
		func(a, b *SourceCommit) bool { return a.CommitSHA < b.CommitSHA })
	return outBlobs, outCommits
}
