package functions

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// optionsRowType is pg_options_to_table's composite: (option_name text,
// option_value text).
var optionsRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "option_name", Type: types.StringType}, {Name: "option_value", Type: types.StringType},
}}

// optionsToTableRows is pg_options_to_table(text[]): each "name=value"
// element split at its first '=' (an element without one is a name with
// a NULL value), as PostgreSQL splits reloptions; a NULL array gives no
// rows, a NULL element is 22004.
func optionsToTableRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	arr, _ := args[0].([]any)
	i := 0
	return func() (any, bool, error) {
		if i >= len(arr) {
			return nil, false, nil
		}
		i++
		s, ok := arr[i-1].(string)
		if !ok {
			return nil, false, sqlerr.New(sqlerr.NullValueNotAllowed, "null array element not allowed in this context")
		}
		if k, v, found := strings.Cut(s, "="); found {
			return []any{k, v}, true, nil
		}
		return []any{s, nil}, true, nil
	}, nil
}

// Databases is implemented by a CatalogInfo that lists its databases:
// pg_tablespace_databases and pg_describe_object read them.
type Databases interface {
	// DatabaseNames are pg_database's rows: the name of each OID.
	DatabaseNames(ctx context.Context) (map[uint32]string, error)
}

// The tablespaces of pg_tablespace, under PostgreSQL's OIDs.
const (
	defaultTablespaceOID = 1663
	globalTablespaceOID  = 1664
)

// tablespaceDatabaseRows is pg_tablespace_databases(oid): every database
// for pg_default, which holds them all; none for pg_global (PostgreSQL
// warns that it never has databases) or an OID that is no tablespace
// (it warns of that too; sqlgate sends no warning).
func tablespaceDatabaseRows(ctx context.Context, args []any) (func() (any, bool, error), error) {
	if args[0] == nil || oidArg(args[0]) != defaultTablespaceOID {
		return none, nil
	}
	c, err := catalogOf(ctx)
	if err != nil {
		return nil, err
	}
	d, ok := c.(Databases)
	if !ok {
		return none, nil
	}
	names, err := d.DatabaseNames(ctx)
	if err != nil {
		return nil, err
	}
	oids := slices.Sorted(maps.Keys(names))
	i := 0
	return func() (any, bool, error) {
		if i >= len(oids) {
			return nil, false, nil
		}
		i++
		return int64(oids[i-1]), true, nil
	}, nil
}
