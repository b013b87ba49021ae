// Package server assembles a running sqlgate: it opens the embedded store in
// a data directory (or connects to a Fluss cluster, Config.Fluss), puts the
// engine behind the PostgreSQL wire server (and, with Config.FlightListen,
// behind an Arrow Flight SQL server too: package flightsql), and listens. cmd/sqlgate, the sqllogictest runner and the end-to-end tests all
// start servers through it, so that every path runs the same wiring. An
// embedding program hands it Go UDFs (Config.UDFs; examples/udf).
//
// It also owns what operators watch (observers.go): the session registry
// (package server/activity: pg_stat_activity, pg_cancel_backend), the
// statement log (server/stmtlog) and, with Config.MetricsListen, the
// Prometheus metrics, /healthz and /readyz (package metrics; metrics.go),
// each a pgwire.Observer.
//
// It holds no SQL or protocol logic of its own.
package server
