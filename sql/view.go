package sql

import "strings"

// OriginalFrom returns the user's original text of the statement from the
// point the rewritten offset off maps to, up to the statement's end:
// CREATE VIEW stores its SELECT as the user wrote it, not as rewritten.
func (s *Statement) OriginalFrom(off int) string {
	start := s.Offset
	if s.segs != nil {
		start = mapOffset(s.segs, off, s.end)
	}
	if start < s.Offset || start > s.end || s.end > len(s.input) {
		return s.Text
	}
	return strings.TrimSpace(s.input[start:s.end])
}
