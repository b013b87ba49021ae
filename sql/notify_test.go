package sql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestNotifyStatements(t *testing.T) {
	long := strings.Repeat("a", 70)
	tests := []struct {
		in   string
		kind Kind
		want NotifyStmt
	}{
		{"LISTEN jobs", Listen, NotifyStmt{Channel: "jobs"}},
		{`listen "Jobs"`, Listen, NotifyStmt{Channel: "Jobs"}},
		{"LISTEN name", Listen, NotifyStmt{Channel: "name"}}, // unreserved keyword
		{"LISTEN " + long, Listen, NotifyStmt{Channel: long[:63]}},
		{"UNLISTEN Jobs", Unlisten, NotifyStmt{Channel: "jobs"}},
		{"UNLISTEN *", Unlisten, NotifyStmt{}},
		{"NOTIFY jobs", Notify, NotifyStmt{Channel: "jobs"}},
		{"NOTIFY jobs, 'it''s'", Notify, NotifyStmt{Channel: "jobs", Payload: "it's"}},
		{`NOTIFY jobs, E'a\nb'`, Notify, NotifyStmt{Channel: "jobs", Payload: "a\nb"}},
		{"NOTIFY jobs, $$x$$", Notify, NotifyStmt{Channel: "jobs", Payload: "x"}},
	}
	for _, tc := range tests {
		st := parseOne(t, tc.in)
		if st.Kind != tc.kind || st.AST != nil || st.Notify == nil || !reflect.DeepEqual(*st.Notify, tc.want) {
			t.Errorf("%q: kind %v notify %+v, want %v %+v", tc.in, st.Kind, st.Notify, tc.kind, tc.want)
		}
	}
}

func TestNotifySyntaxErrors(t *testing.T) {
	// PostgreSQL 15's errors, token and position (psql against 15.18).
	tests := []struct{ in, msg string }{
		{"NOTIFY", "syntax error at end of input"},
		{"NOTIFY c, NULL", `syntax error at or near "NULL"`},
		{"NOTIFY c, 'a' || 'b'", `syntax error at or near "||"`},
		{"NOTIFY c, 'a', 'b'", `syntax error at or near ","`},
		{"NOTIFY c 'a'", `syntax error at or near "'a'"`},
		{"LISTEN 'x'", `syntax error at or near "'x'"`},
		{"LISTEN select", `syntax error at or near "select"`},
		{"LISTEN a.b", `syntax error at or near "."`},
		{"UNLISTEN", "syntax error at end of input"},
		{"UNLISTEN * x", `syntax error at or near "x"`},
	}
	p := NewParser()
	for _, tc := range tests {
		_, err := p.Parse(tc.in)
		se := sqlerr.As(err)
		if se == nil || se.Code != sqlerr.SyntaxError || se.Message != tc.msg {
			t.Errorf("%q: error %v, want 42601 %s", tc.in, err, tc.msg)
		}
	}
}
