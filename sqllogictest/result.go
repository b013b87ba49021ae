package sqllogictest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// labelSignificant is how many characters of a label SQLite compares.
const labelSignificant = 20

var hashLine = regexp.MustCompile(`^\s*([0-9]+) values hashing to ([0-9a-fA-F]{32})\s*$`)

// hashValues is SQLite's result hash: MD5 over every rendered value
// followed by a newline, in result order (after sorting).
func hashValues(values []string) string {
	h := md5.New()
	for _, v := range values {
		h.Write([]byte(v))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// compareRows orders rows column by column with byte-wise (strcmp)
// comparison of the rendered text, so "9" sorts after "10".
func compareRows(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := strings.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func flatten(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// chunk regroups values into rows of n; a short tail stays a short row.
func chunk(values []string, n int) [][]string {
	if n <= 0 {
		n = 1
	}
	var rows [][]string
	for len(values) > 0 {
		k := min(n, len(values))
		rows = append(rows, values[:k])
		values = values[k:]
	}
	return rows
}

// arrange applies a sort mode to rendered rows. valuesort sorts all values
// and regroups them into rows of ncols, as sqllogictest-rs does.
func arrange(rows [][]string, mode sortMode, ncols int) [][]string {
	out := make([][]string, len(rows))
	copy(out, rows)
	switch mode {
	case rowSort:
		sort.SliceStable(out, func(i, j int) bool { return compareRows(out[i], out[j]) < 0 })
	case valueSort:
		values := flatten(rows)
		sort.Strings(values)
		out = chunk(values, ncols)
	}
	return out
}

// normalizeSpace collapses runs of whitespace, as the sqllogictest-rs
// validator does for rowwise results.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// detectLayout guesses the layout of expected result lines: rowwise when
// there are several columns and every line has at least that many fields.
func detectLayout(expected []string, ncols int) layout {
	if ncols <= 1 || len(expected) == 0 {
		return layoutValuewise
	}
	for _, l := range expected {
		if len(strings.Fields(l)) < ncols {
			return layoutValuewise
		}
	}
	return layoutRowwise
}

// resultCheck holds what is needed to compare one query's results.
type resultCheck struct {
	expected      []string
	expectedLines []int
	mode          sortMode
	layout        layout // layoutAuto: detect, and accept either layout
	ncols         int
	threshold     int // values above this would be stored as a hash; <=0 never
}

// compare returns "" when rows (already arranged by the sort mode) match
// the expectation, else a description of the first difference.
func (c resultCheck) compare(rows [][]string) string {
	values := flatten(rows)
	if len(c.expected) == 1 {
		if m := hashLine.FindStringSubmatch(c.expected[0]); m != nil {
			got := hashValues(values)
			if n, err := strconv.Atoi(m[1]); err == nil && n == len(values) && strings.EqualFold(m[2], got) {
				return ""
			}
			return fmt.Sprintf("  expected: %s\n  got:      %d values hashing to %s%s",
				strings.TrimSpace(c.expected[0]), len(values), got, preview(rows))
		}
	}
	lay := c.layout
	if lay == layoutAuto {
		lay = detectLayout(c.expected, c.ncols)
		// The guess can be wrong when every value is multi-word text; a
		// match in the other layout is still a match.
		other := layoutRowwise
		if lay == layoutRowwise {
			other = layoutValuewise
		}
		if c.compareLayout(rows, other) == "" {
			return ""
		}
	}
	msg := c.compareLayout(rows, lay)
	if msg != "" && c.threshold > 0 && len(values) > c.threshold {
		msg += fmt.Sprintf("\n  (got %d values hashing to %s)", len(values), hashValues(values))
	}
	return msg
}

func (c resultCheck) compareLayout(rows [][]string, lay layout) string {
	exp := append([]string(nil), c.expected...)
	var got []string
	if lay == layoutRowwise {
		for i := range exp {
			exp[i] = normalizeSpace(exp[i])
		}
		for _, r := range rows {
			got = append(got, normalizeSpace(strings.Join(r, " ")))
		}
		switch c.mode {
		case rowSort:
			sort.Strings(exp)
			sort.Strings(got)
		case valueSort:
			exp = strings.Fields(strings.Join(exp, " "))
			got = strings.Fields(strings.Join(got, " "))
			sort.Strings(exp)
			sort.Strings(got)
		}
	} else {
		got = flatten(rows)
		switch c.mode {
		case rowSort:
			if c.ncols > 0 && len(exp)%c.ncols == 0 {
				grouped := chunk(exp, c.ncols)
				sort.SliceStable(grouped, func(i, j int) bool { return compareRows(grouped[i], grouped[j]) < 0 })
				exp = flatten(grouped)
			}
		case valueSort:
			sort.Strings(exp)
		}
	}
	return c.firstDifference(exp, got, lay)
}

func (c resultCheck) firstDifference(exp, got []string, lay layout) string {
	unit := "value"
	if lay == layoutRowwise {
		unit = "row"
	}
	for i := 0; i < len(exp) || i < len(got); i++ {
		switch {
		case i >= len(exp):
			return fmt.Sprintf("  expected %d result lines, got %d; first extra %s (result line %d):\n  got:      %s",
				len(exp), len(got), unit, i+1, got[i])
		case i >= len(got):
			return fmt.Sprintf("  expected %d result lines, got %d; first missing %s (result line %d%s):\n  expected: %s",
				len(exp), len(got), unit, i+1, c.fileLine(i), exp[i])
		case exp[i] != got[i]:
			counts := ""
			if len(exp) != len(got) {
				counts = fmt.Sprintf("expected %d result lines, got %d; ", len(exp), len(got))
			}
			return fmt.Sprintf("  %sfirst mismatching %s (result line %d%s):\n  expected: %s\n  got:      %s",
				counts, unit, i+1, c.fileLine(i), exp[i], got[i])
		}
	}
	return ""
}

// fileLine names the file line of expected line i when results are compared
// in file order (nosort); after sorting the index no longer maps to a line.
func (c resultCheck) fileLine(i int) string {
	if c.mode != noSort || i >= len(c.expectedLines) {
		return ""
	}
	return fmt.Sprintf(", file line %d", c.expectedLines[i])
}

// expectedHash computes the label hash a skipped query would have produced,
// from the results stored in the file.
func (c resultCheck) expectedHash() (string, bool) {
	if len(c.expected) == 1 {
		if m := hashLine.FindStringSubmatch(c.expected[0]); m != nil {
			return strings.ToLower(m[2]), true
		}
	}
	lay := c.layout
	if lay == layoutAuto {
		lay = detectLayout(c.expected, c.ncols)
	}
	var rows [][]string
	if lay == layoutRowwise {
		for _, l := range c.expected {
			f := strings.Fields(l)
			if len(f) != c.ncols {
				return "", false // a text value with spaces: ambiguous
			}
			rows = append(rows, f)
		}
	} else {
		rows = chunk(c.expected, c.ncols)
	}
	return hashValues(flatten(arrange(rows, c.mode, c.ncols))), true
}

// preview shows the first few actual rows under a hash mismatch, which is
// otherwise opaque.
func preview(rows [][]string) string {
	const maxRows = 5
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n  first rows got:")
	for i, r := range rows {
		if i == maxRows {
			fmt.Fprintf(&b, "\n    ... (%d more)", len(rows)-maxRows)
			break
		}
		b.WriteString("\n    " + strings.Join(r, " "))
	}
	return b.String()
}

func labelKey(label string) string {
	if len(label) > labelSignificant {
		return label[:labelSignificant]
	}
	return label
}
