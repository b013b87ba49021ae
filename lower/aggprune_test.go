package lower

import (
	"strings"
	"testing"
)

// TestAggregateInputPruning: the scans under an aggregation decode only
// the columns its keys, arguments, FILTERs, ORDER BYs and the filters
// between read, with or without a join between.
func TestAggregateInputPruning(t *testing.T) {
	cases := []struct{ sql, scans string }{
		{"SELECT count(*), sum(amount) FROM orders WHERE cust < 5", "scan: table=orders columns=[cust, amount]"},
		{"SELECT count(*) FROM orders", "scan: table=orders columns=[id]"},
		{"SELECT cust, max(note) FILTER (WHERE amount > 1) FROM orders GROUP BY cust", "scan: table=orders columns=[cust, amount, note]"},
		{"SELECT string_agg(note, ',' ORDER BY amount) FROM orders", "scan: table=orders columns=[amount, note]"},
		{"SELECT c.region, avg(o.amount) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region",
			"scan: table=orders columns=[cust, amount] | scan: table=customers columns=[id, region]"},
		{"SELECT c.region, count(*) FROM orders o JOIN customers c ON o.cust = c.id WHERE o.note <> c.name GROUP BY c.region",
			"scan: table=orders columns=[cust, note] | scan: table=c columns=[id, region, name]"},
	}
	for _, c := range cases {
		lines := explainLines(t, c.sql)
		var scans []string
		for _, l := range lines {
			if s := strings.TrimSpace(l); strings.HasPrefix(s, "scan:") {
				scans = append(scans, strings.TrimSpace(s[:strings.Index(s, " (")]))
			}
		}
		if got := strings.Join(scans, " | "); got != c.scans {
			t.Errorf("%s:\n got %s\nwant %s\n%s", c.sql, got, c.scans, strings.Join(lines, "\n"))
		}
	}
}
