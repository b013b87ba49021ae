package coverage

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/sqlgate/sqlgate/tests/difftest"
)

// Kind is how a signature is called.
type Kind string

// The kinds of entry in the table.
const (
	KindFunction     Kind = "function"
	KindSetReturning Kind = "set-returning"
	KindAggregate    Kind = "aggregate"
	KindOrderedSet   Kind = "ordered-set"
	KindHypothetical Kind = "hypothetical-set"
	KindWindow       Kind = "window"
	KindOperator     Kind = "operator"
)

// Signature is one function overload or operator of PostgreSQL 15.
type Signature struct {
	Category string
	Kind     Kind
	Name     string
	// Args are the argument types' pg_type names (typname), in order; for
	// an operator the left (absent for a prefix operator) and right types.
	Args []string
	// Display is the identity argument list as PostgreSQL prints it
	// (pg_get_function_identity_arguments), or "left op right".
	Display string
	Result  string
	// Variadic: the last argument is VARIADIC (its type is the element
	// type, or "any").
	Variadic bool
	// DirectArgs counts an ordered-set aggregate's direct arguments.
	DirectArgs int
	// Immutable: the result depends on the arguments only, so the
	// differential test compares values (not only types and SQLSTATEs).
	Immutable bool
}

// Key identifies a signature across runs.
func (s *Signature) Key() string {
	return string(s.Kind) + " " + s.Name + "(" + s.Display + ")"
}

// scopeTypes are the argument and result types of the categories in scope
// (array types of these are in scope too).
var scopeTypes = []string{
	"bool", "int2", "int4", "int8", "float4", "float8", "numeric", "text", "varchar", "bpchar", "name", "char", "bytea",
	"date", "time", "timetz", "timestamp", "timestamptz", "interval", "json", "jsonb", "jsonpath", "uuid", "inet", "cidr", "macaddr", "macaddr8", "money",
	"int4range", "int8range", "numrange", "daterange", "tsrange", "tstzrange", "anyrange", "anycompatiblerange",
	"oid", "regclass", "regtype", "regproc", "regprocedure", "regnamespace", "regrole",
	"any", "anyelement", "anyarray", "anynonarray", "anycompatible", "anycompatiblearray", "anycompatiblenonarray", "record", "void",
}

// internalDescription matches pg_description texts of functions that are
// PostgreSQL's machinery, not something a user calls.
const internalDescription = `^(I/O|hash|less-equal-greater|aggregate .* function|.*support|\(internal\)|for use by pg_upgrade|implementation of .* operator|smaller of two|larger of two|deprecated|matches LIKE expression|does not match LIKE expression)`

// internalName matches functions in scope by type that are internal
// aliases or belong to categories out of scope (large objects, sequences,
// text search, XML, index maintenance, advisory locks, replication).
var internalName = regexp.MustCompile(`^(amvalidate|brin_.*|bt.*image|.*_subdiff|.*range_canonical|range_intersect_agg_transfn|dexp|dlog1|dlog10|dround|dtrunc|numeric_(div_trunc|exp|inc|ln|log|sqrt)|int[48](inc|dec).*|nameconcatoid|textlen|like|notlike|similar_escape|gin_.*|lo_.*|loread|lowrite|plpgsql_validator|ts_.*|xml_.*|currval|nextval|setval|lastval)$`)

// systemInfo is the allow-list of pg_* functions: the system information
// functions that clients and BI tools call (PostgreSQL 15 documentation
// §9.26 and the size functions of §9.27.7). Other pg_* functions are
// administration, statistics views and replication, out of scope.
var systemInfo = regexp.MustCompile(`^pg_(backend_pid|blocking_pids|conf_load_time|my_temp_schema|is_other_temp_schema|jit_available|listening_channels|postmaster_start_time|trigger_depth|.*_is_visible|get_(constraintdef|functiondef|function_arguments|function_identity_arguments|function_result|indexdef|keywords|ruledef|serial_sequence|statisticsobjdef|triggerdef|userbyid|viewdef)|index_column_has_property|index_has_property|indexam_has_property|options_to_table|tablespace_databases|tablespace_location|typeof|collation_for|describe_object|encoding_to_char|client_encoding|is_in_recovery|(total_)?relation_size|table_size|indexes_size|database_size|size_pretty|size_bytes|column_size|relation_is_updatable|column_is_updatable|sleep|has_role|timezone_names|timezone_abbrevs|current_xact_id|cancel_backend|terminate_backend)$`)

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "('" + x + "')"
	}
	return strings.Join(q, ",")
}

// scopeCTE defines ok(oid): the pg_type OIDs in scope.
func scopeCTE() string {
	return `WITH scope(t) AS (VALUES ` + quoteList(scopeTypes) + `),
ok AS (SELECT t.oid FROM pg_type t WHERE t.typname IN (SELECT t FROM scope)
  OR (t.typelem <> 0 AND t.typname LIKE '\_%' AND (SELECT e.typname FROM pg_type e WHERE e.oid = t.typelem) IN (SELECT t FROM scope)))
`
}

