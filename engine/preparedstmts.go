package engine

import (
	"sort"
	"time"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
)

// pg_prepared_statements: the session's SQL-level PREPAREd statements
// (sqlprepare.go) and the connection's Parse-prepared named ones
// (pgwire.ProtocolStatements.List), as PostgreSQL 15 lists them.

// sqlPreparedMeta is what pg_prepared_statements shows of a SQL-level
// prepared statement beyond the statement itself.
type sqlPreparedMeta struct {
	source string    // the whole query string holding the PREPARE
	at     time.Time // when PREPARE ran
	plans  int64     // EXECUTEs: each runs the statement's one plan
}

// notePrepared records a PREPARE of name from the query string source.
func (s *session) notePrepared(name, source string) {
	if s.sqlPreparedMeta == nil {
		s.sqlPreparedMeta = map[string]*sqlPreparedMeta{}
	}
	// PostgreSQL's prepare_time is the PREPARE statement's start
	s.sqlPreparedMeta[name] = &sqlPreparedMeta{source: source, at: time.Now()}
}

// notePlanUsed counts an EXECUTE of name.
func (s *session) notePlanUsed(name string) {
	if m := s.sqlPreparedMeta[name]; m != nil {
		m.plans++
	}
}

// preparedStatements lists both kinds by name. Every execution counts as
// a generic plan: sqlgate plans a statement once, at PREPARE or Parse
// (again only after a catalog change), and runs that plan with each
// execution's parameter values.
func (s *session) preparedStatements() []functions.PreparedStatement {
	var out []functions.PreparedStatement
	for name, ps := range s.sqlPrepared {
		row := functions.PreparedStatement{Name: name, FromSQL: true, ParamOIDs: make([]uint32, len(ps.params))}
		for i, t := range ps.params {
			row.ParamOIDs[i], _, _ = pgtypes.OIDOf(t)
		}
		if m := s.sqlPreparedMeta[name]; m != nil {
			row.Statement, row.PrepareTime, row.GenericPlans = m.source, m.at, m.plans
		}
		out = append(out, row)
	}
	if s.protocol != nil {
		out = append(out, s.protocol.List()...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
