// Package pgtypes holds the PostgreSQL wire-protocol primitives of sqlgate's
// types: the type OIDs, typmods and sizes of RowDescription (OIDOf,
// ParamOIDOf), the Arrow -> PostgreSQL text and binary value encoders
// (RowEncoder for whole batches, AppendValue for one value), and the decoders
// of Bind parameters (DecodeParam).
//
// Text output matches PostgreSQL 15 byte for byte with the settings sqlgate
// reports: dates, timestamps and intervals in the session's DateStyle and
// IntervalStyle, reals and doubles (in columns and inside arrays, records
// and json) in its extra_float_digits, all three carried by one
// types.Style (NewRowEncoderStyle, AppendValueStyle, which write them
// through types.AppendDateStyled, AppendFloatText and their kin; ISO,
// postgres and 1, the shortest round trip, without them). timestamptz
// text is rendered in the session's
// TimeZone, which the caller passes as a *time.Location (NewRowEncoderIn,
// AppendValueIn, AppendTimestampTZ; nil or the plain forms mean UTC); binary
// timestamptz is UTC microseconds whatever the zone, as in PostgreSQL. MAP, ROW and arrays of
// them travel as json, except the anonymous record (types.AnonRecord: ROW(a, b)),
// which is PostgreSQL's record, OID 2249, its arrays record[] (record.go),
// and a composite type's value (a record whose TypeOID names it), which
// travels as a record under the composite's own OID and its array's;
// arrays of scalars as PostgreSQL arrays, and arrays
// of such arrays as multidimensional PostgreSQL arrays (multidim.go);
// time with time zone as OID 1266 (timetz.go);
// bit and bit varying as OIDs 1560 and 1562, arrays 1561 and 1563, binary
// as bit_send's bit count and packed bytes (bitstring.go);
// the range types under their OIDs (3904 ...), text in the session's
// DateStyle and TimeZone, binary as range_send/range_recv (ranges.go);
// the multirange types under theirs (4451 ...), binary as
// multirange_send/multirange_recv (multirange.go);
// the geometric types under their OIDs (600 ...), text under the
// session's extra_float_digits, binary as point_send ... (geometric.go);
// int2vector and oidvector (types.Int2Vector, OidVector) as PostgreSQL
// sends them ("2 1"; binary arrays with lower bound 0), "char" as OID 18.
// The reg* types (regclass ...) travel under their own OIDs: binary is the
// uint32 OID, text is the object's name, which a RegNamer the session
// supplies (RowEncoder.SetRegNamer) gives; without one, the number. json
// and jsonb (OIDs 114, 3802) are their text (binary jsonb: a version byte 1
// first).
//
// It is a leaf: it imports types and sqlerr only (plus Arrow), and must not
// know about connections, sessions or SQL. It keeps no mutable package state.
// It sits beside pgwire rather than under it because more than the wire
// needs PostgreSQL's forms of values: pg_catalog's OIDs (pgcatalog), COPY
// files (transfer), the function library (pg_typeof's OID) and the
// engine's parameters; none of them should depend on the protocol server.
package pgtypes
