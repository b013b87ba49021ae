package coverage

import (
	"fmt"
	"strings"
)

// sqlType is the SQL spelling of a pg_type name in scope, for casts.
func sqlType(typname string) string {
	if strings.HasPrefix(typname, "_") {
		return sqlType(typname[1:]) + "[]"
	}
	switch typname {
	case "bool":
		return "boolean"
	case "int2":
		return "smallint"
	case "int4":
		return "integer"
	case "int8":
		return "bigint"
	case "float4":
		return "real"
	case "float8":
		return "double precision"
	case "bpchar":
		return "character"
	case "varchar":
		return "character varying"
	case "char":
		return `"char"`
	case "timestamptz":
		return "timestamp with time zone"
	case "timetz":
		return "time with time zone"
	case "timestamp":
		return "timestamp without time zone"
	case "time":
		return "time without time zone"
	}
	return typname
}

// concrete maps a polymorphic pseudo-type to the type its samples have
// (integer for elements, integer[] for arrays, so that the arguments of
// one call agree); other types map to themselves.
func concrete(typname string) string {
	switch typname {
	case "any", "anyelement", "anynonarray", "anycompatible", "anycompatiblenonarray":
		return "int4"
	case "anyarray", "anycompatiblearray":
		return "_int4"
	case "anyrange", "anycompatiblerange":
		return "int4range"
	}
	return typname
}

// sampleLiteral is one ordinary non-NULL value of a type, as SQL.
func sampleLiteral(typname string) string {
	switch typname {
	case "record":
		return "ROW(1, 'abc')"
	case "void":
		return "NULL"
	}
	t := concrete(typname)
	if strings.HasPrefix(t, "_") {
		return "ARRAY[" + sampleLiteral(t[1:]) + "]::" + sqlType(t)
	}
	var v string
	switch t {
	case "bool":
		return "true"
	case "int4":
		return "3"
	case "int2", "int8":
		v = "3"
	case "float4", "float8", "numeric":
		v = "'2.5'"
	case "text", "varchar", "bpchar", "name":
		v = "'abc'"
	case "char":
		v = "'a'"
	case "bytea":
		v = `'\x616263'`
	case "date":
		v = "'2024-01-02'"
	case "time":
		v = "'12:34:56'"
	case "timetz":
		v = "'12:34:56+02'"
	case "timestamp":
		v = "'2024-01-02 12:34:56'"
	case "timestamptz":
		v = "'2024-01-02 12:34:56+00'"
	case "interval":
		v = "'1 day 02:03:04'"
	case "json", "jsonb":
		v = `'{"a": 1, "b": [1, 2]}'`
	case "jsonpath":
		v = "'$.a'"
	case "uuid":
		v = "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'"
	case "inet":
		v = "'192.168.1.5/24'"
	case "cidr":
		v = "'10.0.0.0/8'"
	case "money":
		v = "'1234.56'"
	case "macaddr":
		v = "'08:00:2b:01:02:03'"
	case "macaddr8":
		v = "'08:00:2b:01:02:03:04:05'"
	case "int4range", "int8range":
		v = "'[1,5)'"
	case "numrange":
		v = "'[1.5,2.5]'"
	case "daterange":
		v = "'[2024-01-02,2024-02-01)'"
	case "tsrange":
		v = "'[2024-01-02 12:34:56,2024-01-03)'"
	case "tstzrange":
		v = "'[2024-01-02 12:34:56+00,)'"
	case "oid":
		v = "'1259'"
	case "regclass":
		v = "'pg_class'"
	case "regtype":
		v = "'integer'"
	case "regproc":
		v = "'now'"
	case "regprocedure":
		v = "'now()'"
	case "regnamespace":
		v = "'pg_catalog'"
	case "regrole":
		return "current_user::text::regrole"
	default:
		v = "NULL"
	}
	return v + "::" + sqlType(t)
}

