package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// The metrics project (100,000 files, 3 years of daily snapshots, 50
// components) is generated once into $PLUMB_BENCH_DIR and reused.
// PLUMB_BENCH_FILES and PLUMB_BENCH_DAYS set smaller sizes.

var metricsData benchDataset[MetricsFixture]

func metricsServer(b *testing.B) (http.Handler, *sqlstore.DB, MetricsFixture) {
	o := MetricsOptions{Files: envInt("PLUMB_BENCH_FILES"), Days: envInt("PLUMB_BENCH_DAYS")}
	h, db, fix, err := metricsData.load(fmt.Sprintf("metrics-%d-%d", o.Files, o.Days), func(ctx context.Context, db *sqlstore.DB, _ http.Handler) (MetricsFixture, error) {
		return GenerateMetrics(ctx, db, o, time.Now())
	})
	if err != nil {
		b.Fatal(err)
	}
	return h, db, fix
}

// getOK asks h for path with token and requires a 200.
func getOK(b *testing.B, h http.Handler, token, path string) {
	r := httptest.NewRequest("GET", path, nil)
	r.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != 200 {
		b.Fatalf("%s: %d %.300s", path, rec.Code, rec.Body.String())
	}
}

func benchGet(b *testing.B, h http.Handler, token, path string) {
	b.Helper()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		getOK(b, h, token, path)
	}
}

func BenchmarkComponentList(b *testing.B) {
	h, _, fix := metricsServer(b)
	benchGet(b, h, fix.Token, "/gh/bench/projects/huge/components")
}

func BenchmarkComponentMetrics(b *testing.B) {
	h, _, fix := metricsServer(b)
	benchGet(b, h, fix.Token, "/gh/bench/projects/huge/components/component-07/metrics")
}

// BenchmarkComponentSeries3YearsDaily reads every metric of a component over
// three years, one point a day.
func BenchmarkComponentSeries3YearsDaily(b *testing.B) {
	h, _, fix := metricsServer(b)
	from := time.Now().UTC().AddDate(-3, 0, 0).Format("2006-01-02")
	benchGet(b, h, fix.Token, "/gh/bench/projects/huge/components/component-07/metrics/series?interval=day&from="+from)
}

func BenchmarkFileCoverage20000Lines(b *testing.B) {
	h, _, fix := metricsServer(b)
	benchGet(b, h, fix.Token, "/gh/bench/projects/huge/coverage/file?reference=refs/heads/main&path="+fix.BigFile)
}

// BenchmarkComponentCreate creates a component over a tenth of the files,
// backfilling three years of history, then deletes it.
func BenchmarkComponentCreate(b *testing.B) {
	_, db, _ := metricsServer(b)
	ctx := context.Background()
	w, _, err := db.FindWorkspace(ctx, mustUser(b, db).ID, "bench")
	if err != nil {
		b.Fatal(err)
	}
	p, err := db.FindProject(ctx, w.ID, "huge")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := db.CreateComponent(ctx, plumb.Component{ProjectID: p.ID, Name: fmt.Sprintf("bench-%d", i),
			PathGlobs: []string{"svc1*/*", "*pkg00*"}, CreatorID: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if !strings.HasPrefix(c.Name, "bench-") {
			b.Fatal(c.Name)
		}
		if err := db.DeleteComponent(ctx, p.ID, c.ID); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

func mustUser(b *testing.B, db *sqlstore.DB) plumb.User {
	u, err := db.FindUser(context.Background(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	return u
}

// BenchmarkProjectMetrics reads the twelve metrics of the whole project.
func BenchmarkProjectMetrics(b *testing.B) {
	h, _, fix := metricsServer(b)
	benchGetP50(b, h, fix.Token, "/gh/bench/projects/huge/metrics")
}

// BenchmarkProjectSeries3YearsDaily reads every metric of the whole project
// (100,000 files) over three years, one point a day.
func BenchmarkProjectSeries3YearsDaily(b *testing.B) {
	h, _, fix := metricsServer(b)
	from := time.Now().UTC().AddDate(-3, 0, 0).Format("2006-01-02")
	benchGetP50(b, h, fix.Token, "/gh/bench/projects/huge/metrics/series?interval=day&from="+from)
}

// benchGetP50 is benchGet that also reports the median request time
// (p50-ms) and the slowest (max-ms).
func benchGetP50(b *testing.B, h http.Handler, token, path string) {
	b.Helper()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		getOK(b, h, token, path)
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
}
