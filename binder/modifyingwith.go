package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Data-modifying statements in WITH (sql.Statement.ModifyingWith): the
// engine binds and runs each one before the statement, and the statement
// reads its RETURNING rows by the WITH query's name. Those rows are a
// relation the engine fills at each execution, bound here as a FileTable
// over a FileRelation of the engine's (lower reads it as it reads a file).

// ModifyingCatalog is the optional part of a Catalog that knows the
// running statement's data-modifying WITH queries.
type ModifyingCatalog interface {
	// ModifyingCTE returns the relation of the data-modifying WITH query
	// name (ok false: there is none of that name); returning false: it
	// has no RETURNING clause, so nothing may read it.
	ModifyingCTE(name string) (rel FileRelation, returning, ok bool)
}

// bindModifyingRef binds a name in FROM that names a data-modifying WITH
// query (ok false: it names none). Plain WITH queries, bound first, hide
// it, as an inner WITH's names hide an outer one's.
func (b *binder) bindModifyingRef(ref *pt.TableRef) (Node, bool, error) {
	if ref.Name.Schema != "" || b.writeTarget {
		return nil, false, nil
	}
	mc, ok := b.cat.(ModifyingCatalog)
	if !ok {
		return nil, false, nil
	}
	rel, returning, ok := mc.ModifyingCTE(ref.Name.Name)
	if !ok {
		return nil, false, nil
	}
	if !returning {
		return nil, true, b.errAt(ref.Name, sqlerr.New(sqlerr.FeatureNotSupported, "WITH query %q does not have a RETURNING clause", ref.Name.Name))
	}
	alias := ref.Alias.Name
	if alias == "" {
		alias = ref.Name.Name
	}
	n := &FileTable{File: rel}
	for _, c := range rel.Columns() {
		n.cols = append(n.cols, Column{Name: c.Name, T: c.Type, Table: alias})
	}
	if len(ref.Alias.Columns) > 0 {
		r, err := relabelNames(n, alias, ref.Alias.Columns)
		return r, true, err
	}
	return n, true, nil
}
