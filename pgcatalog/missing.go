package pgcatalog

import (
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// withMissing sets pg_attribute's atthasmissing and attmissingval of a
// column ADD COLUMN ... DEFAULT gave a missing value (fluss/missing.go):
// the value as a one-element array's text, as PostgreSQL shows it ({5},
// {"a b"}).
func withMissing(r row, m fluss.ColumnMeta) row {
	if m.Missing != "" && !rewritesFor(m) {
		r["atthasmissing"], r["attmissingval"] = true, "{"+arrayElement(m.MissingText)+"}"
	}
	return r
}

// rewritesFor reports whether the column is of a domain with constraints
// (a CHECK or NOT NULL, its own or underneath): PostgreSQL rewrites the
// table to add such a column, checking each row's value, so it keeps no
// missing value for it (sqlgate keeps one all the same).
func rewritesFor(m fluss.ColumnMeta) bool {
	oid, array, ok := fluss.ParseOIDPGType("domain", m.PGType)
	if !ok || array {
		return false
	}
	for d := types.DomainOf(oid); d != nil; d = types.DomainOf(d.Parent) {
		if d.NotNull || len(d.Checks) > 0 {
			return true
		}
		if d.Parent == 0 {
			break
		}
	}
	return false
}

// arrayElement is s as an element of an array's text: quoted (with \ before
// " and \) when it is empty, NULL, or holds a brace, comma, quote,
// backslash or white space, as array_out quotes.
func arrayElement(s string) string {
	if s != "" && !strings.EqualFold(s, "NULL") && !strings.ContainsAny(s, "{},\"\\ \t\n\r\v\f") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