// procQuery lists the functions in scope, one row per signature.
func procQuery() string {
	return scopeCTE() + `SELECT p.proname, p.prokind::text, p.proretset, p.provolatile::text, coalesce(a.aggkind::text, ''),
  coalesce(a.aggnumdirectargs, 0), p.provariadic <> 0,
  coalesce((SELECT string_agg(t.typname, ',' ORDER BY o) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY u(a, o) JOIN pg_type t ON t.oid = u.a), ''),
  pg_get_function_identity_arguments(p.oid), format_type(p.prorettype, NULL)
FROM pg_proc p
LEFT JOIN pg_description d ON d.objoid = p.oid AND d.classoid = 'pg_proc'::regclass AND d.objsubid = 0
LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.pronamespace = 'pg_catalog'::regnamespace
  AND p.prorettype IN (SELECT oid FROM ok)
  AND NOT EXISTS (SELECT 1 FROM unnest(p.proargtypes::oid[]) a WHERE a NOT IN (SELECT oid FROM ok))
  AND coalesce(d.description, '') !~ '` + internalDescription + `'
  AND p.oid NOT IN (SELECT castfunc FROM pg_cast)
ORDER BY 1, 9`
}

// operQuery lists the operators in scope.
func operQuery() string {
	return scopeCTE() + `SELECT o.oprname, o.oprkind::text, coalesce(l.typname, ''), r.typname,
  coalesce(format_type(o.oprleft, NULL), ''), format_type(o.oprright, NULL), format_type(o.oprresult, NULL), p.provolatile::text
FROM pg_operator o
JOIN pg_type r ON r.oid = o.oprright
LEFT JOIN pg_type l ON l.oid = o.oprleft
JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprnamespace = 'pg_catalog'::regnamespace
  AND o.oprright IN (SELECT oid FROM ok) AND (o.oprleft = 0 OR o.oprleft IN (SELECT oid FROM ok))
  AND o.oprresult IN (SELECT oid FROM ok)
  AND coalesce(obj_description(o.oid, 'pg_operator'), '') !~ '^deprecated'
  AND o.oprname NOT LIKE '*%'
ORDER BY 1, 5, 6`
}

// Load reads the signatures in scope from a PostgreSQL 15 session.
func Load(ctx context.Context, pg *difftest.Session) ([]*Signature, error) {
	o := pg.Run(ctx, procQuery())
	if o.Err != nil {
		return nil, fmt.Errorf("pg_proc: %s (%s)", o.Err.Message, o.Err.Code)
	}
	var sigs []*Signature
	for _, r := range o.Rows {
		name := r[0].Text
		if strings.HasPrefix(name, "pg_") && !systemInfo.MatchString(name) || internalName.MatchString(name) {
			continue
		}
		s := &Signature{Name: name, Display: r[8].Text, Result: r[9].Text, Variadic: r[6].Text == "t", Immutable: r[3].Text == "i"}
		if r[7].Text != "" {
			s.Args = strings.Split(r[7].Text, ",")
		}
		switch {
		case r[1].Text == "w":
			s.Kind = KindWindow
		case r[4].Text == "o":
			s.Kind = KindOrderedSet
		case r[4].Text == "h":
			s.Kind = KindHypothetical
		case r[1].Text == "a":
			s.Kind = KindAggregate
		case r[2].Text == "t":
			s.Kind = KindSetReturning
		default:
			s.Kind = KindFunction
		}
		if s.Kind == KindOrderedSet || s.Kind == KindHypothetical {
			fmt.Sscan(r[5].Text, &s.DirectArgs)
		}
		s.Category = categoryOf(s)
		sigs = append(sigs, s)
	}
	o = pg.Run(ctx, operQuery())
	if o.Err != nil {
		return nil, fmt.Errorf("pg_operator: %s (%s)", o.Err.Message, o.Err.Code)
	}
	for _, r := range o.Rows {
		s := &Signature{Kind: KindOperator, Name: r[0].Text, Result: r[6].Text, Immutable: r[7].Text == "i"}
		if r[1].Text == "l" {
			s.Args = []string{r[3].Text}
			s.Display = r[0].Text + " " + r[5].Text
		} else {
			s.Args = []string{r[2].Text, r[3].Text}
			s.Display = r[4].Text + " " + r[0].Text + " " + r[5].Text
		}
		s.Category = categoryOf(s)
		sigs = append(sigs, s)
	}
	sort.SliceStable(sigs, func(i, j int) bool {
		if sigs[i].Category != sigs[j].Category {
			return sigs[i].Category < sigs[j].Category
		}
		return sigs[i].Key() < sigs[j].Key()
	})
	return sigs, nil
}

