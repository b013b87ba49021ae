package binder

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
)

// AddColumnDefault binds ALTER TABLE ... ADD COLUMN's DEFAULT text for
// column i of info (the table as the statement's earlier actions leave it,
// the column added) as CREATE TABLE binds a DEFAULT. It returns the text
// the default is kept and shown as ("" for DEFAULT NULL, which keeps
// none), its bound expression (nil for NULL), which the engine evaluates
// once for the rows already stored (their missing value), and whether the
// expression is volatile: PostgreSQL rewrites the table for a volatile
// default, giving each stored row its own value.
func AddColumnDefault(ctx context.Context, cat Catalog, info fluss.TableInfo, i int, text string) (string, Expr, bool, error) {
	c := info.Descriptor.Schema.Columns[i]
	b := &binder{ctx: ctx, cat: cat}
	e, err := b.bindDefaultText(text, c, info.Path.Table, "")
	if err != nil {
		return "", nil, false, withoutPosition(err)
	}
	if k, ok := e.(*Const); ok && k.Value == nil {
		return "", nil, false, nil
	}
	return qualifyRegNames(ctx, storedDefault(text, e, c.Type), info.Path.Database, b.regNames), e, ContainsVolatile(e), nil // reglit.go
}

// ContainsVolatile reports whether e calls a function PostgreSQL marks volatile
// (random(), nextval(), gen_random_uuid(); now() is stable) or a UDF,
// volatile unless declared otherwise, or holds a subquery that does
// (callsVolatile is the same over a plan).
func ContainsVolatile(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		switch f := x.(type) {
		case *FuncCall:
			found = found || functions.VolatileInPostgres(f.Name) // (f.Volatile holds the stable ones too)
		case *UDFCall:
			found = true
		case *Subquery:
			found = found || callsVolatile(f.Plan)
		}
	})
	return found
}
