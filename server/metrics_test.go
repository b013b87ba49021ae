package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/sqlgate/sqlgate/metrics"
)

// metricsServer starts a server with --metrics-listen and returns it.
func metricsServer(t *testing.T) *Server {
	t.Helper()
	srv, err := Start(context.Background(), Config{Listen: "127.0.0.1:0", MetricsListen: "127.0.0.1:0", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	})
	return srv
}

// scrape reads /metrics with the Prometheus text parser.
func scrape(t *testing.T, srv *Server) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + srv.MetricsAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value is the sum of a family's samples whose labels include want
// (counter, gauge, or a histogram's sample count).
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return 0
	}
	var sum float64
next:
	for _, m := range f.Metric {
		for k, v := range want {
			found := false
			for _, l := range m.Label {
				if l.GetName() == k && l.GetValue() == v {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

// TestMetricsMoveWithWorkload: a workload through pgx moves the counters
// by what it did, as a scrape parsed with the Prometheus text parser shows.
func TestMetricsMoveWithWorkload(t *testing.T) {
	srv := metricsServer(t)
	ctx := context.Background()
	before := scrape(t, srv)
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const inserts = 7
	for _, s := range []string{"CREATE TABLE m (id INT PRIMARY KEY, v TEXT)", "BEGIN"} {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < inserts; i++ {
		if _, err := conn.Exec(ctx, "INSERT INTO m VALUES ($1, 'v')", i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.Exec(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(ctx, "SELECT id FROM m")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	if _, err := conn.Exec(ctx, "SELECT no_such_column FROM m"); err == nil {
		t.Fatal("bad column accepted")
	}
	if _, err := conn.Exec(ctx, "SELECT 1/0"); err == nil {
		t.Fatal("division by zero accepted")
	}
	after := scrape(t, srv)
	delta := func(name string, labels map[string]string) float64 {
		return value(after, name, labels) - value(before, name, labels)
	}
	checks := []struct {
		name   string
		labels map[string]string
		min    float64
	}{
		{metrics.ConnectionsTotal, nil, 1},
		{metrics.Connections, nil, 1},
		{metrics.Statements, map[string]string{"kind": "insert", "outcome": "00"}, inserts},
		{metrics.Statements, map[string]string{"kind": "select", "outcome": "22"}, 1},
		{metrics.StatementSeconds, map[string]string{"kind": "insert"}, inserts},
		{metrics.RowsWritten, nil, inserts},
		{metrics.RowsRead, nil, float64(n)},
		{metrics.BytesSent, nil, 1},
		{metrics.Errors, map[string]string{"class": "42"}, 1},
		{metrics.Errors, map[string]string{"class": "22"}, 1},
		{metrics.Commits, map[string]string{"outcome": "commit"}, 1},
		{metrics.StoreSyncs, nil, 1},
		{metrics.StoreSyncSeconds, nil, 1},
	}
	for _, c := range checks {
		if d := delta(c.name, c.labels); d < c.min {
			t.Errorf("%s%v moved by %v, want at least %v", c.name, c.labels, d, c.min)
		}
	}
	if n != inserts {
		t.Errorf("read %d rows", n)
	}
	// Nothing written, nothing more counted.
	if d := delta(metrics.RowsWritten, nil); d != inserts {
		t.Errorf("rows written moved by %v, want %d", d, inserts)
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get("http://" + srv.MetricsAddr() + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
}

// promIdent finds the metric names in a PromQL expression: identifiers of
// sqlgate's, the Go runtime's and the process's metrics.
var promIdent = regexp.MustCompile(`\b(?:sqlgate|go|process)_[a-zA-Z0-9_:]*`)

// TestDashboardMetricsExist: every metric the Grafana dashboard queries
// (deploy/grafana/sqlgate.json) is in a scrape of a running server.
func TestDashboardMetricsExist(t *testing.T) {
	raw, err := os.ReadFile("../deploy/grafana/sqlgate.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Query any `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}
	srv := metricsServer(t)
	// A write and an error, so that every vector has a sample.
	conn, err := pgx.Connect(context.Background(), srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "CREATE TABLE d (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), "SELECT nope FROM d"); err == nil {
		t.Fatal("bad column accepted")
	}
	fams := scrape(t, srv)
	exists := func(name string) bool {
		if fams[name] != nil {
			return true
		}
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(name, suffix); ok && fams[base] != nil && fams[base].GetType() == dto.MetricType_HISTOGRAM {
				return true
			}
		}
		return false
	}
	var exprs []string
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q queries nothing", p.Title)
		}
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	for _, v := range dash.Templating.List {
		if s, ok := v.Query.(string); ok {
			exprs = append(exprs, s)
		}
	}
	seen := 0
	for _, e := range exprs {
		names := promIdent.FindAllString(e, -1)
		if len(names) == 0 && strings.Contains(e, "(") {
			t.Errorf("expression names no metric: %s", e)
		}
		for _, n := range names {
			seen++
			if !exists(n) {
				t.Errorf("the dashboard queries %s, which a scrape does not show (in %s)", n, e)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no metric found in the dashboard")
	}
	// And the other way: every metric sqlgate declares is in the scrape.
	for _, n := range metrics.Names() {
		if !exists(n) {
			t.Errorf("metrics.Names lists %s, which a scrape does not show", n)
		}
	}
}
