package flightsql

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/schema_ref"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// xdbcType is one row of GetXdbcTypeInfo: a type sqlgate stores, under
// its PostgreSQL name, with its XDBC (ODBC/JDBC) code.
type xdbcType struct {
	name         string
	code         int32 // XdbcDataType
	size         int32 // column size (precision); 0: none
	quote        bool  // literals are quoted
	createParams []string
	caseSens     bool
	fixedScale   bool
	subcode      int32 // datetime subcode; 0: none
	radix        int32 // 0: none
}

// xdbcTypes are the Fluss types as PostgreSQL names them (README: types),
// ordered by code as ODBC's SQLGetTypeInfo asks.
var xdbcTypes = []xdbcType{
	{name: "bytea", code: -3, quote: true},
	{name: "bigint", code: -5, size: 19, radix: 10},
	{name: "tinyint", code: -6, size: 3, radix: 10},
	{name: "boolean", code: -7, size: 1},
	{name: "binary", code: -2, quote: true, createParams: []string{"length"}},
	{name: "character", code: 1, quote: true, createParams: []string{"length"}, caseSens: true},
	{name: "numeric", code: 2, size: 38, createParams: []string{"precision", "scale"}, fixedScale: true, radix: 10},
	{name: "integer", code: 4, size: 10, radix: 10},
	{name: "smallint", code: 5, size: 5, radix: 10},
	{name: "real", code: 7, size: 24, radix: 2},
	{name: "double precision", code: 8, size: 53, radix: 2},
	{name: "text", code: 12, quote: true, caseSens: true},
	{name: "character varying", code: 12, quote: true, createParams: []string{"length"}, caseSens: true},
	{name: "date", code: 91, size: 10, quote: true, subcode: 1},
	{name: "time without time zone", code: 92, size: 15, quote: true, createParams: []string{"precision"}, subcode: 2},
	{name: "timestamp without time zone", code: 93, size: 26, quote: true, createParams: []string{"precision"}, subcode: 3},
	{name: "timestamp with time zone", code: 93, size: 32, quote: true, createParams: []string{"precision"}, subcode: 3},
}

func (s *Server) GetFlightInfoXdbcTypeInfo(_ context.Context, _ afsql.GetXdbcTypeInfo, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.XdbcTypeInfo, desc, desc.Cmd), nil
}

func (s *Server) DoGetXdbcTypeInfo(_ context.Context, cmd afsql.GetXdbcTypeInfo) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema_ref.XdbcTypeInfo)
	defer b.Release()
	optInt := func(i int, v int32) {
		if v == 0 {
			b.Field(i).AppendNull()
		} else {
			b.Field(i).(*array.Int32Builder).Append(v)
		}
	}
	for _, t := range xdbcTypes {
		if want := cmd.GetDataType(); want != nil && *want != t.code {
			continue
		}
		b.Field(0).(*array.StringBuilder).Append(t.name)
		b.Field(1).(*array.Int32Builder).Append(t.code)
		optInt(2, t.size)
		if t.quote {
			b.Field(3).(*array.StringBuilder).Append("'")
			b.Field(4).(*array.StringBuilder).Append("'")
		} else {
			b.Field(3).AppendNull()
			b.Field(4).AppendNull()
		}
		if lb := b.Field(5).(*array.ListBuilder); t.createParams == nil {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for _, p := range t.createParams {
				lb.ValueBuilder().(*array.StringBuilder).Append(p)
			}
		}
		b.Field(6).(*array.Int32Builder).Append(1) // nullable
		b.Field(7).(*array.BooleanBuilder).Append(t.caseSens)
		b.Field(8).(*array.Int32Builder).Append(3) // searchable
		if t.radix == 10 || t.radix == 2 {
			b.Field(9).(*array.BooleanBuilder).Append(false)
		} else {
			b.Field(9).AppendNull()
		}
		b.Field(10).(*array.BooleanBuilder).Append(t.fixedScale)
		b.Field(11).(*array.BooleanBuilder).Append(false)
		b.Field(12).(*array.StringBuilder).Append(t.name)
		if t.fixedScale {
			b.Field(13).(*array.Int32Builder).Append(0)
			b.Field(14).(*array.Int32Builder).Append(38)
		} else {
			b.Field(13).AppendNull()
			b.Field(14).AppendNull()
		}
		sqlType := t.code
		if t.subcode != 0 {
			sqlType = 9 // XDBC_DATETIME, with the subcode
		}
		b.Field(15).(*array.Int32Builder).Append(sqlType)
		optInt(16, t.subcode)
		optInt(17, t.radix)
		b.Field(18).AppendNull()
	}
	return schema_ref.XdbcTypeInfo, one(b.NewRecordBatch()), nil
}
