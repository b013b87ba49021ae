package stmtlog

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Options configure the statement log.
type Options struct {
	// Logger receives the lines; nil discards them.
	Logger *slog.Logger
	// LogParameters logs the values of a statement's parameters ($1 ...)
	// with it; otherwise they are left out.
	LogParameters bool
}

// Log is the statement log of one server.
type Log struct {
	opts Options
}

// New returns a statement log.
func New(opts Options) *Log {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Log{opts: opts}
}

// SessionStarted implements pgwire.Observer.
func (l *Log) SessionStarted(info pgwire.SessionInfo, ctl pgwire.SessionControl) pgwire.SessionObserver {
	return &session{l: l, ctl: ctl, log: l.opts.Logger.With("pid", info.ProcessID, "user", info.User, "database", info.Database)}
}

// session logs one session's statements and errors.
type session struct {
	l   *Log
	ctl pgwire.SessionControl
	log *slog.Logger
	// setting and min cache the parse of the session's
	// log_min_duration_statement.
	setting string
	min     time.Duration // negative: off
}

// threshold is the session's log_min_duration_statement (negative: off).
func (s *session) threshold() time.Duration {
	v, ok := s.ctl.Setting(engine.LogMinDurationStatement)
	if !ok {
		return -1
	}
	if v != s.setting || s.setting == "" {
		s.setting = v
		ms, err := engine.ParseMillisSetting(engine.LogMinDurationStatement, v)
		if err != nil || ms < 0 {
			s.min = -1
		} else {
			s.min = time.Duration(ms) * time.Millisecond
		}
	}
	return s.min
}

func (s *session) StatementStarted(string, time.Time) {}

// PlanSummarizer is implemented by statements that can summarize their
// plan in a line (the engine's), shown with a slow statement.
type PlanSummarizer interface {
	PlanSummary() string
}

// StatementDone logs a statement that ran at least the threshold, as
// PostgreSQL's "duration: ... ms  statement: ..." line, with its fields.
func (s *session) StatementDone(ev pgwire.StatementEvent) {
	min := s.threshold()
	if min < 0 || ev.Duration < min {
		return
	}
	attrs := []slog.Attr{
		slog.Float64("duration_ms", float64(ev.Duration.Microseconds())/1000),
		slog.String("statement", ev.SQL),
	}
	if ev.Err != nil {
		attrs = append(attrs, slog.String("sqlstate", string(ev.Err.Code)))
	} else {
		attrs = append(attrs, slog.String("tag", ev.Tag), slog.Int64("rows", ev.Rows))
	}
	if len(ev.Params) > 0 {
		if s.l.opts.LogParameters {
			attrs = append(attrs, slog.String("parameters", formatParams(ev.Params)))
		} else {
			attrs = append(attrs, slog.Int("parameters_redacted", len(ev.Params)))
		}
	}
	if ps, ok := ev.Stmt.(PlanSummarizer); ok {
		if p := ps.PlanSummary(); p != "" {
			attrs = append(attrs, slog.String("plan", p))
		}
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "duration", attrs...)
}

// formatParams prints parameters as PostgreSQL's "parameters: $1 = '...'"
// detail does.
func formatParams(params []any) string {
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("$" + strconv.Itoa(i+1) + " = ")
		switch v := p.(type) {
		case nil:
			b.WriteString("NULL")
		case []byte:
			b.WriteString("'\\x" + fmt.Sprintf("%x", v) + "'")
		case time.Time:
			b.WriteString("'" + v.Format(time.RFC3339Nano) + "'")
		default:
			b.WriteString("'" + strings.ReplaceAll(fmt.Sprint(v), "'", "''") + "'")
		}
	}
	return b.String()
}

// ErrorSent logs every error a client is sent, once, with its SQLSTATE
// (and the statement it belongs to, as PostgreSQL's
// log_min_error_statement does by default).
func (s *session) ErrorSent(e *sqlerr.Error, sql string) {
	sev := e.Severity
	if sev == "" {
		sev = "ERROR"
	}
	level := slog.LevelError
	if e.Code == sqlerr.QueryCanceled || e.Code == sqlerr.AdminShutdown {
		level = slog.LevelWarn // asked for, not a fault
	}
	attrs := []slog.Attr{slog.String("sqlstate", string(e.Code)), slog.String("severity", sev)}
	if e.Detail != "" {
		attrs = append(attrs, slog.String("detail", e.Detail))
	}
	if sql != "" {
		attrs = append(attrs, slog.String("statement", sql))
	}
	s.log.LogAttrs(context.Background(), level, e.Message, attrs...)
}

func (s *session) StatusChanged(string, string) {}
func (s *session) Ready(byte)                   {}
func (s *session) Ended()                       {}
