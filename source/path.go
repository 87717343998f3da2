package source

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
)

// MaxPathLen is the longest path a source may have, in bytes.
const MaxPathLen = 4096

// ValidatePath checks the path of a file whose source is kept: a
// repository-relative, slash-separated path in clean form, valid UTF-8,
// without NUL, a leading "/", a ".." or "." element, an empty element or a
// trailing "/", at most MaxPathLen bytes. It returns an EINVALID
// *plumb.Error naming the path (quoted, so that what it holds is visible).
func ValidatePath(p string) error {
	bad := func(why string) error {
		return plumb.Errorf(plumb.EINVALID, "source path %q %s", p, why)
	}
	switch {
	case p == "":
		return plumb.Errorf(plumb.EINVALID, "a source path is empty")
	case len(p) > MaxPathLen:
		return plumb.Errorf(plumb.EINVALID, "a source path is longer than %d bytes", MaxPathLen)
	case !utf8.ValidString(p):
		return bad("is not valid UTF-8")
	case strings.IndexByte(p, 0) >= 0:
		return bad("holds a NUL byte")
	case strings.HasPrefix(p, "/"):
		return bad("starts with /: paths are relative to the repository's root")
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == ".." || elem == "." {
			return bad(`has a "` + elem + `" element`)
		}
	}
	if path.Clean(p) != p {
		return bad("is not in clean form (no \".\" or empty element, no trailing /)")
	}
	return nil
}
