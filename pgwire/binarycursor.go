package pgwire

import "github.com/sqlgate/sqlgate/pgtypes"

// BinaryResultStatement is implemented by statements whose rows a simple
// Query sends in binary: FETCH from a cursor declared BINARY, as in
// PostgreSQL (under the extended protocol Bind's result formats decide,
// as for any statement).
type BinaryResultStatement interface {
	BinaryResult() bool
}

// simpleFormats are the result formats of a statement run by a simple
// Query: text, or binary for a BinaryResultStatement that says so.
func simpleFormats(st Statement) []int16 {
	if b, ok := st.(BinaryResultStatement); ok && b.BinaryResult() {
		return []int16{pgtypes.FormatBinary}
	}
	return nil
}
