package pgwire

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Session time limits, read from the session's settings (Session.Status)
// when they start, so that a SET takes effect at the next statement:
//
//   - statement_timeout bounds each statement: each statement of a simple
//     Query separately (PostgreSQL 13 and later), each Execute of the
//     extended protocol, a COPY including the wait for the client's data.
//     It cancels the statement with 57014 "canceling statement due to
//     statement timeout".
//   - idle_in_transaction_session_timeout ends a session left idle inside a
//     transaction block (status T or E after ReadyForQuery) with FATAL 25P03.
//   - idle_session_timeout ends a session left idle outside one with FATAL
//     57P05.

const statementTimeoutMessage = "canceling statement due to statement timeout"

// Codes PostgreSQL uses for the idle timeouts.
const (
	codeIdleInTransactionTimeout sqlerr.Code = "25P03"
	codeIdleSessionTimeout       sqlerr.Code = "57P05"
)

// The time settings pgwire reads, as indexes of conn.durations.
const (
	durStatementTimeout = iota
	durIdleSession
	durIdleInTransaction
	numDurationSettings
)

// durationSettingNames are the settings behind the indexes above.
var durationSettingNames = [numDurationSettings]string{
	durStatementTimeout:  "statement_timeout",
	durIdleSession:       "idle_session_timeout",
	durIdleInTransaction: "idle_in_transaction_session_timeout",
}

// DurationSetting is a time setting's value as last read and what it
// parsed to. Why: statement_timeout is read at every statement and an idle
// timeout at every wait for a message, four to eight times per transaction
// of short statements (the engine's lock timeouts at every write), and
// parsing the text each time (a float parse and two trims) was a visible
// share of pgwire's own CPU; the text is compared instead, so that a SET
// still takes effect at the next statement.
type DurationSetting struct {
	raw string
	d   time.Duration
	ok  bool // raw was parsed
}

// Of is the duration of the setting's text v: 0 (no limit) when it is
// empty, zero, negative or unparsable; parsed again only when v changed.
func (p *DurationSetting) Of(v string) time.Duration {
	if !p.ok || p.raw != v {
		d, ok := parseGUCDuration(v)
		if !ok || d <= 0 {
			d = 0
		}
		*p = DurationSetting{raw: v, d: d, ok: true}
	}
	return p.d
}

// settingDuration reads a time setting of the session (one of the indexes
// above). A missing, zero, negative or unparsable value means no limit.
func (c *conn) settingDuration(which int) time.Duration {
	if c.session == nil {
		return 0
	}
	v, ok := c.session.Status(durationSettingNames[which])
	if !ok {
		return 0
	}
	return c.durations[which].Of(v)
}

// ParseGUCDuration is parseGUCDuration, for the engine's lock_timeout.
func ParseGUCDuration(s string) (time.Duration, bool) { return parseGUCDuration(s) }

// parseGUCDuration parses a time setting as PostgreSQL does for a GUC whose
// base unit is milliseconds: a number with an optional unit (us, ms, s,
// min, h, d), possibly separated by spaces, optionally quoted.
func parseGUCDuration(s string) (time.Duration, bool) {
	s = strings.Trim(strings.TrimSpace(s), "'")
	i := 0
	for i < len(s) && (s[i] == '.' || s[i] == '-' || s[i] == '+' || (s[i] >= '0' && s[i] <= '9')) {
		i++
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, false
	}
	unit := time.Millisecond
	switch strings.TrimSpace(s[i:]) {
	case "", "ms":
	case "us":
		unit = time.Microsecond
	case "s":
		unit = time.Second
	case "min":
		unit = time.Minute
	case "h":
		unit = time.Hour
	case "d":
		unit = 24 * time.Hour
	default:
		return 0, false
	}
	f := n * float64(unit)
	if f > float64(1<<62) {
		f = float64(1 << 62)
	}
	return time.Duration(f), true
}

// startStatementTimer arms statement_timeout for the statement that starts
// now: when it fires, cancel is called and the statement's error becomes
// "canceling statement due to statement timeout". The returned function
// disarms it; armed is false when no statement_timeout is set.
func (c *conn) startStatementTimer(cancel func()) (stop func(), armed bool) {
	c.timedOut.Store(false)
	d := c.settingDuration(durStatementTimeout)
	if d <= 0 {
		return func() {}, false
	}
	t := time.AfterFunc(d, func() {
		c.timedOut.Store(true)
		cancel()
	})
	return func() { t.Stop() }, true
}

// withStatementTimeout is startStatementTimer for a context of its own,
// which the returned function ends. Without a statement_timeout the
// statement runs under parent itself (the Query's context, which a
// CancelRequest cancels and which ends with the Query): a context, its
// registration with parent and two closures per statement were most of
// what a short simple Query (a BEGIN, a COMMIT) allocated in pgwire.
func (c *conn) withStatementTimeout(parent context.Context) (context.Context, func()) {
	if c.settingDuration(durStatementTimeout) <= 0 {
		c.timedOut.Store(false)
		return parent, noStop
	}
	ctx, cancel := context.WithCancel(parent)
	stop, _ := c.startStatementTimer(cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

func noStop() {}

// idleLimit returns how long the session may wait for a message, and the
// error that ends it then, for a session that has just sent ReadyForQuery;
// 0 when no limit applies.
func (c *conn) idleLimit() (time.Duration, *sqlerr.Error) {
	// Checked before anything is allocated: this runs after every
	// ReadyForQuery, and the timeouts are usually off.
	if c.session.TxStatus() == 'I' {
		d := c.settingDuration(durIdleSession)
		if d <= 0 {
			return 0, nil
		}
		return d, &sqlerr.Error{Code: codeIdleSessionTimeout, Severity: "FATAL", Message: "terminating connection due to idle-session timeout"}
	}
	d := c.settingDuration(durIdleInTransaction)
	if d <= 0 {
		return 0, nil
	}
	return d, &sqlerr.Error{Code: codeIdleInTransactionTimeout, Severity: "FATAL", Message: "terminating connection due to idle-in-transaction timeout"}
}
