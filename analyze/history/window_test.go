package history

import (
	"testing"
	"time"
)

// window is the three options Window reads.
type window struct{ History, Since, Every string }

func TestWindow(t *testing.T) {
	now := time.Date(2026, 3, 15, 10, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		flags window
		start string
		every string
	}{
		{window{History: "1y"}, "2025-03-15T10:30:00Z", "week"},
		{window{History: "52w", Every: "day"}, "2025-03-16T10:30:00Z", "day"},
		{window{History: "90d"}, "2025-12-15T10:30:00Z", "week"},
		{window{History: "6m", Every: "month"}, "2025-09-15T10:30:00Z", "month"},
		{window{History: "2 years"}, "2024-03-15T10:30:00Z", "week"},
		{window{Since: "2025-01-01"}, "2025-01-01T00:00:00Z", "week"},
		{window{Since: "2025-01-01T08:00:00+02:00"}, "2025-01-01T06:00:00Z", "week"},
	} {
		start, every, err := Window(c.flags.History, c.flags.Since, c.flags.Every, now)
		if err != nil || start.Format(time.RFC3339) != c.start || every != c.every {
			t.Errorf("%+v: %s %s %v, want %s %s", c.flags, start.Format(time.RFC3339), every, err, c.start, c.every)
		}
	}
	for _, bad := range []window{
		{History: "1h"}, {History: "0d"}, {History: "y"}, {History: "1y", Since: "2025-01-01"},
		{Since: "yesterday"}, {Since: "2027-01-01"}, {History: "1y", Every: "year"},
	} {
		if _, _, err := Window(bad.History, bad.Since, bad.Every, now); err == nil {
			t.Errorf("%+v: err %v, want an error", bad, err)
		}
	}
}
