package main

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// Answers from the three systems arrive as different Go types (pgx gives
// int64 and pgtype.Numeric, duckdb-go gives *big.Int for HUGEINT sums), so
// every value is normalised before comparison: integers to *big.Int, other
// numbers to float64, timestamps to UTC time.Time, text to string, NULL to nil.

// floatClose reports whether two floats agree to 1e-9 relative (summation
// order differs between systems, so bit equality would be wrong).
func floatClose(a, b float64) bool {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	diff := math.Abs(a - b)
	scale := math.Max(math.Abs(a), math.Abs(b))
	return diff <= 1e-9*scale || diff <= 1e-9
}

// normalize maps one driver value to the comparable representation.
func normalize(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int:
		return big.NewInt(int64(x))
	case int8:
		return big.NewInt(int64(x))
	case int16:
		return big.NewInt(int64(x))
	case int32:
		return big.NewInt(int64(x))
	case int64:
		return big.NewInt(x)
	case uint8:
		return big.NewInt(int64(x))
	case uint16:
		return big.NewInt(int64(x))
	case uint32:
		return big.NewInt(int64(x))
	case uint64:
		return new(big.Int).SetUint64(x)
	case *big.Int:
		return x
	case float32:
		return float64(x)
	case float64:
		return x
	case pgtype.Numeric:
		if !x.Valid {
			return nil
		}
		if x.NaN {
			return math.NaN()
		}
		if x.Exp >= 0 && x.InfinityModifier == pgtype.Finite {
			return new(big.Int).Mul(x.Int, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Exp)), nil))
		}
		f, err := x.Float64Value()
		if err != nil || !f.Valid {
			return fmt.Sprintf("numeric?%v", x)
		}
		return f.Float64
	case time.Time:
		return x.UTC()
	case string:
		return x
	case []byte:
		return string(x)
	case bool:
		return x
	default:
		return fmt.Sprintf("%T:%v", v, v)
	}
}

// valuesEqual compares two normalised values; an integer equals a float of
// the same value (PostgreSQL and DuckDB pick different result types for
// some aggregates, e.g. numeric vs double for avg).
func valuesEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case *big.Int:
		switch y := b.(type) {
		case *big.Int:
			return x.Cmp(y) == 0
		case float64:
			f, _ := new(big.Float).SetInt(x).Float64()
			return floatClose(f, y)
		}
		return false
	case float64:
		switch y := b.(type) {
		case float64:
			return floatClose(x, y)
		case *big.Int:
			return valuesEqual(y, x)
		}
		return false
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	default:
		return a == b
	}
}

// resultSet is a small, fully materialised, normalised answer (W4-W7).
type resultSet [][]any

// compareResults returns "" when the answers agree row by row, else a short
// description of the first difference.
func compareResults(want, got resultSet) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d rows vs %d rows (first: %s vs %s)", len(want), len(got), firstRow(want), firstRow(got))
	}
	for i := range want {
		if len(want[i]) != len(got[i]) {
			return fmt.Sprintf("row %d: %d columns vs %d", i+1, len(want[i]), len(got[i]))
		}
		for j := range want[i] {
			if !valuesEqual(want[i][j], got[i][j]) {
				return fmt.Sprintf("row %d column %d: %s vs %s", i+1, j+1, formatValue(want[i][j]), formatValue(got[i][j]))
			}
		}
	}
	return ""
}

func firstRow(r resultSet) string {
	if len(r) == 0 {
		return "none"
	}
	parts := make([]string, len(r[0]))
	for i, v := range r[0] {
		parts[i] = formatValue(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case *big.Int:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case time.Time:
		return x.Format("2006-01-02 15:04:05.999999")
	default:
		return fmt.Sprint(x)
	}
}

// checkTopAmounts verifies W6's answer (id, amount ORDER BY amount DESC
// LIMIT 100) against the generator: amounts must be the reference's amounts
// in order (ties make the ids legitimately differ between systems), and
// every returned id must be a distinct row that really has that amount.
func checkTopAmounts(reference, got resultSet, n int64) string {
	if len(reference) != len(got) {
		return fmt.Sprintf("%d rows vs %d rows", len(reference), len(got))
	}
	seen := make(map[int64]bool, len(got))
	for i := range got {
		if len(got[i]) != 2 {
			return fmt.Sprintf("row %d: %d columns, want 2", i+1, len(got[i]))
		}
		if !valuesEqual(reference[i][1], got[i][1]) {
			return fmt.Sprintf("row %d amount: %s vs %s", i+1, formatValue(reference[i][1]), formatValue(got[i][1]))
		}
		idBig, ok := got[i][0].(*big.Int)
		if !ok || !idBig.IsInt64() || idBig.Int64() < 1 || idBig.Int64() > n {
			return fmt.Sprintf("row %d: id %s is not a row id", i+1, formatValue(got[i][0]))
		}
		id := idBig.Int64()
		if seen[id] {
			return fmt.Sprintf("row %d: id %d returned twice", i+1, id)
		}
		seen[id] = true
		r := makeEvent(id)
		var amount any
		if r.AmountValid {
			amount = r.Amount
		}
		if !valuesEqual(amount, got[i][1]) {
			return fmt.Sprintf("row %d: id %d has amount %s, answer says %s", i+1, id, formatValue(amount), formatValue(got[i][1]))
		}
	}
	return ""
}
