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
// Exact operations (+ - * / % div, round) run on the coefficients as
// integers. exp, ln, log, power and sqrt are not correctly rounded in
// PostgreSQL: their last digit is whatever numeric.c's working scales
// leave, so pgvar.go ports its NumericVar routines (base-10000 digits,
// mul_var's guard digits, div_var_fast, exp_var, ln_var, log_var,
// power_var, power_var_int, sqrt_var) step by step and computes them as
// PostgreSQL 15 does; for large operands it reaches the same digits by
// subquadratic big.Int arithmetic (a Kronecker product for mul_var's
// truncated one, an exact quotient within div_var_fast's error bound)
// where numeric.c's quadratic loops would be slow in Go.
//
// It must not know about Arrow, types.T or SQL: types/ maps it to an Arrow
// column and exec/ runs it over arrays.
package numeric
