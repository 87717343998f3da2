package web

import (
	"strings"

	"github.com/plumbhq/plumb/analyze/cognitive"
	"github.com/plumbhq/plumb/analyze/lang"
)

// Source text as the file page shows it: highlighted by package
// web/highlight (one HTML fragment per line whose spans carry chroma's short
// class names, styled in web/static/style.css under .chroma; no inline
// style), and the functions the analyzer scores, with their cognitive
// complexity.

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

// functionsAt scores the functions of a file as the analyzer does (package
// cognitive, the language package lang detects), by the line they start
// on; nil for a language without a scorer or a file that does not parse.
func functionsAt(path string, content []byte) map[int][]cognitive.Function {
	l := lang.Detect(path, content[:min(len(content), 4096)])
	if l == nil {
		return nil
	}
	fns, err := cognitive.Analyze(l.Name, content)
	if err != nil || len(fns) == 0 {
		return nil
	}
	out := make(map[int][]cognitive.Function, len(fns))
	for _, f := range fns {
		out[f.Line] = append(out[f.Line], f)
	}
	return out
}