// textOverrides gives meaningful text arguments (by position) to functions
// whose text argument is a keyword, a format or a flag string, so that the
// sample call exercises the function rather than its argument check.
var textOverrides = map[string]map[int]string{
	"encode":                 {1: "'base64'"},
	"int4range":              {2: "'[]'"},
	"int8range":              {2: "'(]'"},
	"numrange":               {2: "'()'"},
	"daterange":              {2: "'[]'"},
	"tsrange":                {2: "'(]'"},
	"tstzrange":              {2: "'[)'"},
	"decode":                 {0: "'YWJj'", 1: "'base64'"},
	"convert_to":             {1: "'UTF8'"},
	"convert_from":           {1: "'UTF8'"},
	"convert":                {1: "'UTF8'", 2: "'LATIN1'"},
	"date_trunc":             {0: "'day'", 2: "'UTC'"},
	"date_part":              {0: "'year'"},
	"extract":                {0: "'year'"},
	"date_bin":               {},
	"to_char":                {1: "'YYYY-MM-DD HH24:MI:SS'"},
	"to_date":                {0: "'2024-01-02'", 1: "'YYYY-MM-DD'"},
	"to_timestamp":           {0: "'2024-01-02'", 1: "'YYYY-MM-DD'"},
	"to_number":              {0: "'12.5'", 1: "'99D9'"},
	"timezone":               {0: "'UTC'"},
	"current_setting":        {0: "'TimeZone'"},
	"set_config":             {0: "'application_name'"},
	"make_timestamptz":       {6: "'UTC'"},
	"regexp_replace":         {3: "'g'", 5: "'i'"},
	"regexp_match":           {2: "'i'"},
	"regexp_matches":         {2: "'g'"},
	"regexp_like":            {2: "'i'"},
	"regexp_split_to_array":  {2: "'i'"},
	"regexp_split_to_table":  {2: "'i'"},
	"regexp_count":           {3: "'i'"},
	"regexp_instr":           {5: "'i'"},
	"regexp_substr":          {4: "'i'"},
	"format":                 {0: "'%s-%s'"},
	"to_regclass":            {0: "'pg_class'"},
	"to_regtype":             {0: "'integer'"},
	"to_regproc":             {0: "'now'"},
	"to_regprocedure":        {0: "'now()'"},
	"to_regnamespace":        {0: "'pg_catalog'"},
	"normalize":              {1: "'NFC'"},
	"is_normalized":          {1: "'NFC'"},
	"jsonb_set_lax":          {4: "'use_json_null'"},
	"pg_collation_for":       {0: "'abc'"},
	"pg_get_viewdef":         {0: "'pg_tables'"},
	"pg_get_serial_sequence": {0: "'pg_class'", 1: "'oid'"},
}

// privilegeObject is the object argument of has_*_privilege(…, object,
// privilege) and the privilege asked about.
var privilegeObject = map[string][2]string{
	"has_table_privilege":                {"'pg_class'", "'SELECT'"},
	"has_any_column_privilege":           {"'pg_class'", "'SELECT'"},
	"has_column_privilege":               {"'pg_class'", "'SELECT'"},
	"has_schema_privilege":               {"'pg_catalog'", "'USAGE'"},
	"has_database_privilege":             {"current_database()", "'CONNECT'"},
	"has_function_privilege":             {"'now()'", "'EXECUTE'"},
	"has_language_privilege":             {"'sql'", "'USAGE'"},
	"has_sequence_privilege":             {"'pg_class'", "'USAGE'"},
	"has_type_privilege":                 {"'integer'", "'USAGE'"},
	"has_tablespace_privilege":           {"'pg_default'", "'CREATE'"},
	"has_foreign_data_wrapper_privilege": {"'abc'", "'USAGE'"},
	"has_server_privilege":               {"'abc'", "'USAGE'"},
	"has_parameter_privilege":            {"'TimeZone'", "'SET'"},
	"pg_has_role":                        {"current_user", "'MEMBER'"},
}

// numberOverrides keeps functions that sleep or size their output by an
// argument from sleeping or allocating: their numeric arguments are 0 or 1.
var sizeBound = map[string]bool{
	"pg_sleep": true, "pg_sleep_for": true, "pg_sleep_until": true, "repeat": true, "lpad": true, "rpad": true,
	"generate_series": true, "generate_subscripts": true, "array_fill": true, "factorial": true,
}

