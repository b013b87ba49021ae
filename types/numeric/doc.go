// Package numeric is PostgreSQL 15's NUMERIC for expressions: arbitrary
// precision decimals (github.com/cockroachdb/apd/v3 values) with
// numeric.c's rules for the display scale of every operator and function
// (select_div_scale for division, sqrt/exp/ln/log/power's result scales,
// NUMERIC_MIN_SIG_DIGITS 16, NUMERIC_MAX_DISPLAY_SCALE 1000), its special
// values (NaN, +Infinity, -Infinity: NaN equals NaN and sorts above every
// number), its text input and output, its limits (131072 digits before the
// point, 16383 after: 22003 past them) and the typmod check of
// numeric(p,s) (22003 "numeric field overflow").
//
// A value is an *apd.Decimal kept in one canonical shape: a finite value
// is Coeff × 10^Exponent with Exponent = -dscale (PostgreSQL's display
// scale, never negative), so its trailing zeros are part of the value as
// PostgreSQL shows them (1.50 stays 1.50); a zero is never negative.
// Values are immutable once made: every operation returns a new one.
//
// Exact operations (+ - * / % div, round, sqrt) run on the coefficients
// as integers; exp, ln, log and power run in apd at enough digits past the
// result scale that rounding half away from zero at that scale gives the
// digits PostgreSQL's algorithms give.
//
// It must not know about Arrow, types.T or SQL: types/ maps it to an Arrow
// column and exec/ runs it over arrays.
package numeric
