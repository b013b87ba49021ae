package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// Returning is the RETURNING list of INSERT, UPDATE or DELETE: the rows
// the statement wrote, projected like a SELECT list.
type Returning struct {
	// Cols are the output columns, named as PostgreSQL names them.
	Cols []Column
	// Exprs (INSERT) compute Cols over each row as written (the table's
	// columns in table order: after ON CONFLICT DO UPDATE, the merged row).
	Exprs []Expr
	// At (UPDATE, DELETE) is the first column of Source (Keys) holding Cols:
	// those statements compute them in the same projection as their writes,
	// so they can also name the FROM (USING) tables' columns.
	At int
}

// bindReturning binds a RETURNING list over s with the SELECT-list rules
// (wildcards, output names); aggregates and window functions are not
// allowed there, as in PostgreSQL (dmledge.go's bindReturningList). with
// is a WITH written before an INSERT (pt.Insert.With; nil for none), which
// sql's rewrite hands over on the inserted SELECT: its queries are the
// whole statement's in PostgreSQL, RETURNING included; owner is the
// statement.
func (b *binder) bindReturning(s *scope, r *pt.Returning, with *pt.With, owner pt.Statement) (*Project, error) {
	if with != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWriteWith(with, owner); err != nil {
			return nil, err
		}
	}
	return b.bindReturningList(s, r)
}
