package lower

import (
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/pgtypes"
)

// The binder calls some of PostgreSQL's operators and functions by names
// of sqlgate's own, which pg_proc has no row for: the rewrite's operator
// markers (|/ is pg__op_sqrt, -> pg__json_get), ~ and ~* (regex_match),
// ILIKE (ilike), inet's and money's arithmetic, trim(x) as the parser
// spells it, and x op ANY|ALL (array) ("= any"). callVolatility asked
// pg_proc by that name and found nothing, so plan_time_folding never
// computed them: SELECT |/ -1.0 FROM t WHERE false, or
// (trim(trim('b')))::int over an empty table, raised nothing where
// PostgreSQL's eval_const_expressions computes the call (its operator's
// oprcode, or the ScalarArrayOpExpr's) at planning and raises its error.

// syntheticCalls are the names with the pg_proc functions each stands
// for (the operators' oprcode). Every one of them is immutable in
// PostgreSQL 15, which TestSyntheticCallsImmutable checks against
// pg_proc, and TestSyntheticCallsListed checks that every library
// function without a pg_proc row is here or in notFolded.
var syntheticCalls = map[string][]string{
	"trim":                  {"btrim"},
	"regex_match":           {"textregexeq", "texticregexeq"},
	"ilike":                 {"texticlike", "like_escape"},
	"pg__op_abs":            {"int2abs", "int4abs", "int8abs", "float4abs", "float8abs", "numeric_abs"},
	"pg__op_sqrt":           {"dsqrt"},
	"pg__op_cbrt":           {"dcbrt"},
	"pg__op_not":            {"int2not", "int4not", "int8not"},
	"pg__op_xor":            {"int2xor", "int4xor", "int8xor"},
	"pg__op_starts_with":    {"starts_with"},
	"pg__op_overlap":        {"arrayoverlap", "range_overlaps", "tsquery_and"},
	"pg__op_delete_path":    {"jsonb_delete_path"},
	"pg__op_pattern_lt":     {"text_pattern_lt", "bpchar_pattern_lt"},
	"pg__op_pattern_le":     {"text_pattern_le", "bpchar_pattern_le"},
	"pg__op_pattern_ge":     {"text_pattern_ge", "bpchar_pattern_ge"},
	"pg__op_pattern_gt":     {"text_pattern_gt", "bpchar_pattern_gt"},
	"pg__op_path_exists":    {"jsonb_path_exists_opr"},
	"pg__op_path_match":     {"jsonb_path_match_opr"},
	"pg__op_tsquery_not":    {"tsquery_not"},
	"pg__op_tsquery_phrase": {"tsquery_phrase"},
	"pg__json_get":          {"json_object_field", "json_array_element", "jsonb_object_field", "jsonb_array_element"},
	"pg__json_get_text":     {"json_object_field_text", "json_array_element_text", "jsonb_object_field_text", "jsonb_array_element_text"},
	"pg__json_path":         {"json_extract_path", "jsonb_extract_path"},
	"pg__json_path_text":    {"json_extract_path_text", "jsonb_extract_path_text"},
	// (text)::jsonb -> k fused into one call (binder/jsonfuse.go): the
	// cast's jsonb_in and the operator
	"pg__jsonbtext_get":       {"jsonb_in", "jsonb_object_field", "jsonb_array_element"},
	"pg__jsonbtext_get_text":  {"jsonb_in", "jsonb_object_field_text", "jsonb_array_element_text"},
	"pg__jsonbtext_path":      {"jsonb_in", "jsonb_extract_path"},
	"pg__jsonbtext_path_text": {"jsonb_in", "jsonb_extract_path_text"},
	"pg__inet_plus":           {"inetpl", "int8pl_inet"},
	"pg__inet_minus":          {"inetmi_int8", "inetmi"},
	"pg__money_add":           {"cash_pl"},
	"pg__money_sub":           {"cash_mi"},
	"pg__money_mul":           {"cash_mul_flt4", "cash_mul_flt8", "cash_mul_int2", "cash_mul_int4", "cash_mul_int8", "flt4_mul_cash", "flt8_mul_cash", "int2_mul_cash", "int4_mul_cash", "int8_mul_cash"},
	"pg__money_div":           {"cash_div_cash", "cash_div_flt4", "cash_div_flt8", "cash_div_int2", "cash_div_int4", "cash_div_int8"},
}

