package admin_test

import (
	"strings"
	"testing"

	"github.com/plumbhq/plumb/admin"
	"github.com/plumbhq/plumb/api/apiv1"
)

// TestUploadTokenRows: the API's upload tokens print as the operator's
// listing does, "-" for a token without a creator; a time that is not
// RFC 3339 is an error naming the token and the field. Times print in UTC,
// whatever offset the server wrote.
func TestUploadTokenRows(t *testing.T) {
	used, revoked := "2026-03-02T10:00:00+02:00", "2026-03-03T09:30:00Z"
	rows, err := admin.UploadTokenRows([]apiv1.UploadToken{
		{ID: "t1", Name: "ci", CreatedBy: "alice", CreatedAt: "2026-03-01T07:00:00-05:00", LastUsedAt: &used, RevokedAt: &revoked},
		{ID: "t2", Name: "nightly", CreatedAt: "2026-03-04T00:00:00Z"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := admin.PrintTokens(&b, rows); err != nil {
		t.Fatal(err)
	}
	want := "ID  NAME     CREATED BY  CREATED               LAST USED             REVOKED\n" +
		"t1  ci       alice       2026-03-01T12:00:00Z  2026-03-02T08:00:00Z  2026-03-03T09:30:00Z\n" +
		"t2  nightly  -           2026-03-04T00:00:00Z  -                     -\n"
	if b.String() != want {
		t.Errorf("listing:\n%s\nwant:\n%s", b.String(), want)
	}
	bad := "yesterday"
	_, err = admin.UploadTokenRows([]apiv1.UploadToken{{ID: "t3", CreatedAt: "2026-03-01T12:00:00Z", RevokedAt: &bad}})
	if err == nil || err.Error() != `token t3: revokedAt "yesterday" is not an RFC 3339 time` {
		t.Errorf("bad revokedAt: %v", err)
	}
}
