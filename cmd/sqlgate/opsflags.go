package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/server"
)

// opsFlags are serve's operations flags: metrics and logs.
type opsFlags struct {
	metricsListen  *string
	logFormat      *string
	logMinDuration *string
	logParameters  *bool
}

func registerOpsFlags(fs *flag.FlagSet) *opsFlags {
	return &opsFlags{
		metricsListen: fs.String("metrics-listen", "", "serve Prometheus metrics (/metrics), /healthz and /readyz over HTTP on HOST:PORT (off by default)"),
		logFormat:     fs.String("log-format", "text", "log line format: text or json (log/slog)"),
		logMinDuration: fs.String("log-min-duration-statement", "-1", "log statements running at least this long "+
			"(PostgreSQL's log_min_duration_statement: 250ms, 1s ...; 0 logs all, -1 none); a superuser may SET it per session"),
		logParameters: fs.Bool("log-parameters", false, "log the parameter values of logged statements (left out by default)"),
	}
}

// check validates the flags before anything starts.
func (o *opsFlags) check() error {
	if *o.logFormat != "text" && *o.logFormat != "json" {
		return fmt.Errorf("--log-format %q: want text or json", *o.logFormat)
	}
	if _, err := engine.ParseMillisSetting(engine.LogMinDurationStatement, *o.logMinDuration); err != nil {
		return fmt.Errorf("--log-min-duration-statement: %v", err)
	}
	if a := *o.metricsListen; a != "" {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return fmt.Errorf("--metrics-listen %q: %v", a, err)
		}
	}
	return nil
}

// logger is the server's logger in the chosen format.
func (o *opsFlags) logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	if *o.logFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// apply sets the server configuration's operations fields.
func (o *opsFlags) apply(cfg *server.Config) {
	cfg.MetricsListen = *o.metricsListen
	cfg.LogMinDurationStatement = *o.logMinDuration
	cfg.LogParameters = *o.logParameters
}
