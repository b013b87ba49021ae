package coverage

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/tests/difftest"
)

// Status is what sqlgate does with a signature.
type Status string

// The statuses of the table.
const (
	// Implemented: the sample call runs on sqlgate, or fails there with the
	// SQLSTATE PostgreSQL fails with.
	Implemented Status = "implemented"
	// Refused: sqlgate answers 0A000 (feature not supported), 42883 (no
	// such function or operator), 42704 (no such type) or 42601 (syntax
	// sqlgate's parser does not know, such as an operator spelling).
	Refused Status = "refused"
	// Wrong: sqlgate fails another way than PostgreSQL does.
	Wrong Status = "wrong"
	// Unprobed: the sample call is not valid on PostgreSQL itself (a
	// pseudo-typed argument the probe cannot build), so it says nothing.
	Unprobed Status = "unprobed"
)

// Entry is one row of the table.
type Entry struct {
	*Signature
	Status Status
	// Code is sqlgate's SQLSTATE when it failed.
	Code string
	// Note says why (sqlgate's error message), or, for an implemented
	// signature whose sample result differs from PostgreSQL's, how.
	Note string
	// Same: the sample call's output equals PostgreSQL's.
	Same bool
}

func refusal(code string) bool {
	return code == "0A000" || code == "42883" || code == "42704" || code == "42601"
}

// Probe runs each signature's sample call on both systems and classifies
// it.
func Probe(ctx context.Context, sigs []*Signature, sg, pg difftest.Executor) []*Entry {
	out := make([]*Entry, 0, len(sigs))
	for _, s := range sigs {
		q := Call(s, sampleArgs(s))
		a, b := sg.Run(ctx, q), pg.Run(ctx, q)
		out = append(out, classify(s, q, a, b))
	}
	return out
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

func classify(s *Signature, q string, sg, pg difftest.Outcome) *Entry {
	e := &Entry{Signature: s}
	switch {
	case pg.Err != nil && (pg.Err.Code == "42601" || pg.Err.Code == "42883" || pg.Err.Code == "42804" || pg.Err.Code == "42P18"):
		e.Status = Unprobed
		e.Note = oneLine("PostgreSQL: " + pg.Err.Message)
	case sg.Err == nil && pg.Err == nil, sg.Err != nil && pg.Err != nil && sg.Err.Code == pg.Err.Code:
		e.Status = Implemented
		e.Same, e.Note = sameSample(s, sg, pg)
	case sg.Err != nil && refusal(sg.Err.Code):
		e.Status, e.Code, e.Note = Refused, sg.Err.Code, oneLine(sg.Err.Message)
	case sg.Err != nil:
		e.Status, e.Code = Wrong, sg.Err.Code
		e.Note = oneLine(sg.Err.Message)
		if pg.Err != nil {
			e.Note += oneLine(" (PostgreSQL: " + pg.Err.Code + " " + pg.Err.Message + ")")
		}
	default:
		e.Status, e.Code = Wrong, ""
		e.Note = oneLine("runs on sqlgate, PostgreSQL fails: " + pg.Err.Code + " " + pg.Err.Message)
	}
	return e
}

// sameSample compares the sample outputs: values for immutable functions,
// column types and row counts for the others (now(), random(), version()
// legitimately differ).
func sameSample(s *Signature, sg, pg difftest.Outcome) (bool, string) {
	if sg.Err != nil {
		return true, ""
	}
	if !s.Immutable {
		if len(sg.Rows) != len(pg.Rows) {
			return false, "row count differs"
		}
		if !equalOIDs(sg.OIDs, pg.OIDs) {
			return false, "result type differs"
		}
		return true, ""
	}
	same, why := difftest.Compare(sg, pg, false, false)
	if same {
		return true, ""
	}
	return false, oneLine(why)
}

func equalOIDs(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
