package pgcatalog

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgtypes"
)

// withMissing sets pg_attribute's atthasmissing and attmissingval of a
// column ADD COLUMN ... DEFAULT gave a missing value (fluss/missing.go):
// the value as a one-element array's text, as PostgreSQL shows it ({5},
// {"a b"}).
func (c *Catalog) withMissing(r row, m fluss.ColumnMeta) row {
	if m.Missing != "" && !c.rewritesFor(m) {
		r["atthasmissing"], r["attmissingval"] = true, "{"+pgtypes.ArrayElementText(m.MissingText)+"}"
	}
	return r
}

// rewritesFor reports whether the column is of a domain with constraints
// (a CHECK or NOT NULL, its own or underneath): PostgreSQL rewrites the
// table to add such a column, checking each row's value, so it keeps no
// missing value for it (sqlgate keeps one all the same).
func (c *Catalog) rewritesFor(m fluss.ColumnMeta) bool {
	oid, array, ok := fluss.ParseOIDPGType("domain", m.PGType)
	if !ok || array {
		return false
	}
	for d := c.opts.Types.Domain(oid); d != nil; d = c.opts.Types.Domain(d.Parent) {
		if d.NotNull || len(d.Checks) > 0 {
			return true
		}
		if d.Parent == 0 {
			break
		}
	}
	return false
}
