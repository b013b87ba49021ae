package metrics

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// CacheStats is implemented by a store with a block cache (the embedded
// store): its cumulative hits and misses.
type CacheStats interface {
	BlockCacheStats() (hits, misses int64)
}

// Options configure Metrics.
type Options struct {
	// SpillDir is where queries spill; its files are counted at scrape.
	SpillDir string
	// Cache, when set, reports the block cache's hits and misses.
	Cache CacheStats
}

// Metrics is one server's metrics and their registry.
type Metrics struct {
	// Registry holds every collector; Handler serves it.
	Registry *prometheus.Registry

	connections      prometheus.Gauge
	connectionsTotal prometheus.Counter
	statements       *prometheus.CounterVec
	latency          *prometheus.HistogramVec
	rowsRead         prometheus.Counter
	rowsWritten      prometheus.Counter
	bytesSent        prometheus.Counter
	copyBytes        *prometheus.CounterVec
	errors           *prometheus.CounterVec
	commits          *prometheus.CounterVec
	syncs            *prometheus.CounterVec
	syncLatency      *prometheus.HistogramVec
	scrape           *scrapeCollector
}

// SetCache sets the store whose block cache is reported; call it before
// the metrics are served (the store opens after New, since its syncs are
// timed from the start).
func (m *Metrics) SetCache(cs CacheStats) { m.scrape.opts.Cache = cs }

// New makes the metrics of one server.
func New(opts Options) *Metrics {
	m := &Metrics{Registry: prometheus.NewRegistry()}
	m.connections = prometheus.NewGauge(prometheus.GaugeOpts{Name: Connections, Help: "Open client sessions (PostgreSQL protocol)."})
	m.connectionsTotal = prometheus.NewCounter(prometheus.CounterOpts{Name: ConnectionsTotal, Help: "Client sessions opened."})
	m.statements = prometheus.NewCounterVec(prometheus.CounterOpts{Name: Statements,
		Help: "Statements run, by kind (first keyword) and outcome (SQLSTATE class: 00 success)."}, []string{"kind", "outcome"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: StatementSeconds,
		Help:    "Statement latency, from its start to its last row sent, by kind.",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}}, []string{"kind"})
	m.rowsRead = prometheus.NewCounter(prometheus.CounterOpts{Name: RowsRead, Help: "Rows sent to clients (SELECT, FETCH, COPY TO...)."})
	m.rowsWritten = prometheus.NewCounter(prometheus.CounterOpts{Name: RowsWritten, Help: "Rows written (INSERT, UPDATE, DELETE, MERGE, COPY FROM)."})
	m.bytesSent = prometheus.NewCounter(prometheus.CounterOpts{Name: BytesSent, Help: "Bytes of protocol messages sent to clients."})
	m.copyBytes = prometheus.NewCounterVec(prometheus.CounterOpts{Name: CopyBytes, Help: "Bytes of COPY data moved, by direction (in: FROM, out: TO)."}, []string{"direction"})
	m.errors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: Errors, Help: "Errors sent to clients, by SQLSTATE class and severity."}, []string{"class", "severity"})
	m.commits = prometheus.NewCounterVec(prometheus.CounterOpts{Name: Commits, Help: "Transaction blocks ended, by outcome (commit, rollback)."}, []string{"outcome"})
	m.syncs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: StoreSyncs, Help: "Syncs of the store's files (fsync, fdatasync, sync_file_range)."}, []string{"call"})
	m.syncLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: StoreSyncSeconds, Help: "Latency of the store's syncs.",
		Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}}, []string{"call"})
	m.scrape = &scrapeCollector{opts: opts,
		hits:   prometheus.NewDesc(CacheHits, "Block cache hits of the primary-key state.", nil, nil),
		misses: prometheus.NewDesc(CacheMisses, "Block cache misses of the primary-key state.", nil, nil),
		files:  prometheus.NewDesc(SpillFiles, "Files queries have spilled to, now.", nil, nil),
		bytes:  prometheus.NewDesc(SpillBytes, "Bytes queries have spilled, now.", nil, nil)}
	m.Registry.MustRegister(m.connections, m.connectionsTotal, m.statements, m.latency, m.rowsRead, m.rowsWritten,
		m.bytesSent, m.copyBytes, m.errors, m.commits, m.syncs, m.syncLatency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), m.scrape)
	// Present from the start, so that a dashboard shows zeros, not gaps.
	for _, d := range []string{"in", "out"} {
		m.copyBytes.WithLabelValues(d)
	}
	for _, o := range []string{"commit", "rollback"} {
		m.commits.WithLabelValues(o)
	}
	return m
}

