// Package functions is sqlgate's scalar function library: the overload
// catalog, PostgreSQL 15's function-resolution rules (Resolve; for a binary
// operator's declared overloads, oper_select_candidate's: ResolveOperator), type
// unification for CASE/COALESCE/UNION-like contexts (CommonType), and the
// kernels that evaluate each function over Arrow arrays, NULL-correct and
// with PostgreSQL's results and SQLSTATEs.
//
// It owns: the list of built-in scalar functions, their declared argument
// and result types, and their kernels; LIKE/ILIKE matching (bytea's LIKE by bytes); the `~`
// regular-expression helper (regex_match); PostgreSQL's array text input
// and output (ParseArray, FormatArray) and the array kernels the binder
// builds for ARRAY[..], subscripts, slices, op ANY/ALL (array) and array
// comparison (arrays.go); the set-returning functions (ResolveSetFunc:
// unnest, generate_series, generate_subscripts, _pg_expandarray,
// pg_get_keywords, pg_options_to_table, pg_tablespace_databases,
// pg_timezone_names, pg_timezone_abbrevs, pg_partition_tree; srf.go;
// and full text search's ts_parse, ts_token_type and ts_debug, tsearchsrf.go),
// which exec runs as FROM items and in SELECT lists; the system
// information functions about
// relations and objects (relprops.go: pg_relation_is_updatable and the
// index property functions; describeobj.go: pg_describe_object;
// identify.go: pg_identify_object and pg_identify_object_as_address;
// objaddress.go: pg_get_object_address, their inverse;
// relfiles.go: pg_relation_filenode, pg_relation_filepath,
// pg_filenode_relation and pg_tablespace_size, from the catalog's rows
// (CatalogRows); tsstat.go: ts_stat and ts_rewrite(query, select), which
// run the query they are given through Session.Query;
// partitiontree.go: pg_partition_root and pg_partition_tree);
// PostgreSQL 15's keyword table (keywords.go: pg_get_keywords and
// quote_ident); JSON output of values (rowjson.go: row_to_json, to_json,
// json_build_object, and the whole-row kernels the binder uses for a table
// alias used as a value, one of them NULL where an outer join made the row
// up); regproc/regprocedure input and output over the
// optional Procs catalog (regproc.go; regoper and regoperator over
// pg_operator's rows, regoper.go; regcollation and regdictionary over
// sqlgate's collations and text search dictionaries, which it lists as
// PostgreSQL 15's rows, regcollation.go); the bit string operators and
// functions over bit(n) and bit varying(n) (bitstring.go); inet's
// functions and operators (netfuncs.go: host, masklen, network,
// set_masklen, inet_merge, << <<= >> >>= && ~ & | + - and the rest);
// money's operators and functions and macaddr's and macaddr8's
// (moneyfuncs.go: cash.c's + - * / behind pg__money_add ...,
// cash_words, cashlarger, trunc, macaddr8_set7bit, ~ & |).
// the range types' constructors, functions and the functions behind
// their operators (ranges.go, one overload per range type), and the
// multirange types' (multirange.go: constructors, range_agg, unnest, the
// operators' functions named by their operands' kinds); the
// geometric types' functions and operators (geometric.go, its bodies in
// geometric_bodies.go, PostgreSQL's rows of them in geometric_defs.go;
// GeometricOperator resolves an operator among its overloads).
//
// It sits at the top level, not under exec, because the catalog belongs
// to the front end as much as to the executor: the binder resolves calls
// and types with it, exec runs its kernels, pgcatalog lists it in pg_proc,
// and pgwire's COPY reads array text with it (ParseArrayText, which it
// also lends types.ArrayInput for a record's array fields); none of
// them has to import another to reach it.
//
// It must not: import exec, binder, lower or pgwire (they call into this
// package, so importing them back would be a cycle); parse SQL (of sql it
// reads PostgreSQL's keyword table alone, keywords.go); cast
// arguments (the caller casts every argument to the types Resolve returns
// before calling a kernel); keep package-level mutable state (the catalog
// is built once and never changed).
//
// How a caller uses it:
//
//	f, argTypes, err := functions.Resolve("round", []types.T{x.Type(), types.Int32Type})
//	// cast each argument to argTypes[i]; collect constant argument values
//	ret, kernel := f.Bind(argTypes, consts) // ret: the exact result type
//	out, err := kernel(ctx, mem, arrays, n)
//
// Bind matters where PostgreSQL's result type depends on the inputs:
// GREATEST/LEAST/COALESCE (the common type: numeric(p,s) only when every
// input has that typmod). Arrays resolve by their elements (int[] and
// numeric[] are numeric[], int[] and text[] 42846; SamePGType for the
// array operators, which take one array type), json, jsonb and uuid are
// types of their own (OwnStringType), and array comparisons order
// elements as their type does (CompareValuesAs: jsonb's order, numeric
// by value). Numeric functions (abs, sign, round, trunc,
// ceil, floor, mod, div, sqrt, exp, ln, log, log10, power) run package
// types/numeric over numeric or DECIMAL(p,s) arguments and return
// unconstrained numeric, each value with the display scale PostgreSQL
// gives it. Session state the kernels need (the transaction and statement
// start times for now() and friends) arrives through the context
// (WithClock), and the session's identity, settings and TimeZone arrive
// through WithSession: LocationOf(ctx) is the zone in which timestamptz
// values are read by extract/date_part/date_trunc/to_char/age and rendered
// by concat/format, and in which localtimestamp and current_date are taken
// (UTC without a session); StyleOf(ctx) is the DateStyle, IntervalStyle
// and extra_float_digits values print under there (the one reader of
// them: CastText, ValueText, FormatArrayStyle and ElemTextStyle take it),
// the session's parsed Session.Style when it keeps one (the engine's
// does, parsed when a setting changes), read by a kernel once per batch.
//
// Known differences from PostgreSQL 15, by design or not yet done:
//   - numeric(p,s) is a Fluss DECIMAL(p,s) (p ≤ 38, decimal128), which has
//     no NaN: casting NaN to it is 0A000 (numeric without a typmod holds
//     NaN and the infinities, as in PostgreSQL).
//   - lower/upper/initcap/ilike use Unicode simple case mapping, which is
//     what PostgreSQL does under a UTF-8 locale such as C.UTF-8; a
//     database with the plain C locale maps only ASCII letters.
//     GREATEST/LEAST compare text byte-wise (the C collation).
//   - regular expressions (~, regexp_*, substring in regex.go) are parsed
//     as PostgreSQL's compiler reads them (regexparse.go: ARE, ERE and
//     BRE, directors, embedded options; every compile error is
//     PostgreSQL's REG_* message) and matched by PostgreSQL's rules
//     (regexengine.go): by Go's RE2 (written in its syntax by
//     regexemit.go) where RE2 finds the match PostgreSQL finds, and its
//     groups where the pattern splits a match one way only
//     (submatchSafe), by a backtracker on the parsed tree (regexbt.go)
//     for back-references, lookaround, word constraints, non-greedy and
//     mixed preferences and the other subexpressions' extents, run only
//     where the widened pattern (back-references as their groups'
//     contents, constraints dropped) matches, as PostgreSQL's DFA
//     pre-check; its step budget ends a pathological match with 2201B
//     "too complex", and a cancel stops it. jsonpath's like_regex runs
//     the same engine with jspConvertRegexFlags' flags.
//     Case-insensitive matching folds non-ASCII letters too (PostgreSQL
//     under the C locale folds ASCII only). Character classes
//     ([[:alpha:]] and the rest, \w, \s) hold what a UTF-8 locale's
//     (C.UTF-8's) do, built from Unicode by glibc's rules (regexclass.go);
//     under the plain C locale PostgreSQL's hold ASCII only.
//   - inet and cidr order as PostgreSQL's network_cmp in comparisons,
//     ORDER BY, windows, min/max and set operations (binder/netops.go),
//     but GREATEST/LEAST, op ANY/ALL (array) and comparisons of inet
//     arrays still order their text; abbrev(cidr) of an IPv6 network is
//     0A000 (netfuncs.go). macaddr, macaddr8 and money are not types yet.
//   - Ranges (ranges.go) and multiranges (multirange.go) exist for the
//     six built-in range types only (no CREATE TYPE ... AS RANGE, so no
//     user multirange); GROUP BY, DISTINCT, GREATEST/LEAST and
//     op ANY/ALL over ranges compare their text, which for numrange
//     keeps [1.0,2) and [1,2) apart.
//   - cbrt is glibc's algorithm (misc.go), so its digits are PostgreSQL's
//     on Linux (cbrt(27) = 3.0000000000000004); subnormal arguments may
//     still differ in the last digit.
//   - convert_to/convert_from/convert and length(bytea, name) know UTF8,
//     SQL_ASCII and PostgreSQL's 27 single-byte encodings, each byte as
//     PostgreSQL 15 converts it (encodings.go, encpairs.go); the multi-byte
//     ones (EUC_*, SJIS, BIG5, GBK, UHC, GB18030, JOHAB, SHIFT_JIS_2004,
//     MULE_INTERNAL) are refused with 0A000.
//   - pg_collation_for names "default" for every string-typed expression
//     and "C" for name: sqlgate's parser drops COLLATE clauses (every
//     string compares bytewise), so an explicit COLLATE "C" or a column's
//     declared collation is not seen; an untyped literal is text there
//     (PostgreSQL: NULL) (relprops.go).
//   - pg_relation_is_updatable and pg_column_is_updatable say what
//     sqlgate's relations take: a log table (no primary key) INSERT alone
//     (8), a view nothing (sqlgate's views are read only; PostgreSQL's
//     simple views are updatable) (relprops.go).
//   - txid_status answers as a PostgreSQL 15 cluster initdb has just made:
//     IDs below its next one (724) are too old to tell, later ones in the
//     future (sysfuncs.go).
//   - pg_timezone_names lists PostgreSQL 15's zone names (tzdata.go) with
//     Go's zone database's abbreviation and offset at the transaction's
//     start (every zone and value matched PostgreSQL's on 2026-12-06); its
//     rows are sorted by name, where PostgreSQL's come in directory order.
//     pg_timezone_abbrevs is PostgreSQL 15's Default abbreviation set, as
//     fixed rows. The pg_timezone_names and pg_timezone_abbrevs views are
//     not there: call the functions.
//     to_ascii reads the text's bytes through ascii.c's LATIN1, LATIN2,
//     LATIN9 and WIN1250 tables and refuses the rest (UTF8, so also the
//     one-argument form) as PostgreSQL does (toascii.go).
//   - to_char of a timestamp, timestamptz or interval takes every
//     date/time pattern of PostgreSQL 15 with its prefixes and suffixes
//     (FM TM TH th SP FX, "quoted text"), the template parsed as
//     to_timestamp parses it (fromchar.go) and an interval's fields printed
//     as they are stored, calendar patterns refused for it (tochardt.go);
//     TM prints English names. Numbers take all of PostgreSQL 15's patterns (9 0 . D , G S MI
//     PL SG PR L V B EEEE RN TH FM, tochar.go), L printing the blank of
//     lc_monetary C, and templates PostgreSQL refuses are refused with its
//     message; a sign pattern (MI, PL, SG) after PR still places the
//     brackets and blanks differently from PostgreSQL in some templates.
//   - arrays have lower bound 1, and text input with explicit bounds
//     ('[0:1]={1,2}') is 0A000. Subscripted assignment (SET a[i] = x,
//     a[lo:hi] = arr, INSERT INTO t (a[i])) is arrayassign.go's
//     ArrayAssignKernel: array_set_element and array_set_slice over
//     PostgreSQL's form of an array (dimensions, lower bounds), one
//     column's items in one call; a final array that does not start at 1
//     or has other dimensions than the column's type is 0A000. A multidimensional array is a nested list
//     whose type fixes the number of dimensions (ARRAY[ARRAY[1,2]] is
//     array<array<int>>); the array functions see it as PostgreSQL's one
//     array of several dimensions (mdarray.go: unnest, array_to_string,
//     cardinality, array_ndims, array_dims, array_length/upper/lower,
//     generate_subscripts and comparison take its elements and dimensions),
//     and array_cat, array_fill(x, dims, lower bounds) and ARRAY[sub, ...]
//     build them as PostgreSQL does. The binder still types the element
//     functions (array_append, array_replace, array_position, ||, op ANY,
//     width_bucket) over the outer list, so they refuse such an array with
//     42883, and array_fill(x, dims) fills one dimension; the kernels it
//     would call with the element type of every dimension are here
//     (ArrayElementType, ArrayPolyKernelMD, QuantifiedArrayKernel,
//     QuantifiedCallKernel (quantcall.go: LIKE's or ~'s call run over
//     every element for x ~~ ANY (array)),
//     ArrayConstructorValue for its folding of constants).
//     int2vector/oidvector subscripts start at 0 as in PostgreSQL, but
//     array_lower/array_upper/generate_subscripts still count them from 1.
//     generate_series covers int4, int8, numeric, timestamp and timestamptz (series.go).
//   - The SQL/JSON path functions (jsonb_path_exists/_match/_query/
//     _query_array/_query_first and their _tz forms, the operators @? and
//     @@ as pg__op_path_exists/_match) are jsonpath.go, evaluating paths
//     parsed by types/jsonpath with an evaluator of our own
//     (jsonpathexec.go) over jsonb decoded in jsonb's key order
//     (jsonpathvalue.go); .datetime() is refused (0A000).
//   - Full text search (tsearch.go) is types/tsearch's: to_tsvector, the
//     to_tsquery family, @@ (pg__op_path_match over tsvector, tsquery and
//     text operands), || && !! <-> over tsqueries (tsquery_or/and/not/
//     phrase, the last three also as pg__op_overlap, pg__op_tsquery_not,
//     pg__op_tsquery_phrase), the tsvector functions, ts_rank, ts_rank_cd
//     and ts_headline (text, json and jsonb documents); a configuration
//     is regconfig, the session's default_text_search_config when none is
//     given. unnest(tsvector), ts_parse and ts_token_type are set-returning
//     (tsearchsrf.go).
//   - JSON results (row_to_json, to_json, json_build_object,
//     json_build_array) are json (types.JSONType, OID 114); the jsonb
//     builders, json(b)_typeof/_array_length/_strip_nulls/_extract_path,
//     jsonb_set and jsonb_pretty, and the set-returning
//     json(b)_object_keys/_array_elements/_each are in jsonfuncs.go;
//     json(b)_agg and json(b)_object_agg finish an array_agg (jsonagg.go),
//     and so do min(anyarray) and max(anyarray) (arrayminmax.go). A
//     built-in VARIADIC function called with VARIADIC of an array known
//     only when it runs is VariadicArrayKernel's (variadicarray.go: each
//     row's elements its arguments). The operators -> ->> #> #>> arrive
//     as pg__json_get/_text and pg__json_path/_text (jsonops.go); on a
//     type other than json/jsonb they fail with 42883 when run (not when
//     resolved), naming the key's resolved type (text, not unknown). They
//     and json(b)_extract_path(_text) read the JSON text in place
//     (jsonscan.go, jsonopkernel.go), and text cast to jsonb in the same
//     expression is read without being normalised (pg__jsonbtext_*, which
//     the binder fuses). jsonb compares by jsonb's ordering (jsonbcmp.go). reg* values
//     (regclass_in ..., pg_typeof) are OIDs typed as their reg* type; the
//     wire prints them as names through RegName (the _out functions' text).
//   - date_part/extract/date_trunc over interval and time follow
//     timestamp.c (interval.go, datetime.go); the 'julian' unit of a
//     timestamp is PostgreSQL 15's day number plus the numeric fraction of
//     the day at numeric division's scale (extractjulian.go). Units are
//     matched without trimming and named in messages as written.
//     date_trunc(unit, timestamptz, zone) truncates on the zone's wall
//     clock; timezone(interval, ...) is AT TIME ZONE a fixed offset.
//     Infinite dates and timestamps follow PostgreSQL 15's rules in
//     extract, date_part, date_trunc, timezone, to_char, age and date_bin
//     (infinite.go, datebin.go).
//   - an interval's time part is Arrow's nanoseconds, so an interval whose
//     time part passes ±2,562,047:47:16.854775 (which PostgreSQL's
//     microseconds hold) is 22008 "interval out of range" wherever it would
//     be built (input, arithmetic, make_interval, typmod rounding,
//     date_bin's stride): a documented restriction
//     (tests/coverage/restrictions.go, listed in docs/functions.md), never a
//     wrapped value.
//   - to_date, to_timestamp(text, text) and to_number follow formatting.c
//     (fromchar.go, tonumber.go) under the C locale's conventions; TZ and OF
//     in a to_timestamp template are 0A000 as in PostgreSQL 15, EEEE and RN
//     in a to_number template too.
//   - json(b)_to_record(set) need a column definition list in FROM, as in
//     PostgreSQL; json(b)_populate_record(set) return their first
//     argument's row type (a record's from a column definition list).
//     Both read each field as populate_record_field does (jsonpopulate.go:
//     objects into composites, JSON arrays into arrays with their
//     dimensions checked, strings by the type's input in the session's
//     settings). A JSON array of arrays fills only an array type with as
//     many dimensions (sqlgate's arrays have one per []), where
//     PostgreSQL's int[] takes any number.
//   - float8 sin/cos/tan/asin/acos/atan/atan2, the hyperbolic functions,
//     ln/log/log10/exp and power call the C library through cgo
//     (libm_cgo.go), as PostgreSQL does, so their last digit is
//     PostgreSQL's on the same machine; the degree variants (sind ...)
//     are float.c's algorithms (trig.go). A build without cgo uses Go's
//     math package (libm_purego.go), whose last digit can differ.
//
// More families, one file each: numeric gcd/lcm/factorial/scale
// (mathnumeric.go); the privilege inquiry functions over the optional
// PrivilegeCatalog (privileges.go) and the text-name syntax check they and
// the reg* inputs share (qualname.go); system information that follows
// from what sqlgate is (sysinfo.go); the functions behind the operators
// sql's rewrite turns into pg__op_* calls (opfuncs.go); jsonb - and #-
// (jsonbdelete.go); array_to_json, json(b)_object, jsonb_insert,
// jsonb_set_lax (jsonextra.go); the polymorphic array functions the binder
// types (arraypoly.go); overlaps (timetz too) and timestamp(date, time) (overlaps.go);
// make_time/make_timestamp(tz) (maketime.go); regexp_replace's batch
// kernel (regexreplace.go: one output buffer, literal patterns by
// strings.Index, two goroutines over a large batch); normalize and
// is_normalized over golang.org/x/text's Unicode tables (normalize.go).
//
// System administration functions whose answers follow from what sqlgate
// is (sysfuncs.go: unistr, pg_char_to_encoding, the log and reload
// functions, current_query over the optional CurrentQueries, the
// transaction-ID functions of a server that assigns none,
// pg_indexam_has_property); pg_column_size with PostgreSQL's datum sizes
// (columnsize.go; the binder picks the stored-column and untyped-literal
// variants).
package functions
