package sqllogictest

import (
	"reflect"
	"strings"
	"testing"
)

func TestHashValues(t *testing.T) {
	// Digests computed independently with `printf ... | md5sum`.
	tests := []struct {
		values []string
		want   string
	}{
		{nil, "d41d8cd98f00b204e9800998ecf8427e"},
		{[]string{"1", "2", "3"}, "c0710d6b4f15dfa88f600b0e6b624077"},
		{[]string{"a", "NULL", "(empty)"}, "72b876ccbd3d5d4fafd6e014287fa23c"},
	}
	for _, tc := range tests {
		if got := hashValues(tc.values); got != tc.want {
			t.Errorf("hashValues(%q) = %s, want %s", tc.values, got, tc.want)
		}
	}
}

func TestArrange(t *testing.T) {
	rows := [][]string{{"9", "b"}, {"10", "a"}, {"10", "NULL"}, {"1", "z"}}
	tests := []struct {
		mode sortMode
		want [][]string
	}{
		{noSort, rows},
		// strcmp order: "10" < "9", and "NULL" < "a".
		{rowSort, [][]string{{"1", "z"}, {"10", "NULL"}, {"10", "a"}, {"9", "b"}}},
		{valueSort, [][]string{{"1", "10"}, {"10", "9"}, {"NULL", "a"}, {"b", "z"}}},
	}
	for _, tc := range tests {
		if got := arrange(rows, tc.mode, 2); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("arrange(%v) = %q, want %q", tc.mode, got, tc.want)
		}
	}
	if rows[0][0] != "9" {
		t.Errorf("arrange modified its input: %q", rows)
	}
}

func TestDetectLayout(t *testing.T) {
	tests := []struct {
		expected []string
		ncols    int
		want     layout
	}{
		{[]string{"1", "2"}, 2, layoutValuewise},
		{[]string{"1 2", "3 4"}, 2, layoutRowwise},
		{[]string{"1 hello world"}, 2, layoutRowwise},
		{[]string{"1 2", "3"}, 2, layoutValuewise},
		{[]string{"a b"}, 1, layoutValuewise},
		{nil, 3, layoutValuewise},
	}
	for _, tc := range tests {
		if got := detectLayout(tc.expected, tc.ncols); got != tc.want {
			t.Errorf("detectLayout(%q, %d) = %v, want %v", tc.expected, tc.ncols, got, tc.want)
		}
	}
}

func TestResultCheckCompare(t *testing.T) {
	rows := [][]string{{"1", "a b"}, {"2", "NULL"}}
	tests := []struct {
		name      string
		check     resultCheck
		rows      [][]string
		wantMatch bool
		wantInMsg string
	}{
		{"valuewise match", resultCheck{expected: []string{"1", "a b", "2", "NULL"}, ncols: 2}, rows, true, ""},
		{"rowwise match", resultCheck{expected: []string{"1 a b", "2   NULL"}, ncols: 2}, rows, true, ""},
		{"valuewise mismatch names file line", resultCheck{expected: []string{"1", "a b", "3", "NULL"}, expectedLines: []int{10, 11, 12, 13}, ncols: 2}, rows,
			false, "result line 3, file line 12):\n  expected: 3\n  got:      2"},
		{"rowwise mismatch", resultCheck{expected: []string{"1 a b", "2 x"}, ncols: 2}, rows, false, "expected: 2 x\n  got:      2 NULL"},
		{"missing rows", resultCheck{expected: []string{"1", "a b"}, ncols: 2}, rows, false, "expected 2 result lines, got 4"},
		{"extra expected", resultCheck{expected: []string{"1 a b", "2 NULL", "3 c"}, ncols: 2}, rows, false, "first missing row"},
		{"empty expected and empty result", resultCheck{ncols: 1}, nil, true, ""},
		{"hash match", resultCheck{expected: []string{"4 values hashing to " + hashValues([]string{"1", "a b", "2", "NULL"})}, ncols: 2}, rows, true, ""},
		{"hash count mismatch", resultCheck{expected: []string{"5 values hashing to " + hashValues([]string{"1", "a b", "2", "NULL"})}, ncols: 2}, rows, false, "got:      4 values hashing to"},
		{"rowsort sorts expected too", resultCheck{expected: []string{"2", "NULL", "1", "a b"}, ncols: 2, mode: rowSort}, rows, true, ""},
		{"valuesort sorts expected too", resultCheck{expected: []string{"NULL", "2", "a b", "1"}, ncols: 2, mode: valueSort}, arrange(rows, valueSort, 2), true, ""},
		{"rowwise rowsort", resultCheck{expected: []string{"2 NULL", "1 a b"}, ncols: 2, mode: rowSort}, arrange(rows, rowSort, 2), true, ""},
		{"forced valuewise rejects rows", resultCheck{expected: []string{"1 a b", "2 NULL"}, ncols: 2, layout: layoutValuewise}, rows, false, "expected 2 result lines, got 4"},
		{"over threshold shows hash", resultCheck{expected: []string{"1", "x", "2", "NULL"}, ncols: 2, threshold: 3}, rows, false, "(got 4 values hashing to"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.check.compare(tc.rows)
			if (msg == "") != tc.wantMatch {
				t.Fatalf("compare match = %v, want %v; message:\n%s", msg == "", tc.wantMatch, msg)
			}
			if !strings.Contains(msg, tc.wantInMsg) {
				t.Errorf("message %q does not contain %q", msg, tc.wantInMsg)
			}
		})
	}
}

func TestExpectedHash(t *testing.T) {
	want := hashValues([]string{"1", "a", "2", "b"})
	tests := []struct {
		name  string
		check resultCheck
		ok    bool
	}{
		{"valuewise", resultCheck{expected: []string{"2", "b", "1", "a"}, ncols: 2, mode: rowSort}, true},
		{"rowwise", resultCheck{expected: []string{"1 a", "2 b"}, ncols: 2}, true},
		{"stored hash", resultCheck{expected: []string{"4 values hashing to " + strings.ToUpper(want)}, ncols: 2}, true},
		{"ambiguous rowwise", resultCheck{expected: []string{"1 a x", "2 b y"}, ncols: 2, layout: layoutRowwise}, false},
	}
	for _, tc := range tests {
		got, ok := tc.check.expectedHash()
		if ok != tc.ok || (ok && got != want) {
			t.Errorf("%s: expectedHash() = %s, %v; want %s, %v", tc.name, got, ok, want, tc.ok)
		}
	}
}

func TestSummaryString(t *testing.T) {
	tests := []struct {
		s    Summary
		want string
	}{
		{Summary{}, "0 passed, 0 failed"},
		{Summary{Passed: 12, Failed: 3}, "12 passed, 3 failed"},
		{Summary{Passed: 1, Failed: 0, Skipped: 4}, "1 passed, 0 failed, 4 skipped"},
	}
	for _, tc := range tests {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.s, got, tc.want)
		}
	}
}
