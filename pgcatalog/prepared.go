package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
)

// preparedStatementRows is pg_prepared_statements: the asking session's
// prepared statements, SQL-level and protocol-level alike
// (functions.Session.Prepared), as PostgreSQL 15 lists them.
func preparedStatementRows(ctx context.Context, _ *snapshot) ([]row, error) {
	s := functions.CurrentSession(ctx)
	if s.Prepared == nil {
		return nil, nil
	}
	var rows []row
	for _, p := range s.Prepared() {
		types := make([]any, len(p.ParamOIDs))
		for i, oid := range p.ParamOIDs {
			types[i] = oid
		}
		rows = append(rows, row{"name": p.Name, "statement": p.Statement, "prepare_time": p.PrepareTime,
			"parameter_types": types, "from_sql": p.FromSQL, "generic_plans": int(p.GenericPlans), "custom_plans": int(p.CustomPlans)})
	}
	return rows, nil
}
