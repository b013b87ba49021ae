package flightsql

import (
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Parameters arrive as Arrow batches, one column per parameter and one
// execution per row. Each value becomes what pgwire's decoding hands the
// engine (pgwire.Statement.Execute: nil, bool, int64, float64, string,
// []byte, time.Time), so the engine converts and checks it exactly as for
// a PostgreSQL client's parameter; a parameter whose type nothing
// determined (types.Unknown) gets the value's text, as an untyped literal.

// maxParamRows bounds the rows of parameters one execution binds.
const maxParamRows = 1 << 20

// paramRows reads the parameter rows of batches for a statement taking
// want parameters.
func paramRows(recs []arrow.RecordBatch, want []types.T) ([][]any, error) {
	var rows [][]any
	for _, rec := range recs {
		if int(rec.NumCols()) != len(want) {
			return nil, sqlerr.New(sqlerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement requires %d", rec.NumCols(), len(want))
		}
		if len(rows)+int(rec.NumRows()) > maxParamRows {
			return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "more than %d rows of parameters", maxParamRows)
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			row := make([]any, len(want))
			for i := range want {
				v, err := paramValue(rec.Column(i), r)
				if err != nil {
					return nil, err
				}
				if want[i].Kind == types.Unknown && v != nil {
					v = asText(v)
				}
				row[i] = v
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// paramValue is row i of a as a wire-decoded parameter.
func paramValue(a arrow.Array, i int) (any, error) {
	if a.IsNull(i) {
		return nil, nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i), nil
	case *array.Int8:
		return int64(a.Value(i)), nil
	case *array.Int16:
		return int64(a.Value(i)), nil
	case *array.Int32:
		return int64(a.Value(i)), nil
	case *array.Int64:
		return a.Value(i), nil
	case *array.Uint8:
		return int64(a.Value(i)), nil
	case *array.Uint16:
		return int64(a.Value(i)), nil
	case *array.Uint32:
		return int64(a.Value(i)), nil
	case *array.Uint64:
		if v := a.Value(i); v <= math.MaxInt64 {
			return int64(v), nil
		}
		return strconv.FormatUint(a.Value(i), 10), nil
	case *array.Float16:
		return float64(a.Value(i).Float32()), nil
	case *array.Float32:
		return float64(a.Value(i)), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.String:
		return a.Value(i), nil
	case *array.LargeString:
		return a.Value(i), nil
	case *array.StringView:
		return a.Value(i), nil
	case *array.Binary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.LargeBinary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.BinaryView:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.FixedSizeBinary:
		return append([]byte(nil), a.Value(i)...), nil
	case *array.Date32:
		return a.Value(i).ToTime().UTC(), nil
	case *array.Date64:
		return a.Value(i).ToTime().UTC(), nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return a.Value(i).ToTime(unit).UTC(), nil
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return a.Value(i).ToTime(unit).Format("15:04:05.999999999"), nil
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return a.Value(i).ToTime(unit).Format("15:04:05.999999999"), nil
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale), nil
	case *array.Decimal256:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal256Type).Scale), nil
	case *array.Dictionary:
		return paramValue(a.Dictionary(), a.GetValueIndex(i))
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "parameters of Arrow type %s are not supported", a.DataType()).
		WithHint("Send the value's PostgreSQL text as a string parameter.")
}

// asText is a parameter value's text, for a parameter of unknown type.
func asText(v any) any {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05.999999999")
	}
	return v
}
