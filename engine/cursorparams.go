package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/sql"
)

// Cursor statements' parameters and binary rows, as in PostgreSQL 15:
//
//   - DECLARE c CURSOR FOR SELECT ... $1 ...: under the extended protocol
//     the DECLARE takes the query's parameters (Parse describes them,
//     Bind gives their values, and the cursor's query runs with them);
//     under a simple Query, where nothing can supply them, a $n is 42P02
//     "there is no parameter $n".
//   - DECLARE c BINARY CURSOR: a FETCH from it in a simple Query sends its
//     rows in binary (RowDescription says so); under the extended protocol
//     Bind's result formats decide (pgwire.BinaryResultStatement).

// prepareDeclare gives DECLARE the parameter types of its query, found by
// binding the query (again at execution, since the cursor runs it then).
func (s *session) prepareDeclare(ctx context.Context, ps *statement) (*statement, error) {
	c := ps.parsed.DDL.Cursor
	stmts, err := s.parser.Parse(c.Query)
	if err != nil || len(stmts) != 1 || stmts[0].Kind != sql.Select || stmts[0].NumParams == 0 {
		// Errors and other queries are reported when the DECLARE runs.
		return ps, nil
	}
	qps, err := s.prepareOne(ctx, stmts[0], ps.declared)
	if err != nil {
		return nil, err
	}
	ps.params = qps.params
	return ps, nil
}

// cursorParams checks that the execution supplies the query's parameters.
func cursorParams(qps *statement, params []any) error {
	if len(params) < len(qps.params) {
		return noParameter(len(params) + 1)
	}
	return nil
}

// BinaryResult implements pgwire.BinaryResultStatement.
func (ps *statement) BinaryResult() bool { return ps.binary }

// BinaryResult implements pgwire.BinaryResultStatement.
func (l *lazyStatement) BinaryResult() bool {
	ps, err := l.bind()
	return err == nil && ps.binary
}
