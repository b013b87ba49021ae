package sql

import "strings"

// OperatorPosition is PostgreSQL's error position of operator op written
// between the operand starting at rewritten offset start and the one
// starting at right: the rewrite may have turned the operator into a
// marker call (a @> b into pg__op_contains(a, b)), so the operator is
// looked for in the original input, whose offsets the rewrite's segments
// give. ok is false when op is not found there.
func (s *Statement) OperatorPosition(start, right int, op string) (pos int, ok bool) {
	if s.segs == nil {
		return 0, false
	}
	from, to := mapOffset(s.segs, start, s.end), mapOffset(s.segs, right, s.end)
	if from < 0 || from >= to || to > len(s.input) {
		return 0, false
	}
	i := strings.LastIndex(strings.ToLower(s.input[from:to]), strings.ToLower(op))
	if i < 0 {
		return 0, false
	}
	return charPos(s.input, from+i), true
}
