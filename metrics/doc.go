// Package metrics exports sqlgate's Prometheus metrics
// (github.com/prometheus/client_golang) and serves them over HTTP beside
// /healthz and /readyz (`sqlgate serve --metrics-listen HOST:PORT`).
//
// It owns the metric names (names.go lists every one; the Grafana
// dashboard in deploy/grafana/sqlgate.json queries only those, which a test
// checks), the counting of connections and statements (a pgwire.Observer:
// statements by kind and outcome, latency histograms, rows and bytes), the
// store's syncs (an embedded.Syncer wrapper timing every fsync), and the
// collectors read at scrape time (block cache hits and misses, spill
// files, Go memory and the process).
//
// Each server makes its own Metrics with its own prometheus.Registry: no
// package-level state, no use of the global default registry.
//
// It must not: parse SQL (the statement kind is its first keyword, read by
// Kind), or block a statement on a scrape.
package metrics
