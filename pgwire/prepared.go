package pgwire

import (
	"sort"
	"time"
)

// PreparedInfo describes one prepared statement of a session as
// PostgreSQL 15's pg_prepared_statements shows it.
type PreparedInfo struct {
	Name string
	// Statement is the query string the statement came from: a Parse
	// message's text, or the whole query string holding a SQL PREPARE.
	Statement   string
	PrepareTime time.Time
	// ParamOIDs are the parameters' type OIDs (regtype[]).
	ParamOIDs []uint32
	// FromSQL: PREPARE made it, not the protocol's Parse.
	FromSQL bool
	// GenericPlans and CustomPlans count the executions that used a
	// plan made without / for the parameter values. sqlgate plans a
	// statement once and runs that plan with each execution's values,
	// so every execution counts as generic (PostgreSQL makes custom
	// plans for a statement's first five executions with parameters).
	GenericPlans, CustomPlans int64
}

// List implements ProtocolStatements: the named statements of the
// connection (the unnamed one is not listed, as in PostgreSQL), by name.
func (s connStatements) List() []PreparedInfo {
	out := make([]PreparedInfo, 0, len(s.c.stmts))
	for name, ps := range s.c.stmts {
		if name == "" {
			continue
		}
		out = append(out, PreparedInfo{Name: name, Statement: ps.query, PrepareTime: ps.preparedAt,
			ParamOIDs: ps.paramOIDs, GenericPlans: ps.plans})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
