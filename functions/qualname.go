package functions

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// qualifiedNameParts counts the dot-separated names of a relation, schema
// or role name given as text, as PostgreSQL's SplitIdentifierString reads
// it (regclass input, has_table_privilege, pg_get_viewdef(text) ...): each
// name is a double-quoted identifier ("" inside for a quote) or a run of
// characters up to whitespace or a dot; whitespace may surround names and
// dots. Text that is not such a list (empty, two words, a dangling dot) is
// 42602 "invalid name syntax", before any lookup.
func qualifiedNameParts(s string) (int, error) {
	names, ok := types.SplitIdentifierString(s, '.')
	if !ok || len(names) == 0 {
		return 0, sqlerr.New(sqlerr.Code("42602"), "invalid name syntax")
	}
	return len(names), nil
}

// checkSingleName is qualifiedNameParts for a name that takes no
// qualification (a schema, a role).
func checkSingleName(s string) error {
	n, err := qualifiedNameParts(s)
	if err == nil && n != 1 {
		err = sqlerr.New(sqlerr.Code("42602"), "invalid name syntax")
	}
	return err
}

// displayName is a name given as text as PostgreSQL's messages show it
// once parsed: without surrounding whitespace, quotes taken off a quoted
// name, unquoted names folded to lower case (ASCII letters only, as
// downcase_identifier does), the parts of a qualified name joined by
// dots. Text that is no name list is shown trimmed, as written.
func displayName(s string) string {
	names, ok := types.SplitIdentifierString(s, '.')
	if !ok || len(names) == 0 {
		return strings.TrimSpace(s)
	}
	return strings.Join(names, ".")
}
