package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SetFunc is a resolved set-returning function used as a FROM item
// (unnest, generate_series, generate_subscripts): one output column of
// type Ret, produced by Rows from the argument values.
type SetFunc struct {
	Name string
	// Args are the types the caller casts each argument to.
	Args []types.T
	Ret  types.T
	// OutName, when set, names the column it gives in FROM (the OUT
	// parameter's name, as pg_partition_ancestors's relid); else the
	// column is named after the function.
	OutName string
	// Rows starts the function for one set of argument values (types.go's
	// physical values, nil = NULL) and returns an iterator: next gives the
	// following value, ok false at the end. Values are produced lazily, so
	// generate_series(1, 1e9) holds one value at a time.
	Rows func(ctx context.Context, args []any) (next func() (v any, ok bool, err error), err error)
}

// IsSetFunc reports whether name is a set-returning function sqlgate has.
func IsSetFunc(name string) bool {
	switch strings.ToLower(name) {
	case "unnest", "generate_series", "generate_subscripts", "_pg_expandarray", "pg_get_keywords", "pg_partition_ancestors",
		"pg_show_all_settings", // bound as the relation pg_settings (binder/srf.go)
		"regexp_matches", "regexp_split_to_table", "string_to_table",
		"json_object_keys", "jsonb_object_keys", "json_array_elements", "jsonb_array_elements",
		"json_array_elements_text", "jsonb_array_elements_text", "json_each", "jsonb_each", "json_each_text", "jsonb_each_text",
		"jsonb_path_query", "jsonb_path_query_tz", // jsonpath.go
		"pg_options_to_table", "pg_tablespace_databases", // optionsrf.go
		"pg_timezone_names", "pg_timezone_abbrevs", // tzsrf.go
		"pg_partition_tree",                     // partitiontree.go
		"pg_listening_channels",                 // notify.go
		"ts_parse", "ts_token_type", "ts_debug", // tsearchsrf.go
		"ts_stat",                                             // tsstat.go
		"json_populate_recordset", "jsonb_populate_recordset": // jsonpopulate.go
		return true
	}
	return false
}

