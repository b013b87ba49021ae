package pgwire

import (
	"sort"

	"github.com/sqlgate/sqlgate/functions"
)

// List implements ProtocolStatements: the named statements of the
// connection for pg_prepared_statements (the unnamed one is not listed,
// as in PostgreSQL), by name.
func (s connStatements) List() []functions.PreparedStatement {
	out := make([]functions.PreparedStatement, 0, len(s.c.stmts))
	for name, ps := range s.c.stmts {
		if name == "" {
			continue
		}
		out = append(out, functions.PreparedStatement{Name: name, Statement: ps.query, PrepareTime: ps.preparedAt,
			ParamOIDs: ps.paramOIDs, GenericPlans: ps.plans})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
