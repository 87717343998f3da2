package coverage

import (
	"os"
	"strings"
)

// ModulePathOf returns the module path declared by a go.mod file, or "" when
// there is no such file or line: the Options.ModulePath of a Go cover
// profile measured in that module.
func ModulePathOf(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
