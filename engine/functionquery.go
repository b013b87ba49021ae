package engine

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// functionQuery is functions.Session.Query: it runs a query a function
// was given as text (ts_stat's, ts_rewrite's), as PostgreSQL runs it
// through SPI, inside the running statement: the same session, role and
// transaction (its pending writes included), under the statement's
// clock. Only one query, and only a query, may be given: PostgreSQL opens
// it as a cursor, which refuses anything else (42P11). An error in it
// carries no position, since the caller's statement is not its text.
func (s *session) functionQuery(ctx context.Context, text string) (cols []types.T, rows [][]any, err error) {
	defer func() {
		if e := sqlerr.As(err); e != nil {
			err = e.AsUnplaced()
		}
	}()
	p := sql.NewParser()
	p.SetDatabase(s.info.Database)
	sts, err := p.Parse(text)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case len(sts) > 1:
		return nil, nil, sqlerr.New(invalidCursorDefinition, "cannot open multi-query plan as cursor")
	case len(sts) == 0:
		return nil, nil, sqlerr.New(invalidCursorDefinition, "cannot open empty query as cursor")
	}
	ps, err := s.prepareOne(ctx, sts[0], nil)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := ps.bound.(*binder.Query); !ok || ps.plan == nil || ps.with != nil {
		tag, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(sts[0].Text)), " ")
		return nil, nil, sqlerr.New(invalidCursorDefinition, "cannot open %s query as cursor", tag)
	}
	if err := s.authorize(ps); err != nil {
		return nil, nil, err
	}
	rt, err := s.internalRuntime(ctx, ps, s.runtimeTables(), s.tx == nil && s.implicit == nil) // matview.go
	if err != nil {
		return nil, nil, err
	}
	defer rt.Close()
	op, err := lower.Build(rt, ps.plan)
	if err != nil {
		return nil, nil, err
	}
	defer op.Close()
	for _, c := range ps.cols {
		cols = append(cols, c.Type)
	}
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return nil, nil, mapContextError(ctx, err)
		}
		if b == nil {
			return cols, rows, nil
		}
		for i := 0; i < int(b.NumRows()); i++ {
			row := make([]any, b.NumCols())
			for k := range row {
				row[k] = types.ValueAt(b.Column(k), i)
			}
			rows = append(rows, row)
		}
		b.Release()
	}
}

// invalidCursorDefinition is 42P11, PostgreSQL's SQLSTATE for a query it
// cannot open as a cursor.
const invalidCursorDefinition = sqlerr.Code("42P11")
