package sql

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// syntaxCase is a statement PostgreSQL 15 refuses with 42601: its message
// and position, read from PostgreSQL's answer to a Parse message of in.
type syntaxCase struct {
	in, want string
	pos      int
}

// checkSyntaxErrors parses each case's statement and wants PostgreSQL's
// 42601 with its message at its position.
func checkSyntaxErrors(t *testing.T, tests []syntaxCase) {
	t.Helper()
	p := NewParser()
	for _, tc := range tests {
		_, err := p.Parse(tc.in)
		e := sqlerr.As(err)
		if e == nil || e.Code != sqlerr.SyntaxError || e.Message != tc.want || e.Position != tc.pos {
			t.Errorf("%s: got %v (position %d), want 42601 %s at %d", tc.in, err, positionOf(e), tc.want, tc.pos)
		}
	}
}

// checkNotSupported wants 0A000 for each statement: forms PostgreSQL's
// grammar takes that sqlgate lacks.
func checkNotSupported(t *testing.T, ins []string) {
	t.Helper()
	p := NewParser()
	for _, in := range ins {
		if _, err := p.Parse(in); sqlerr.As(err) == nil || sqlerr.As(err).Code != sqlerr.FeatureNotSupported {
			t.Errorf("%s: got %v, want 0A000", in, err)
		}
	}
}

func positionOf(e *sqlerr.Error) int {
	if e == nil {
		return 0
	}
	return e.Position
}
