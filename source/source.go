// Package source holds the rules for the file contents Plumb keeps (the
// sources a file page shows, docs/sources.md): a content's git blob id, its
// compression, the per-file limits, binary detection and the validation of
// a stored file's path. Pure code: it reads an io.Reader and nothing else.
package source

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"

	"github.com/plumbhq/plumb"
)

// State says what is kept of one file of one commit.
type State string

// The states of a file's source. Only StateOK has content; the others say
// why there is none, so a page can say it.
const (
	StateOK       State = "ok"        // the content is kept
	StateTooLarge State = "too_large" // larger than the per-file cap: not kept
	StateBinary   State = "binary"    // a binary file: not kept
	StateAbsent   State = "absent"    // nothing was sent or fetched for it
	StateDisabled State = "disabled"  // the project or the server refuses sources
)

// Origins of a kept content: sent with an upload, or fetched from a code host.
const (
	OriginUpload = "upload"
	OriginGitHub = "github"
	OriginGitLab = "gitlab"
)

// ValidOrigin reports whether o is one of the origins.
func ValidOrigin(o string) bool {
	return o == OriginUpload || o == OriginGitHub || o == OriginGitLab
}

// DefaultMaxFileSize is the per-file cap when none is configured: 1 MiB.
// MaxMaxFileSize is the largest cap a configuration may set: a kept content
// is read whole into memory while it is hashed and compressed.
const (
	DefaultMaxFileSize int64 = 1 << 20
	MaxMaxFileSize     int64 = 16 << 20
)

// Limits are the limits on what is kept.
type Limits struct {
	// MaxFileSize is the largest content kept, in bytes (0: the default);
	// a larger file is marked StateTooLarge.
	MaxFileSize int64
}

// Max returns the per-file cap in force.
func (l Limits) Max() int64 {
	if l.MaxFileSize <= 0 {
		return DefaultMaxFileSize
	}
	return l.MaxFileSize
}

// Validate checks the limits a configuration sets.
func (l Limits) Validate() error {
	if l.MaxFileSize < 0 || l.MaxFileSize > MaxMaxFileSize {
		return plumb.Errorf(plumb.EINVALID, "the per-file source cap %d is not between 1 and %d bytes (0: the default, %d)",
			l.MaxFileSize, MaxMaxFileSize, DefaultMaxFileSize)
	}
	return nil
}

// BlobID returns git's blob id of a content: the hex SHA-1 of
// "blob <length>\x00" followed by the content, as `git hash-object` prints it.
func BlobID(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// ValidBlobID reports whether id has a blob id's form: 40 lower-case hex digits.
func ValidBlobID(id string) bool {
	if len(id) != 40 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// File is one file's content read under the limits: with StateOK its
// content and blob id; with StateTooLarge or StateBinary neither (Size is
// the length read, for a too-large file the whole length of the reader).
type File struct {
	State   State
	BlobID  string
	Size    int64
	Content []byte
}

// Read reads one file's content from r under the limits, holding at most
// the cap (and one byte) in memory: a longer content is read to its end,
// counted and dropped. An error is the reader's.
func Read(r io.Reader, lim Limits) (File, error) {
	max := lim.Max()
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, max+1))
	if err != nil {
		return File{}, fmt.Errorf("read source: %w", err)
	}
	if n > max {
		rest, err := io.Copy(io.Discard, r)
		if err != nil {
			return File{}, fmt.Errorf("read source: %w", err)
		}
		return File{State: StateTooLarge, Size: n + rest}, nil
	}
	b := buf.Bytes()
	if IsBinary(b) {
		return File{State: StateBinary, Size: n}, nil
	}
	return File{State: StateOK, BlobID: BlobID(b), Size: n, Content: b}, nil
}
