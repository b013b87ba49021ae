package engine

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Stored generated columns at COPY FROM and ON CONFLICT DO UPDATE: the
// binder's plans compute them for INSERT and UPDATE (binder/generated.go);
// COPY builds its rows here, and exec.Insert's merge its updated rows, so
// each evaluates the same bound expressions over each record it builds,
// before the NOT NULL and CHECK constraints read it.

// copyGenerated returns the step that replaces the generated columns of
// a record of info's rows (its table's columns, in order: COPY's, or ON
// CONFLICT DO UPDATE's updated rows) by their computed values; nil when
// the table has none.
func (s *session) copyGenerated(ctx context.Context, info fluss.TableInfo) (func(cols []arrow.Array, rows int64) error, error) {
	bound, err := binder.GenerationExprs(ctx, s.eng.tables, info)
	if err != nil || bound == nil {
		return nil, err
	}
	exprs := make([]exec.Expr, len(bound))
	for i, e := range bound {
		if e == nil {
			continue
		}
		es, err := lower.LowerExprs([]binder.Expr{e})
		if err != nil {
			return nil, err
		}
		exprs[i] = es[0]
	}
	mem := s.eng.mem
	ec := &exec.EvalContext{Ctx: ctx, Mem: mem}
	schema := info.ArrowSchema()
	return func(cols []arrow.Array, rows int64) error {
		rec := array.NewRecordBatch(schema, cols, rows)
		defer rec.Release()
		computed := make([]arrow.Array, len(cols))
		for i, e := range exprs {
			if e == nil {
				continue
			}
			v, err := e.Eval(ec, rec)
			if err != nil {
				for _, a := range computed {
					if a != nil {
						a.Release()
					}
				}
				return err
			}
			computed[i] = v
		}
		for i, v := range computed {
			if v != nil {
				cols[i].Release()
				cols[i] = v
			}
		}
		return nil
	}, nil
}

// refuseCopyGenerated is PostgreSQL's refusal of a generated column named
// in COPY's column list (42P10).
func refuseCopyGenerated(info fluss.TableInfo, i int) error {
	if fluss.MetaOf(info.Descriptor).Column(i).Generated == "" {
		return nil
	}
	return sqlerr.New(sqlerr.InvalidColumnReference, "column \"%s\" is a generated column", info.Descriptor.Schema.Columns[i].Name).
		WithDetail("Generated columns cannot be used in COPY.")
}

// copyToColumns is the select list of COPY t TO without a column list:
// "*", or the table's columns other than its generated ones, which
// PostgreSQL leaves out of COPY's default list.
func (s *session) copyToColumns(ctx context.Context, path fluss.TablePath) string {
	info, err := s.eng.storeTable(ctx, path)
	if err != nil {
		return "*" // the query reports the missing table
	}
	var names []string
	skipped := false
	gen := binder.GeneratedColumns(info)
	if gen == nil {
		return "*"
	}
	for i, c := range info.Descriptor.Schema.Columns {
		if gen[i] {
			skipped = true
			continue
		}
		names = append(names, quoteIdent(c.Name))
	}
	if !skipped {
		return "*"
	}
	return strings.Join(names, ", ")
}

// generatedClause is SHOW CREATE TABLE's GENERATED ALWAYS AS (expr)
// STORED of column i ("" for a column that is not generated).
func generatedClause(info fluss.TableInfo, i int) string {
	text := fluss.MetaOf(info.Descriptor).Column(i).Generated
	if text == "" {
		return ""
	}
	return " GENERATED ALWAYS AS (" + text + ") STORED"
}