var (
	statsName    = regexp.MustCompile(`^(corr|covar_.*|regr_.*|stddev.*|var_.*|variance)$`)
	regexName    = regexp.MustCompile(`^(regexp_.*|similar_to_escape|like_escape)$`)
	encodingName = regexp.MustCompile(`^(encode|decode|convert|convert_from|convert_to|md5|sha224|sha256|sha384|sha512|to_hex|to_ascii|getdatabaseencoding|pg_client_encoding|pg_encoding_to_char|unistr|normalize|is_normalized)$`)
	formatName   = regexp.MustCompile(`^(to_char|to_date|to_number|to_timestamp|format)$`)
	condName     = regexp.MustCompile(`^(num_nulls|num_nonnulls)$`)
	sysName      = regexp.MustCompile(`^(pg_.*|has_.*|current_.*|session_user|version|format_type|obj_description|col_description|shobj_description|to_reg.*|txid_.*|inet_.*|row_security_active|set_config)$`)
	regexOps     = regexp.MustCompile(`^(~|~\*|!~|!~\*|~~|~~\*|!~~|!~~\*)$`)
)

func hasType(s *Signature, pred func(string) bool) bool {
	for _, a := range s.Args {
		if pred(a) {
			return true
		}
	}
	return pred(typnameOfFormat(s.Result))
}

// typnameOfFormat maps the format_type names of results back to typnames
// well enough for categorising.
func typnameOfFormat(f string) string {
	switch {
	case strings.HasSuffix(f, "[]"):
		return "_" + typnameOfFormat(strings.TrimSuffix(f, "[]"))
	case strings.HasPrefix(f, "timestamp"), strings.HasPrefix(f, "time"), f == "date", f == "interval":
		return "date"
	case f == "json", f == "jsonb", f == "jsonpath":
		return "json"
	case f == "bytea":
		return "bytea"
	case f == "uuid":
		return "uuid"
	}
	return f
}

func isDateTime(t string) bool {
	switch strings.TrimPrefix(t, "_") {
	case "date", "time", "timetz", "timestamp", "timestamptz", "interval":
		return true
	}
	return false
}

func isJSON(t string) bool {
	switch strings.TrimPrefix(t, "_") {
	case "json", "jsonb", "jsonpath":
		return true
	}
	return false
}

func isArray(t string) bool {
	return strings.HasPrefix(t, "_") || t == "anyarray" || t == "anycompatiblearray"
}

func isNumber(t string) bool {
	switch t {
	case "int2", "int4", "int8", "float4", "float8", "numeric":
		return true
	}
	return false
}

func categoryOf(s *Signature) string {
	n := s.Name
	switch {
	case s.Kind == KindOperator && regexOps.MatchString(n):
		return "regex"
	case s.Kind == KindOrderedSet, s.Kind == KindHypothetical:
		return "aggregate (ordered-set)"
	case statsName.MatchString(n):
		return "statistics"
	case s.Kind == KindWindow:
		return "window"
	case s.Kind == KindAggregate && (strings.HasPrefix(n, "json")):
		return "json"
	case s.Kind == KindAggregate:
		return "aggregate"
	case regexName.MatchString(n):
		return "regex"
	case sysName.MatchString(n):
		return "system information"
	case condName.MatchString(n):
		return "conditional"
	case formatName.MatchString(n):
		return "formatting"
	case encodingName.MatchString(n):
		return "encoding"
	case strings.HasPrefix(n, "json") || hasType(s, isJSON):
		return "json"
	case n == "gen_random_uuid" || hasType(s, func(t string) bool { return strings.TrimPrefix(t, "_") == "uuid" }):
		return "uuid"
	case hasType(s, func(t string) bool {
		t = strings.TrimPrefix(t, "_")
		return t == "inet" || t == "cidr" || t == "macaddr" || t == "macaddr8"
	}):
		return "network address"
	case hasType(s, func(t string) bool { return strings.TrimPrefix(t, "_") == "money" }):
		return "money"
	case hasType(s, func(t string) bool { return strings.HasSuffix(strings.TrimPrefix(t, "_"), "range") }):
		return "range"
	case hasType(s, isArray):
		return "array"
	case hasType(s, isDateTime) || n == "now" || strings.HasSuffix(n, "_timestamp") || n == "timeofday":
		return "date/time"
	case hasType(s, func(t string) bool { return t == "bytea" }):
		return "binary string"
	case hasType(s, func(t string) bool {
		return t == "text" || t == "varchar" || t == "bpchar" || t == "name" || t == "char"
	}):
		return "string"
	case hasType(s, isNumber) || n == "pi" || n == "random" || n == "setseed":
		return "math"
	case hasType(s, func(t string) bool { return t == "bool" }):
		return "logical"
	}
	return "other"
}
