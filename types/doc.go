// Package types owns the type of every value in sqlgate: the Fluss type system
// (BOOLEAN .. ROW, with NOT NULL at every nesting level), which fluss/ uses for
// table schemas, plus the few PostgreSQL types that only exist in queries
// (unknown literals, unconstrained numeric, interval, time with time zone
// (timetz.go: one ordered int64 per value), oid, name), and the
// catalog types "char" (qchar.go: its input and output, a byte kept as
// charout prints it), int2vector and oidvector as Variants of STRING,
// ARRAY<SMALLINT> and ARRAY<OID> (computed as those, shown to clients as
// PostgreSQL's own types), the reg* types (regclass, regtype, regproc,
// regprocedure, regnamespace, regrole) and xid as Variants of OID, json
// and jsonb as Variants of STRING (json.go: their input checks and, for
// jsonb, normalises the text; jsonbkey.go: KeyForm, how bpchar and jsonb
// keys compare, and jsonb's btree order as key bytes), and uuid, inet, cidr and pg_lsn (inet.go: input
// and binary forms as PostgreSQL's; netaddr.go: an inet taken apart,
// types.Net, cidr's input (ParseCidr) and binary form, and InetKey,
// inet's and cidr's order as key bytes) and the catalog-only pg_node_tree,
// aclitem and anyarray as Variants of STRING, tsvector, tsquery and
// regconfig as Variants of STRING holding their text (tsearch.go; package
// types/tsearch reads, prints and computes them), and jsonpath (a Variant of
// STRING holding the path as PostgreSQL prints it; package types/jsonpath
// reads and prints it), and bit(n) and bit varying(n) as Variants Bit and
// VarBit of STRING holding '0'/'1' text (bitstring.go: input with
// bit_in's prefixes, typmod rules, integer conversions, binary form),
// money as the Variant Money of INT64 counting cents (money.go: cash_in
// and cash_out under lc_monetary C, cash_words, the numeric and integer
// conversions; IsInteger and IsNumeric say no, so it meets no number),
// macaddr and macaddr8 as Variants of STRING holding their output text,
// whose byte order is theirs (macaddr.go: macaddr_in's sscanf notations,
// macaddr8_in's, binary forms), and the range types int4range ...
// tstzrange as Variants of STRING holding their text in DateStyle ISO and
// TimeZone UTC (ranges.go: range_in, range_out, make_range's canonical
// forms, RangeKey, range_cmp's order as key bytes; rangeops.go: the
// operators' computations), and their multirange types int4multirange ...
// tstzmultirange, Variants of STRING as well (multirange.go: multirange_in
// and its normal form, multirange_out, MultirangeKey; multirangeops.go:
// the operators). It maps each type to its Arrow type (DESIGN.md's
// table) and prints it as seed 000 does.
//
// User-defined enum types (CREATE TYPE ... AS ENUM; enum.go) are the
// Variant Enum of STRING, T.TypeOID naming the type: a value is its
// label. Fluss has no enum type, so an enum column is stored as STRING
// (the label) and the type is kept in sqlgate's metadata (meta.EnumType);
// the store's Registry gives every layer the type's labels and their
// order (text input checks the label, 22P02; comparisons and ORDER BY
// follow the declaration order, binder/enumops.go).
//
// Domains (CREATE DOMAIN; domain.go) have no type of their own: their
// values are the base type's, and the store's Registry gives every layer
// a domain's base, default and constraints (and the engine's check of
// them, Domain.Validate) from its OID.
//
// Composite types (a table's row type, CREATE TYPE ... AS (...);
// composite.go) are records (Row, Variant AnonRecord) whose T.TypeOID
// names the type: they print and compare as the anonymous record does,
// their text input is record_in's (ParseRecord), and the store's
// Registry gives every layer a composite's name and attributes.
//
// CollationsNotSupported (collations.go) is the one 42804 of a COLLATE
// given to a type without collations.
//
// KeywordTypeName (typenames.go) is the pg_type name of a type PostgreSQL's
// grammar spells with keywords (integer, double precision, character
// varying, time with time zone), shared by every layer that reads one.
//
// The Registry (oidregistry.go) is a value, one per store, which its
// owner (the engine, which publishes its metadata's types there; the
// server makes it and hands it to the catalog too) creates: the OIDs of
// two stores in one process meet (a table's row type's OID follows from
// its table's ID), so types holds no registry of its own. An enum or
// composite T carries the registry that resolved it (Registry.Bind,
// EnumType.T, CompositeType.T), so that PGName, String and text input
// find its name and labels from the T alone; code that has only an OID
// (pgcatalog, format_type, the engine's domain checks) asks the store's
// registry through what it already holds. The one other package-level
// variable that is set is ArrayInput (composite.go), array_in for a
// record's array fields, which package functions sets once at init.
//
// It also holds PostgreSQL's TimeZone rules (zone.go: the values SET
// TimeZone accepts, offsets as timestamptz prints them, wall time to instant
// across DST), since input (ParseTextIn), output (FormatTextIn) and casts
// all need them; the zone itself is always an argument, never package state.
// Likewise DateStyle and IntervalStyle (datestyle.go: the values SET
// accepts and their canonical form), whose field order the date decoder
// reads a date in numbers only in (ParseTextOrder, ParseTextStyle). And
// extra_float_digits (floatformat.go: FloatDigits, the values SET accepts,
// and AppendFloatText, the one rule a real's or double's text follows on
// every path). Style carries all three output settings (dtoutput.go), and
// its styles write dates, timestamps, intervals and floats
// (FormatTextStyle, AppendDateStyled, AppendTimestampStyled,
// AppendIntervalStyled, AppendFloatText; pgtypes writes results through
// them).
//
// Numeric: DECIMAL(p,s) is decimal128(p,s) in Arrow and stores as Fluss
// DECIMAL; unconstrained NUMERIC (Precision 0) is PostgreSQL's arbitrary
// precision numeric, an Arrow extension column over binary
// (numericarrow.go) whose values are *apd.Decimal in package
// types/numeric's shape, which owns numeric's arithmetic, functions, text
// and limits. A NUMERIC column declared without a precision is stored as
// DECIMAL(38,10) (StoredNumericType).
//
// Date/time text input follows PostgreSQL 15's datetime.c step for step
// (dtinput.go: ParseDateTime's fields, DecodeDateTime's and
// DecodeTimeOnly's masks and order of checks, which decide which error a
// bad text gets; every error built in one place; dtvalue.go builds each
// type's value as date_in, timestamp_in and the others do; interval.go
// reads intervals). Zone names and abbreviations are read as pg_tzset and
// DecodeTimezoneAbbrev read them, by input and AT TIME ZONE alike
// (zoneabbrev.go: ZoneByName, POSIX zones, the Default set's dynamic
// abbreviations such as MSK, read at the time they qualify).
//
// Floats print with the digits of PostgreSQL's Ryu output
// (floatshortest.go: the shortest decimal strictly inside the rounding
// interval), and dates and timestamps have PostgreSQL's infinity and
// -infinity as their extreme values (infinity.go).
//
// One type system serves storage and queries so that no layer converts between
// two near-identical trees. It must not know about tables, SQL text or the wire
// protocol; pgwire maps these types to PostgreSQL OIDs and codecs.
package types
