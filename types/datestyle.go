package types

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// DateStyle and IntervalStyle: the session settings that say how
// date/time values are written out and how an ambiguous date is read
// (PostgreSQL's check_datestyle and the IntervalStyle enum). Like the
// TimeZone (zone.go) they are always an argument, never package state:
// the engine keeps the session's value and passes it down.

// DateOrder is the field order DateStyle gives a date written with
// numbers only (1/2/2020): month-day-year (the zero value, PostgreSQL's
// default), day-month-year or year-month-day.
type DateOrder uint8

const (
	OrderMDY DateOrder = iota
	OrderDMY
	OrderYMD
)

// DateOutput is the style DateStyle writes dates and timestamps in.
type DateOutput uint8

const (
	OutputISO      DateOutput = iota // 2020-01-02 03:04:05+00 (the default)
	OutputSQL                        // 01/02/2020 03:04:05 UTC
	OutputPostgres                   // Thu Jan 02 03:04:05 2020 UTC
	OutputGerman                     // 02.01.2020 03:04:05 UTC
)

// DateStyle is a session's DateStyle setting; the zero value is
// PostgreSQL's default, "ISO, MDY".
type DateStyle struct {
	Output DateOutput
	Order  DateOrder
}

// canonicalDateStyles are the settings as SHOW DateStyle spells them, by
// output style and order.
var canonicalDateStyles = [4][3]string{
	{"ISO, MDY", "ISO, DMY", "ISO, YMD"},
	{"SQL, MDY", "SQL, DMY", "SQL, YMD"},
	{"Postgres, MDY", "Postgres, DMY", "Postgres, YMD"},
	{"German, MDY", "German, DMY", "German, YMD"},
}

// String is the setting as SHOW DateStyle spells it ("German, DMY").
func (d DateStyle) String() string { return canonicalDateStyles[d.Output][d.Order] }

// DefaultDateStyle is DateStyle's boot value, "ISO, MDY".
const DefaultDateStyle = "ISO, MDY"

// ParseDateStyle reads a value given to SET DateStyle as PostgreSQL's
// check_datestyle does: a comma-separated list of a style (ISO, SQL,
// Postgres, German) and an order (MDY or US or NonEuro..., DMY or
// Euro..., YMD), either alone keeping the current setting's other half
// (German alone also sets DMY), DEFAULT standing for the boot value.
// Conflicting or unknown words are 22023.
func ParseDateStyle(value string, cur DateStyle) (DateStyle, error) {
	// the canonical form, which every session stores, without splitting
	// (every statement and Bind reads the setting)
	for o, row := range canonicalDateStyles {
		for ord, c := range row {
			if value == c {
				return DateStyle{Output: DateOutput(o), Order: DateOrder(ord)}, nil
			}
		}
	}
	bad := func(detail string, args ...any) (DateStyle, error) {
		return cur, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter %q: %q", "DateStyle", value).
			WithDetail(detail, args...)
	}
	words, ok := SplitIdentifierString(value, ',')
	if !ok {
		return bad("List syntax is invalid.")
	}
	next := cur
	haveStyle, haveOrder, conflict := false, false, false
	style := func(o DateOutput) {
		if haveStyle && next.Output != o {
			conflict = true
		}
		next.Output, haveStyle = o, true
	}
	order := func(o DateOrder) {
		if haveOrder && next.Order != o {
			conflict = true
		}
		next.Order, haveOrder = o, true
	}
	for _, w := range words {
		lw := strings.ToLower(w)
		switch {
		case lw == "iso":
			style(OutputISO)
		case lw == "sql":
			style(OutputSQL)
		case strings.HasPrefix(lw, "postgres"):
			style(OutputPostgres)
		case lw == "german":
			style(OutputGerman)
			if !haveOrder {
				next.Order = OrderDMY
			}
		case lw == "ymd":
			order(OrderYMD)
		case lw == "dmy" || strings.HasPrefix(lw, "euro"):
			order(OrderDMY)
		case lw == "mdy" || lw == "us" || strings.HasPrefix(lw, "noneuro"):
			order(OrderMDY)
		case lw == "default":
			if !haveStyle {
				next.Output = OutputISO
			}
			if !haveOrder {
				next.Order = OrderMDY
			}
		default:
			return bad("Unrecognized key word: %q.", w)
		}
	}
	if conflict {
		return bad("Conflicting \"datestyle\" specifications.")
	}
	return next, nil
}

// IntervalStyle is how intervals are written out (and, for
// sql_standard, how some interval input is read).
type IntervalStyle uint8

const (
	IntervalPostgres        IntervalStyle = iota // 1 day 02:00:00 (the default)
	IntervalPostgresVerbose                      // @ 1 day 2 hours
	IntervalSQLStandard                          // 1 2:00:00
	IntervalISO8601                              // P1DT2H
)

var intervalStyleNames = [...]string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}

// String is the setting as SHOW IntervalStyle spells it.
func (s IntervalStyle) String() string { return intervalStyleNames[s] }

// ParseIntervalStyle reads a value given to SET IntervalStyle (name is
// the parameter as the statement spelled it, for the error): one of the
// four names, in any case; else 22023 listing them.
func ParseIntervalStyle(name, value string) (IntervalStyle, error) {
	for i, n := range intervalStyleNames {
		if strings.EqualFold(value, n) {
			return IntervalStyle(i), nil
		}
	}
	return IntervalPostgres, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, value).
		WithHint("Available values: %s.", strings.Join(intervalStyleNames[:], ", "))
}
