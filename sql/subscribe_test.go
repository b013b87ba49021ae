package sql

import (
	"fmt"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestParseSubscribe(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		in   string
		want SubscribeStmt
	}{
		{"SUBSCRIBE t", SubscribeStmt{Table: ObjectName{Name: "t"}}},
		{"subscribe to s.\"T\"", SubscribeStmt{Table: ObjectName{Schema: "s", Name: "T"}}},
		{"SUBSCRIBE (SELECT a, (b) FROM t WHERE a > 1)", SubscribeStmt{Query: "SELECT a, (b) FROM t WHERE a > 1"}},
		{"SUBSCRIBE t WITH (SNAPSHOT = false, PROGRESS)", SubscribeStmt{Table: ObjectName{Name: "t"}, Snapshot: &no, Progress: true}},
		{"SUBSCRIBE t WITH (PROGRESS = 'on', SNAPSHOT true)", SubscribeStmt{Table: ObjectName{Name: "t"}, Snapshot: &yes, Progress: true}},
		{"SUBSCRIBE t FROM EARLIEST", SubscribeStmt{Table: ObjectName{Name: "t"}, Start: SubscribeEarliest}},
		{"SUBSCRIBE t WITH (SNAPSHOT = false) FROM LATEST", SubscribeStmt{Table: ObjectName{Name: "t"}, Snapshot: &no, Start: SubscribeLatest}},
		{"SUBSCRIBE t FROM OFFSETS '{0:5, \"1\": 7}'", SubscribeStmt{Table: ObjectName{Name: "t"}, Start: SubscribeOffsets, Offsets: map[int]int64{0: 5, 1: 7}}},
		{"SUBSCRIBE t FROM TIMESTAMP '2026-01-02 03:04:05+00'", SubscribeStmt{Table: ObjectName{Name: "t"}, Start: SubscribeTimestamp, Timestamp: "2026-01-02 03:04:05+00"}},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if len(stmts) != 1 || stmts[0].Kind != Subscribe || stmts[0].DDL == nil || stmts[0].DDL.Subscribe == nil {
			t.Errorf("%s: parsed as %v", c.in, stmts)
			continue
		}
		if got, want := describeSubscribe(stmts[0].DDL.Subscribe), describeSubscribe(&c.want); got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, want)
		}
	}
	for _, bad := range []string{
		"SUBSCRIBE", "SUBSCRIBE ()", "SUBSCRIBE (SELECT 1", "SUBSCRIBE t WITH (SNAPSHOT = maybe)",
		"SUBSCRIBE t WITH (FOO = true)", "SUBSCRIBE t WITH (PROGRESS, PROGRESS)", "SUBSCRIBE t FROM NOWHERE",
		"SUBSCRIBE t FROM OFFSETS '{0}'", "SUBSCRIBE t FROM OFFSETS '{0:1,0:2}'", "SUBSCRIBE t FROM OFFSETS '[0:1]'",
		"SUBSCRIBE t FROM OFFSETS '{0:-1}'", "SUBSCRIBE t trailing",
	} {
		if _, err := p.Parse(bad); err == nil || sqlerr.As(err) == nil {
			t.Errorf("%s: want an SQL error, got %v", bad, err)
		}
	}
}

func describeSubscribe(s *SubscribeStmt) string {
	snap := "nil"
	if s.Snapshot != nil {
		snap = fmt.Sprint(*s.Snapshot)
	}
	return fmt.Sprintf("table=%v query=%q snapshot=%s progress=%v start=%d offsets=%v ts=%q", s.Table, s.Query, snap, s.Progress, s.Start, s.Offsets, s.Timestamp)
}

func TestParseFetchTimeout(t *testing.T) {
	p := NewParser()
	for in, want := range map[string]string{
		"FETCH 10 c WITH (timeout = '1s')":        "1s",
		"FETCH ALL FROM c WITH (TIMEOUT '250ms')": "250ms",
		"FETCH c WITH (timeout = 0)":              "0",
		"FETCH c":                                 "",
	} {
		stmts, err := p.Parse(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := stmts[0].DDL.Cursor.Timeout; got != want {
			t.Errorf("%s: timeout %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"FETCH c WITH (wait = '1s')", "FETCH c WITH (timeout = '1s'", "FETCH c WITH timeout"} {
		if _, err := p.Parse(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
	stmts, err := p.Parse("DECLARE c CURSOR FOR SUBSCRIBE t WITH (SNAPSHOT = false)")
	if err != nil || stmts[0].DDL.Cursor.Query != "SUBSCRIBE t WITH (SNAPSHOT = false)" {
		t.Fatalf("DECLARE ... FOR SUBSCRIBE: %v %v", stmts, err)
	}
}