// notFolded are the library's other functions without a pg_proc row of
// their name, and why plan_time_folding leaves them: SQL-value functions
// (PostgreSQL's SQLValueFunction, stable), nodes the folder computes
// itself, aggregates' names, and the reg* types' I/O (stable).
var notFolded = map[string]string{
	"coalesce": "a CoalesceExpr: foldCoalesce", "greatest": "a MinMaxExpr: callVolatility", "least": "a MinMaxExpr: callVolatility",
	"current_catalog": "SQLValueFunction", "current_date": "SQLValueFunction", "current_role": "SQLValueFunction",
	"current_time": "SQLValueFunction", "current_timestamp": "SQLValueFunction", "localtime": "SQLValueFunction",
	"localtimestamp": "SQLValueFunction", "user": "SQLValueFunction",
	"pg__array_max": "an aggregate's final step", "pg__array_min": "an aggregate's final step",
	"pg__json_agg": "aggregate", "pg__jsonb_agg": "aggregate", "pg__json_object_agg": "aggregate",
	"pg__jsonb_object_agg": "aggregate", "pg__json_object_agg_distinct": "aggregate",
	"pg__jsonb_object_agg_distinct": "aggregate", "pg__mode": "aggregate", "pg__percentile_cont": "aggregate",
	"pg__percentile_cont_interval": "aggregate", "pg__percentile_cont_interval_multi": "aggregate",
	"pg__percentile_cont_multi": "aggregate", "pg__percentile_disc": "aggregate",
	"pg__percentile_disc_multi": "aggregate", "pg__range_intersect_agg": "aggregate", "pg__range_agg": "aggregate",
	"regclass_in": "regclassin, stable", "regclass_out": "regclassout, stable",
	"regcollation_in": "stable", "regcollation_out": "stable", "regdictionary_in": "stable", "regdictionary_out": "stable",
	"regnamespace_in": "stable", "regnamespace_out": "stable", "regoper_in": "stable", "regoper_out": "stable",
	"regoperator_in": "stable", "regoperator_out": "stable", "regproc_in": "stable", "regproc_out": "stable",
	"regprocedure_in": "stable", "regprocedure_out": "stable", "regrole_in": "stable", "regrole_out": "stable",
	"regtype_in": "stable", "regtype_out": "stable",
}

// syntheticVolatility is the provolatile of a call by one of sqlgate's
// own names: 'i' for syntheticCalls; for x op ANY|ALL (array), the
// operator's oprcode's over x's type and the array's element type, as
// PostgreSQL's ScalarArrayOpExpr is folded when its function is
// immutable. ok false for any other name.
func syntheticVolatility(name string, x *binder.FuncCall) (byte, bool) {
	if _, ok := syntheticCalls[name]; ok {
		return 'i', true
	}
	op, quant, ok := strings.Cut(name, " ")
	if !ok || (quant != "any" && quant != "all") || len(x.Args) != 2 {
		return 0, false
	}
	if op == "!=" {
		op = "<>"
	}
	l, _, _ := pgtypes.OIDOf(x.Args[0].Type())
	r, _, _ := pgtypes.OIDOf(functions.ArrayElementType(x.Args[1].Type()))
	for _, o := range pgoper.ByName(op) {
		if o.Kind == 'b' && o.Left == l && o.Right == r {
			pp, ok := pgproc.Lookup(o.Code, []uint32{l, r})
			return pp.Volatile, ok
		}
	}
	return 0, false
}
