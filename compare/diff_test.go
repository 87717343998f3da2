package compare

import (
	"strings"
	"testing"
)

func TestParseUnifiedDiffErrors(t *testing.T) {
	if _, err := ParseUnifiedDiff(strings.NewReader("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +z @@\n")); err == nil {
		t.Error("a bad hunk header is an error")
	}
}
