package functions

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqlgate/sqlgate/types"
)

// timezoneNamesRowType is pg_timezone_names' composite: (name text,
// abbrev text, utc_offset interval, is_dst boolean).
var timezoneNamesRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "name", Type: types.StringType}, {Name: "abbrev", Type: types.StringType},
	{Name: "utc_offset", Type: ivT}, {Name: "is_dst", Type: types.BoolType},
}}

// timezoneAbbrevsRowType is pg_timezone_abbrevs' composite: (abbrev text,
// utc_offset interval, is_dst boolean).
var timezoneAbbrevsRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "abbrev", Type: types.StringType}, {Name: "utc_offset", Type: ivT}, {Name: "is_dst", Type: types.BoolType},
}}

func offsetInterval(seconds int) arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{Nanoseconds: int64(seconds) * int64(time.Second)}
}

// timezoneNameRows is pg_timezone_names(): each zone PostgreSQL 15 knows
// (tzdata.go), with its abbreviation, offset and daylight saving at the
// transaction's start, as Go's zone database has them; a zone Go's
// database lacks is left out, as PostgreSQL leaves out a zone it cannot
// load.
func timezoneNameRows(ctx context.Context, _ []any) (func() (any, bool, error), error) {
	at := clockOf(ctx).TransactionStart
	i := 0
	return func() (any, bool, error) {
		for i < len(pgTimezoneNames) {
			name := pgTimezoneNames[i]
			i++
			loc, err := time.LoadLocation(name)
			if err != nil {
				continue
			}
			t := at.In(loc)
			abbrev, offset := t.Zone()
			return []any{name, abbrev, offsetInterval(offset), t.IsDST()}, true, nil
		}
		return nil, false, nil
	}, nil
}

// timezoneAbbrevRows is pg_timezone_abbrevs(): the abbreviations of
// PostgreSQL 15's Default timezone_abbreviations set (tzdata.go).
func timezoneAbbrevRows(context.Context, []any) (func() (any, bool, error), error) {
	i := 0
	return func() (any, bool, error) {
		if i >= len(pgTimezoneAbbrevs) {
			return nil, false, nil
		}
		a := pgTimezoneAbbrevs[i]
		i++
		return []any{a.abbrev, offsetInterval(int(a.offset)), a.dst}, true, nil
	}, nil
}