// ResolveSetFunc picks the set-returning function for name(args...) as
// PostgreSQL 15 does for the overloads sqlgate has: unnest(anyarray),
// generate_series (series.go) and
// generate_subscripts(anyarray, int4 [, bool]), and
// information_schema._pg_expandarray(anyarray), which pgJDBC's metadata
// queries call: a composite (x, n) per element, ROW<x elem, n int>.
func ResolveSetFunc(name string, args []types.T) (*SetFunc, error) {
	lname := strings.ToLower(name)
	if f := resolveTSSetFunc(lname, args); f != nil {
		return f, nil // tsearchsrf.go
	}
	switch lname {
	case "unnest":
		if len(args) == 1 && args[0].Kind == types.Array {
			// the elements of every dimension (mdarray.go)
			return &SetFunc{Name: lname, Args: []types.T{args[0].Nullable()}, Ret: arrayLeaf(args[0]).Nullable(), Rows: mdUnnestRows(arrayDepth(args[0]))}, nil
		}
		if len(args) == 1 && args[0].IsMultirange() {
			return multirangeUnnest(args[0]), nil // multirange.go
		}
		if len(args) == 1 && pgTypeOf(args[0]) == pgUnknown {
			// PostgreSQL's unnest(anyarray) and unnest(tsvector) both take
			// an unknown literal
			return nil, sqlerr.New(sqlerr.AmbiguousFunction, "function unnest(unknown) is not unique").
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
		}
	case "_pg_expandarray":
		if len(args) == 1 && args[0].Kind == types.Array {
			ret := types.T{Kind: types.Row, Fields: []types.Field{{Name: "x", Type: args[0].Elem.Nullable()}, {Name: "n", Type: types.Int32Type}}}
			return &SetFunc{Name: lname, Args: []types.T{args[0].Nullable()}, Ret: ret, Rows: expandArrayRows}, nil
		}
		if len(args) == 1 && pgTypeOf(args[0]) == pgUnknown {
			return nil, sqlerr.New(sqlerr.IndeterminateDatatype, "could not determine polymorphic type because input has type unknown")
		}
	case "pg_listening_channels":
		if len(args) == 0 {
			return &SetFunc{Name: lname, Ret: tText, Rows: listeningChannelRows}, nil // notify.go
		}
	case "pg_options_to_table":
		if len(args) == 1 && (args[0].Kind == types.Array && pgTypeOf(*args[0].Elem) == pgText || pgTypeOf(args[0]) == pgUnknown || args[0].Kind == types.Null) {
			return &SetFunc{Name: lname, Args: []types.T{types.ArrayOf(tText)}, Ret: optionsRowType, Rows: optionsToTableRows}, nil
		}
	case "pg_tablespace_databases":
		if len(args) == 1 && canCoerce(pgTypeOf(args[0]), pgOid) {
			return &SetFunc{Name: lname, Args: []types.T{tOid}, Ret: tOid, Rows: tablespaceDatabaseRows}, nil
		}
	case "pg_timezone_names":
		if len(args) == 0 {
			return &SetFunc{Name: lname, Ret: timezoneNamesRowType, Rows: timezoneNameRows}, nil
		}
	case "pg_timezone_abbrevs":
		if len(args) == 0 {
			return &SetFunc{Name: lname, Ret: timezoneAbbrevsRowType, Rows: timezoneAbbrevRows}, nil
		}
	case "pg_get_keywords":
		if len(args) == 0 {
			return &SetFunc{Name: lname, Ret: keywordRowType, Rows: keywordRows}, nil
		}
	case "pg_partition_tree":
		if len(args) == 1 && (args[0].Variant == types.RegClass || pgTypeOf(args[0]) == pgUnknown || args[0].Kind == types.Int32 || args[0].Kind == types.Int64 || args[0].Kind == types.Oid) {
			return &SetFunc{Name: lname, Args: []types.T{types.RegOf(types.RegClass)}, Ret: partitionTreeRowType, Rows: partitionTreeRows}, nil
		}
	case "pg_partition_ancestors":
		// the relation and its ancestors when it is a partition or a
		// partitioned table (partitiontree.go); no rows for any other
		if len(args) == 1 && (args[0].Variant == types.RegClass || pgTypeOf(args[0]) == pgUnknown || args[0].Kind == types.Int32 || args[0].Kind == types.Int64 || args[0].Kind == types.Oid) {
			regclass := types.RegOf(types.RegClass)
			return &SetFunc{Name: lname, Args: []types.T{regclass}, Ret: regclass, OutName: "relid", Rows: partitionAncestorRows}, nil
		}
	case "generate_series":
		if len(args) == 2 || len(args) == 3 {
			return resolveSeries(args) // series.go
		}
	case "generate_subscripts":
		if (len(args) == 2 || len(args) == 3) && args[0].Kind == types.Array && canCoerce(pgTypeOf(args[1]), pgInt4) &&
			(len(args) == 2 || canCoerce(pgTypeOf(args[2]), pgBool)) {
			want := []types.T{args[0].Nullable(), types.Int32Type}
			if len(args) == 3 {
				want = append(want, types.BoolType)
			}
			return &SetFunc{Name: lname, Args: want, Ret: types.Int32Type, Rows: mdSubscriptRows(arrayDepth(args[0]))}, nil
		}
	case "json_populate_recordset", "jsonb_populate_recordset":
		row, want, err := ResolvePopulate(lname, args) // jsonpopulate.go
		if err != nil {
			return nil, err
		}
		return PopulateRecordSet(lname, row, true, len(want)), nil
	case "regexp_matches", "regexp_split_to_table":
		if f := resolveRegexSetFunc(lname, args); f != nil {
			return f, nil
		}
	case "string_to_table":
		if f := resolveStringToTable(args); f != nil { // strtotable.go
			return f, nil
		}
	default:
		if f := resolveJSONSetFunc(lname, args); f != nil {
			return f, nil
		}
		if f := resolveJSONPathSetFunc(lname, args); f != nil {
			return f, nil
		}
	}
	return nil, undefinedFunction(lname, args)
}

func none() (any, bool, error) { return nil, false, nil }

func unnestRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	arr, _ := args[0].([]any)
	i := 0
	return func() (any, bool, error) {
		if i >= len(arr) {
			return nil, false, nil
		}
		i++
		return arr[i-1], true, nil
	}, nil
}

// expandArrayRows is _pg_expandarray: (element, its 1-based position) for
// each element, whatever the array's lower bound (int2vector's is 0).
func expandArrayRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	arr, _ := args[0].([]any)
	i := 0
	return func() (any, bool, error) {
		if i >= len(arr) {
			return nil, false, nil
		}
		i++
		return []any{arr[i-1], int64(i)}, true, nil
	}, nil
}

// seriesRows is generate_series over integers of type t: start, start +
// step, ... while not past stop (none for a NULL argument); a zero step
// is 22023, and the series stops before overflowing t.
func seriesRows(t types.T) func(_ context.Context, args []any) (func() (any, bool, error), error) {
	lo, hi := types.IntRange(t.Kind)
	return func(_ context.Context, args []any) (func() (any, bool, error), error) {
		for _, a := range args {
			if a == nil {
				return none, nil
			}
		}
		cur, stop, step := args[0].(int64), args[1].(int64), int64(1)
		if len(args) == 3 {
			step = args[2].(int64)
		}
		if step == 0 {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "step size cannot equal zero")
		}
		done := false
		return func() (any, bool, error) {
			if done || (step > 0 && cur > stop) || (step < 0 && cur < stop) {
				return nil, false, nil
			}
			v := cur
			if (step > 0 && cur > hi-step) || (step < 0 && cur < lo-step) {
				done = true // the next value would overflow: v is the last
			} else {
				cur += step
			}
			return v, true, nil
		}, nil
	}
}

// noRows is a set-returning function's empty result.
func noRows(context.Context, []any) (func() (any, bool, error), error) {
	return func() (any, bool, error) { return nil, false, nil }, nil
}
