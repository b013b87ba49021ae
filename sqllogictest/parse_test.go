package sqllogictest

import (
	"reflect"
	"strings"
	"testing"
)

// recordView is the comparable part of a record, for table-driven tests.
type recordView struct {
	Line     int
	Kind     recordKind
	Conds    []condition
	SQL      string
	Types    string
	Sort     sortMode
	Explicit bool
	Label    string
	Expected []string
	ErrState string
	ErrRegex string
	ErrMsg   string
	AnyErr   bool
	Count    int64
	Problem  string
}

func view(r record) recordView {
	v := recordView{
		Line: r.line, Kind: r.kind, Conds: r.conds, SQL: r.sql, Types: r.types,
		Sort: r.sort, Explicit: r.sortExplicit, Label: r.label, Expected: r.expected,
		Count: r.expectCount, Problem: r.problem,
	}
	if e := r.expectErr; e != nil {
		v.ErrState, v.ErrMsg = e.sqlstate, e.message
		if e.pattern != nil {
			v.ErrRegex = e.pattern.String()
		}
		v.AnyErr = e.sqlstate == "" && e.pattern == nil && !e.hasMsg
	}
	return v
}

func TestParseScript(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   []recordView
	}{
		{
			name:   "statement ok with comment inside",
			script: "# leading comment\n\nstatement ok\n# inside\nCREATE TABLE t (a int)\n",
			want:   []recordView{{Line: 3, Kind: kindStatement, SQL: "CREATE TABLE t (a int)"}},
		},
		{
			name:   "CRLF and whitespace-only separator",
			script: "statement ok\r\nSELECT 1\r\n   \r\nquery I nosort\r\nSELECT 1\r\n----\r\n1\r\n",
			want: []recordView{
				{Line: 1, Kind: kindStatement, SQL: "SELECT 1"},
				{Line: 4, Kind: kindQuery, SQL: "SELECT 1", Types: "I", Sort: noSort, Explicit: true, Expected: []string{"1"}},
			},
		},
		{
			name:   "multi-line SQL and label",
			script: "query IT rowsort label-1\nSELECT a,\n  b FROM t\n----\n1\nx\n",
			want:   []recordView{{Line: 1, Kind: kindQuery, SQL: "SELECT a,\n  b FROM t", Types: "IT", Sort: rowSort, Explicit: true, Label: "label-1", Expected: []string{"1", "x"}}},
		},
		{
			name:   "label without sort mode",
			script: "query I lbl\nSELECT 1\n",
			want:   []recordView{{Line: 1, Kind: kindQuery, SQL: "SELECT 1", Types: "I", Label: "lbl"}},
		},
		{
			name:   "conditions case-insensitive with trailing text",
			script: "SkipIf MySQL # not compatible\nonlyif sqlgate\nstatement ok\nSELECT 1\n",
			want: []recordView{{Line: 3, Kind: kindStatement, SQL: "SELECT 1",
				Conds: []condition{{onlyIf: false, engine: "MySQL"}, {onlyIf: true, engine: "sqlgate"}}}},
		},
		{
			name:   "statement error forms",
			script: "statement error\nX\n\nstatement error (42P01)\nX\n\nstatement error relation .* does not exist\nX\n\nstatement count 3\nX\n",
			want: []recordView{
				{Line: 1, Kind: kindStatement, SQL: "X", AnyErr: true},
				{Line: 4, Kind: kindStatement, SQL: "X", ErrState: "42P01"},
				{Line: 7, Kind: kindStatement, SQL: "X", ErrRegex: "relation .* does not exist"},
				{Line: 10, Kind: kindStatement, SQL: "X", Count: 3},
			},
		},
		{
			name:   "query error with SQLSTATE and multi-line message",
			script: "query error (22012)\nSELECT 1/0\n\nstatement error\nSELECT x\n----\ncolumn \"x\" does not exist\n\n\nstatement ok\nSELECT 2\n",
			want: []recordView{
				{Line: 1, Kind: kindQuery, SQL: "SELECT 1/0", ErrState: "22012"},
				{Line: 4, Kind: kindStatement, SQL: "SELECT x", ErrMsg: `column "x" does not exist`},
				{Line: 10, Kind: kindStatement, SQL: "SELECT 2"},
			},
		},
		{
			name:   "control records",
			script: "hash-threshold 10\n\nhalt\n\ncontrol sortmode rowsort\n\ncontrol resultmode valuewise\n\ninclude part/*.slt.part\n",
			want: []recordView{
				{Line: 1, Kind: kindHashThreshold},
				{Line: 3, Kind: kindHalt},
				{Line: 5, Kind: kindSortMode},
				{Line: 7, Kind: kindResultMode},
				{Line: 9, Kind: kindInclude},
			},
		},
		{
			name:   "query without results expects nothing",
			script: "query T\nSELECT 'a' WHERE false\n",
			want:   []recordView{{Line: 1, Kind: kindQuery, SQL: "SELECT 'a' WHERE false", Types: "T"}},
		},
		{
			name:   "invalid records become failures and parsing continues",
			script: "frobnicate\nstuff\n\nquery I bogus extra\nSELECT 1\n\nstatement error ([unclosed\nX\n\nonlyif\nstatement ok\nX\n\nstatement ok\nSELECT 3\n",
			want: []recordView{
				{Line: 1, Kind: kindInvalid, Problem: `unsupported record type "frobnicate"`},
				{Line: 4, Kind: kindInvalid, Types: "I", Problem: `unknown sort mode "bogus"`},
				{Line: 7, Kind: kindInvalid, Problem: "bad error regex \"([unclosed\": error parsing regexp: missing closing ]: `[unclosed`"},
				{Line: 10, Kind: kindInvalid, Problem: "onlyif needs an engine name"},
				{Line: 14, Kind: kindStatement, SQL: "SELECT 3"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs := parseScript("f.slt", tc.script)
			var got []recordView
			for _, r := range recs {
				got = append(got, view(r))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parse mismatch\n got: %+v\nwant: %+v", got, tc.want)
			}
		})
	}
}

func TestParseControlArguments(t *testing.T) {
	recs := parseScript("f.slt", "hash-threshold 0\n\ncontrol sortmode valuesort\n\ncontrol resultmode rowwise\n\ninclude a b\n\nhash-threshold x\n")
	if len(recs) != 5 {
		t.Fatalf("got %d records, want 5", len(recs))
	}
	if recs[0].threshold != 0 || recs[1].sortArg != valueSort || recs[2].layoutArg != layoutRowwise {
		t.Errorf("control arguments parsed as %d %v %v", recs[0].threshold, recs[1].sortArg, recs[2].layoutArg)
	}
	for _, r := range recs[3:] {
		if r.kind != kindInvalid {
			t.Errorf("line %d: kind %v, want invalid", r.line, r.kind)
		}
	}
}

func TestParseExpectedLineNumbers(t *testing.T) {
	script := strings.Join([]string{"query I", "SELECT 1", "----", "1", "# comment", "2"}, "\n")
	recs := parseScript("f.slt", script)
	if len(recs) != 1 || !reflect.DeepEqual(recs[0].expectedLines, []int{4, 6}) {
		t.Fatalf("expected lines = %+v", recs[0].expectedLines)
	}
}
