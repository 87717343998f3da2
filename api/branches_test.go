package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// Branch data through the ingest endpoint: an LCOV report's BRDA records
// are stored (the file page shows them, web tests), the v1 file coverage
// answer stays hits only, and a malformed BRDA is a 400 naming the report
// line, nothing stored.
func TestIngestCoverageBranches(t *testing.T) {
	w := newIngWorld(t)
	q := ingQuery("commitSha", ingSha, "branch", "main")
	report := "SF:src/a.c\nDA:1,2\nDA:2,0\nBRDA:1,0,0,1\nBRDA:1,0,1,-\nend_of_record\n"
	w.postCoverage(t, w.Upload, q, nil, report).wantStatus(t, http.StatusCreated)
	r := w.get(t, "/gh/acme/projects/web/coverage/file?reference="+ingSha+"&path=src/a.c", w.Alice).wantStatus(t, http.StatusOK)
	if body := string(r.Body); strings.Contains(body, "branch") || !strings.Contains(body, `"hits":[2,0]`) {
		t.Errorf("v1 file coverage answer %s: want hits only, [2,0]", body)
	}
	_, files, err := w.DB.StoredFileCoverage(t.Context(), w.Web.ID, ingSha, "src/a.c")
	check(t, err)
	if len(files) != 1 || len(files[0].Branches) != 1 || files[0].Branches[0].Total != 2 || files[0].Branches[0].Covered != 1 {
		t.Errorf("stored branches %+v, want line 1: 1 of 2", files)
	}

	bad := ingQuery("commitSha", "bcdef0123456789abcdef0123456789abcdef012", "branch", "main")
	w.postCoverage(t, w.Upload, bad, nil, "SF:src/b.c\nDA:1,1\nBRDA:1,0,0,yes\nend_of_record\n").
		wantError(t, http.StatusBadRequest, `lcov report at line 3: expected BRDA:<line>,<block>,<branch>,<taken> with taken "-" or a count of at least 0, got "yes"`)
	w.get(t, "/gh/acme/projects/web/coverage/file?reference=bcdef0123456789abcdef0123456789abcdef012&path=src/b.c", w.Alice).
		wantError(t, http.StatusNotFound, "has no coverage")
}
