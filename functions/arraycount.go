package functions

import "github.com/sqlgate/sqlgate/sqlerr"

// arrayShape is where checkArrayStructure's state machine stands: the
// states of PostgreSQL 15's ArrayCount (arrayfuncs.c), whose transitions
// decide which array texts are well formed and which DETAIL a malformed
// one gets. The element parser runs only on text this machine accepted, so
// both systems refuse the same inputs with the same words.
type arrayShape int

const (
	shapeNoLevel arrayShape = iota
	shapeLevelStarted
	shapeElemStarted
	shapeElemCompleted
	shapeQuotedElemStarted
	shapeQuotedElemCompleted
	shapeElemDelimited
	shapeLevelCompleted
	shapeLevelDelimited
)

// maxArrayDims is PostgreSQL's MAXDIM.
const maxArrayDims = 6

// checkArrayStructure validates the braces, quotes, escapes and delimiters
// of array text s from its '{' at start as ArrayCount does: an empty
// sub-array is allowed only at the outermost level ('{}' but not '{{}}'),
// sub-arrays at one level must have equal lengths, and only blanks may
// follow the closing brace.
func checkArrayStructure(s string, start int) error {
	// the message quotes the text from its '{' on, leading blanks
	// skipped, as ArrayCount's does
	malformed := func(detail string) error {
		return sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed array literal: %q", s[start:]).WithDetail("%s", detail)
	}
	var nelems, nelemsLast [maxArrayDims]int
	for i := range nelems {
		nelems[i] = 1
	}
	state := shapeNoLevel
	level := 0
	inQuotes := false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if state != shapeLevelStarted && state != shapeElemStarted &&
				state != shapeQuotedElemStarted && state != shapeElemDelimited {
				return malformed(`Unexpected "\" character.`)
			}
			if state != shapeQuotedElemStarted {
				state = shapeElemStarted
			}
			if i+1 >= len(s) {
				return malformed("Unexpected end of input.")
			}
			i++ // the escaped character
		case c == '"':
			if state != shapeLevelStarted && state != shapeQuotedElemStarted && state != shapeElemDelimited {
				return malformed("Unexpected array element.")
			}
			inQuotes = !inQuotes
			if inQuotes {
				state = shapeQuotedElemStarted
			} else {
				state = shapeQuotedElemCompleted
			}
		case inQuotes:
			// any other character belongs to the quoted element
		case c == '{':
			if state != shapeNoLevel && state != shapeLevelStarted && state != shapeLevelDelimited {
				return malformed(`Unexpected "{" character.`)
			}
			state = shapeLevelStarted
			if level >= maxArrayDims {
				return sqlerr.New(sqlerr.ProgramLimitExceeded,
					"number of array dimensions (%d) exceeds the maximum allowed (%d)", level+1, maxArrayDims)
			}
			level++
		case c == '}':
			// after an element or a sub-array; right after '{' only at the
			// outermost level, where '{}' is the empty array
			if state != shapeElemStarted && state != shapeElemCompleted &&
				state != shapeQuotedElemCompleted && state != shapeLevelCompleted &&
				!(level == 1 && state == shapeLevelStarted) {
				return malformed(`Unexpected "}" character.`)
			}
			state = shapeLevelCompleted
			if level == 0 {
				return malformed(`Unmatched "}" character.`)
			}
			level--
			if nelemsLast[level] != 0 && nelems[level] != nelemsLast[level] {
				return malformed("Multidimensional arrays must have sub-arrays with matching dimensions.")
			}
			nelemsLast[level] = nelems[level]
			nelems[level] = 1
			if level == 0 {
				return arrayTail(s[i+1:], malformed)
			}
		case c == ',':
			if state != shapeElemStarted && state != shapeElemCompleted &&
				state != shapeQuotedElemCompleted && state != shapeLevelCompleted {
				return malformed(`Unexpected "," character.`)
			}
			if state == shapeLevelCompleted {
				state = shapeLevelDelimited
			} else {
				state = shapeElemDelimited
			}
			nelems[level-1]++
		case isArraySpace(c):
		default:
			if state != shapeLevelStarted && state != shapeElemStarted && state != shapeElemDelimited {
				return malformed("Unexpected array element.")
			}
			state = shapeElemStarted
		}
	}
	return malformed("Unexpected end of input.")
}

// arrayTail checks that only blanks follow the closing brace.
func arrayTail(rest string, malformed func(string) error) error {
	for i := 0; i < len(rest); i++ {
		if !isArraySpace(rest[i]) {
			return malformed("Junk after closing right brace.")
		}
	}
	return nil
}