// sampleArgs are the sample call's arguments.
func sampleArgs(s *Signature) []string {
	args := make([]string, len(s.Args))
	for i, t := range s.Args {
		args[i] = sampleLiteral(t)
		if o, ok := textOverrides[s.Name][i]; ok && (t == "text" || t == "any") {
			args[i] = o + "::text"
		}
		if s.Name == "pg_sleep" || s.Name == "pg_sleep_for" {
			args[i] = "'0'::" + sqlType(t)
		}
	}
	if s.Kind == KindOrderedSet && strings.HasPrefix(s.Name, "percentile_") && len(args) > 0 {
		// The fraction must lie in [0, 1].
		if strings.HasPrefix(s.Args[0], "_") {
			args[0] = "ARRAY[0.25, 0.5]::double precision[]"
		} else {
			args[0] = "0.5::double precision"
		}
	}
	if po, ok := privilegeObject[s.Name]; ok {
		// (user,) object, privilege: the object is the first text argument,
		// or the column's table and name for has_column_privilege.
		n := len(args)
		if s.Args[n-1] == "text" {
			args[n-1] = po[1]
		}
		for i := 0; i < n-1; i++ {
			if s.Args[i] == "text" {
				args[i] = po[0] + "::text"
				if s.Name == "has_column_privilege" && i == n-2 && i > 0 && s.Args[i-1] == "text" {
					args[i] = "'oid'"
				}
			}
			if s.Args[i] == "name" && i == 0 {
				args[i] = "current_user"
			}
		}
	}
	if s.Name == "to_char" && len(args) == 2 && isNumber(s.Args[0]) {
		args[1] = "'999D99'::text"
	}
	if s.Name == "pg_sleep_until" && len(args) == 1 {
		args[0] = "'2000-01-01'::timestamptz"
	}
	if s.Variadic && len(args) > 0 {
		// A VARIADIC array parameter is called with its elements: two of them
		// (json_build_object needs pairs).
		last := args[len(args)-1]
		t := s.Args[len(s.Args)-1]
		if strings.HasPrefix(t, "_") {
			last = sampleLiteral(t[1:])
		}
		args = append(args[:len(args)-1], last, last)
	}
	return args
}

// noParens are the SQL-standard niladic functions, called without
// parentheses.
var noParens = map[string]bool{"current_user": true, "session_user": true, "current_role": true, "user": true, "current_catalog": true}

// Call renders a call of s with the given argument expressions, as a
// complete SELECT statement.
func Call(s *Signature, args []string) string {
	list := strings.Join(args, ", ")
	if s.Name == "json_to_record" || s.Name == "jsonb_to_record" || s.Name == "json_to_recordset" || s.Name == "jsonb_to_recordset" {
		return fmt.Sprintf("SELECT * FROM %s(%s) AS f(a integer, b text)", s.Name, list)
	}
	if strings.HasPrefix(s.Name, "json") && strings.Contains(s.Name, "_populate_record") && len(args) > 1 {
		// the row type comes from the first argument: a record's from a
		// column definition list
		rest := append([]string{"NULL::record"}, args[1:]...)
		return fmt.Sprintf("SELECT * FROM %s(%s) AS f(a integer, b text)", s.Name, strings.Join(rest, ", "))
	}
	switch s.Kind {
	case KindOperator:
		if len(args) == 1 {
			return fmt.Sprintf("SELECT %s (%s)", s.Name, args[0])
		}
		return fmt.Sprintf("SELECT (%s) %s (%s)", args[0], s.Name, args[1])
	case KindSetReturning:
		return fmt.Sprintf("SELECT * FROM %s(%s) AS f LIMIT 20", s.Name, list)
	case KindWindow:
		return fmt.Sprintf("SELECT %s(%s) OVER ()", s.Name, list)
	case KindOrderedSet, KindHypothetical:
		d := s.DirectArgs
		if d > len(args) {
			d = len(args)
		}
		agg := args[d:]
		if s.Kind == KindHypothetical || len(agg) == 0 {
			// Hypothetical-set aggregates take as many ordering columns as
			// direct arguments (VARIADIC "any" on both sides).
			agg = args[:d]
		}
		return fmt.Sprintf("SELECT %s(%s) WITHIN GROUP (ORDER BY %s)", s.Name, strings.Join(args[:d], ", "), strings.Join(agg, ", "))
	}
	if s.Name == "count" && len(args) == 0 {
		return "SELECT count(*)"
	}
	if s.Name == "timestamp" {
		return fmt.Sprintf(`SELECT "timestamp"(%s)`, list)
	}
	if noParens[s.Name] && len(args) == 0 {
		return "SELECT " + s.Name
	}
	switch s.Name {
	case "overlay":
		if len(args) == 4 {
			return fmt.Sprintf("SELECT overlay(%s placing %s from %s for %s)", args[0], args[1], args[2], args[3])
		}
		if len(args) == 3 {
			return fmt.Sprintf("SELECT overlay(%s placing %s from %s)", args[0], args[1], args[2])
		}
	case "position":
		if len(args) == 2 {
			return fmt.Sprintf("SELECT position(%s in %s)", args[1], args[0])
		}
	case "extract":
		if len(args) == 2 {
			return fmt.Sprintf("SELECT extract(year from %s)", args[1])
		}
	case "normalize":
		if len(args) == 2 {
			return fmt.Sprintf("SELECT normalize(%s, NFC)", args[0])
		}
	case "is_normalized":
		if len(args) == 2 {
			return fmt.Sprintf("SELECT %s IS NFC NORMALIZED", args[0])
		}
	}
	return fmt.Sprintf("SELECT %s(%s)", s.Name, list)
}
