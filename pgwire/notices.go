package pgwire

import (
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Noticer is implemented by results that carry notices (PostgreSQL's
// NOTICE messages: a statement accepted but not doing all it says, such as
// CREATE INDEX on a store without secondary indexes). They are sent as
// NoticeResponse before the result's CommandComplete.
type Noticer interface {
	Notices() []*sqlerr.Error
}

// RuntimeNotices is an optional Session interface: the NOTICEs and
// WARNINGs that functions raised while a statement ran (pg_advisory_unlock
// of a lock not held, pg_cancel_backend of no backend), which PostgreSQL
// sends at once, between the statement's rows. pgwire takes them after
// each batch of rows it is handed (before sending that batch) and before
// an ErrorResponse.
type RuntimeNotices interface {
	// TakeNotices returns the notices raised since the last call, and
	// forgets them.
	TakeNotices() []*sqlerr.Error
}

// sendRuntimeNotices sends what the session's statement raised so far.
func (c *conn) sendRuntimeNotices() {
	if c.runtimeNotices == nil {
		return
	}
	for _, e := range c.runtimeNotices.TakeNotices() {
		c.sendNotice(e)
	}
}

// ProtocolStatements lets a session drop the named statements the client
// prepared with Parse: SQL's DEALLOCATE name | ALL reaches them too, as in
// PostgreSQL, where both kinds share one namespace. It is used from the
// connection's goroutine only (during Execute).
type ProtocolStatements interface {
	// Deallocate drops the statement name and reports whether it existed.
	Deallocate(name string) bool
	// Has reports whether the statement name exists.
	Has(name string) bool
	// DeallocateAll drops every named statement.
	DeallocateAll()
	// List describes the named statements (prepared.go).
	List() []functions.PreparedStatement
}

// ProtocolStatementsUser is implemented by sessions that want the
// connection's ProtocolStatements; the server hands it over once the
// session is created.
type ProtocolStatementsUser interface {
	SetProtocolStatements(ProtocolStatements)
}

type connStatements struct{ c *conn }

func (s connStatements) Deallocate(name string) bool {
	if name == "" {
		return false
	}
	_, ok := s.c.stmts[name]
	delete(s.c.stmts, name)
	return ok
}

func (s connStatements) Has(name string) bool {
	_, ok := s.c.stmts[name]
	return ok && name != ""
}

func (s connStatements) DeallocateAll() {
	for name := range s.c.stmts {
		if name != "" {
			delete(s.c.stmts, name)
		}
	}
}

// sendNotices sends the notices a result carries, if any.
func (c *conn) sendNotices(res Result) {
	if n, ok := res.(Noticer); ok {
		c.sendNoticesOf(n)
	}
}

// sendNoticesOf sends n's notices: a result's, or those an error came
// after (a WARNING before the ERROR of one statement, as PostgreSQL's
// PREPARE TRANSACTION in an implicit transaction sends).
func (c *conn) sendNoticesOf(n Noticer) {
	for _, e := range n.Notices() {
		c.sendNotice(e)
	}
}

// sendNotice sends e as a NoticeResponse (severity NOTICE unless it says).
func (c *conn) sendNotice(e *sqlerr.Error) {
	sev := e.Severity
	if sev == "" {
		sev = "NOTICE"
	}
	c.send(&pgproto3.NoticeResponse{Severity: sev, SeverityUnlocalized: sev, Code: string(e.Code),
		Message: e.Message, Detail: e.Detail, Hint: e.Hint})
}
