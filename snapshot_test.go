package plumb

import "testing"

func TestSnapshotMeasurement(t *testing.T) {
	for _, m := range []int64{SnapshotUnmeasured, SnapshotMeasured, SnapshotHistory} {
		var s Snapshot
		s.SetMeasurement(m)
		if int64(s.Measurement()) != m {
			t.Errorf("measurement %d came back %d (%+v)", m, s.Measurement(), s)
		}
	}
	if s := (Snapshot{Measured: true, History: true}); s.Measurement() != SnapshotMeasured {
		t.Errorf("the current snapshot: %d", s.Measurement())
	}
}