// ObserveSync records one store sync (embedded.Syncer, syncer.go).
func (m *Metrics) ObserveSync(call string, d time.Duration) {
	m.syncs.WithLabelValues(call).Inc()
	m.syncLatency.WithLabelValues(call).Observe(d.Seconds())
}

// scrapeCollector reads what is only known at scrape time.
type scrapeCollector struct {
	opts                       Options
	hits, misses, files, bytes *prometheus.Desc
}

func (c *scrapeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.hits
	ch <- c.misses
	ch <- c.files
	ch <- c.bytes
}

func (c *scrapeCollector) Collect(ch chan<- prometheus.Metric) {
	var hits, misses int64
	if c.opts.Cache != nil {
		hits, misses = c.opts.Cache.BlockCacheStats()
	}
	ch <- prometheus.MustNewConstMetric(c.hits, prometheus.CounterValue, float64(hits))
	ch <- prometheus.MustNewConstMetric(c.misses, prometheus.CounterValue, float64(misses))
	var n, size int64
	if c.opts.SpillDir != "" {
		_ = filepath.WalkDir(c.opts.SpillDir, func(_ string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if info, err := d.Info(); err == nil {
				n++
				size += info.Size()
			}
			return nil
		})
	}
	ch <- prometheus.MustNewConstMetric(c.files, prometheus.GaugeValue, float64(n))
	ch <- prometheus.MustNewConstMetric(c.bytes, prometheus.GaugeValue, float64(size))
}

// SessionStarted implements pgwire.Observer.
func (m *Metrics) SessionStarted(pgwire.SessionInfo, pgwire.SessionControl) pgwire.SessionObserver {
	m.connections.Inc()
	m.connectionsTotal.Inc()
	return &session{m: m}
}

// session counts one session's statements.
type session struct {
	m *Metrics
	// ok caches the success counter of the last kind, the common case of
	// a session running one statement again and again.
	lastKind string
	ok       prometheus.Counter
	hist     prometheus.Observer
}

func (s *session) StatementStarted(string, time.Time) {}

func (s *session) StatementDone(ev pgwire.StatementEvent) {
	kind := Kind(ev.SQL)
	if kind != s.lastKind || s.ok == nil {
		s.lastKind = kind
		s.ok = s.m.statements.WithLabelValues(kind, "00")
		s.hist = s.m.latency.WithLabelValues(kind)
	}
	s.hist.Observe(ev.Duration.Seconds())
	s.m.bytesSent.Add(float64(ev.BytesSent))
	if ev.Err != nil {
		s.m.statements.WithLabelValues(kind, class(ev.Err.Code)).Inc()
		return
	}
	s.ok.Inc()
	if ev.Rows > 0 {
		switch verb, _, _ := strings.Cut(ev.Tag, " "); verb {
		case "INSERT", "UPDATE", "DELETE", "MERGE":
			s.m.rowsWritten.Add(float64(ev.Rows))
		case "COPY":
			if kind == "copy" && isCopyFrom(ev.SQL) {
				s.m.rowsWritten.Add(float64(ev.Rows))
			} else {
				s.m.rowsRead.Add(float64(ev.Rows))
			}
		default:
			s.m.rowsRead.Add(float64(ev.Rows))
		}
	}
	switch ev.Tag {
	case "COMMIT":
		s.m.commits.WithLabelValues("commit").Inc()
	case "ROLLBACK":
		s.m.commits.WithLabelValues("rollback").Inc()
	}
}

func (s *session) ErrorSent(e *sqlerr.Error, _ string) {
	sev := e.Severity
	if sev == "" {
		sev = "ERROR"
	}
	s.m.errors.WithLabelValues(class(e.Code), sev).Inc()
}

func (s *session) StatusChanged(string, string) {}
func (s *session) Ready(byte)                   {}
func (s *session) Ended()                       { s.m.connections.Dec() }

// CopyStarted implements pgwire.CopyObserver: COPY data bytes.
func (s *session) CopyStarted(from bool, _ uint32) pgwire.CopyProgress {
	dir := "out"
	if from {
		dir = "in"
	}
	return copyCounter{c: s.m.copyBytes.WithLabelValues(dir)}
}

type copyCounter struct{ c prometheus.Counter }

func (c copyCounter) Add(bytes, _ int64) {
	if bytes > 0 {
		c.c.Add(float64(bytes))
	}
}
func (copyCounter) Done() {}

// class is a SQLSTATE's class (its first two characters).
func class(c sqlerr.Code) string {
	if len(c) < 2 {
		return "XX"
	}
	return string(c[:2])
}
