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
// once parsed: without surrounding whitespace, unquoted names folded to
// lower case (ASCII letters only, as downcase_identifier does).
func displayName(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, `"`) {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
