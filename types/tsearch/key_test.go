package tsearch

import (
	"bytes"
	"testing"
)

// TestKeysOrderAsPostgres: pairs of values in PostgreSQL 15's order
// (tsvector_cmp, tsquery_cmp: each pair checked there with <), and pairs
// it calls equal.
func TestKeysOrderAsPostgres(t *testing.T) {
	vectors := []struct{ lo, hi string }{
		{"", "b"},
		{"b", "c"},
		{"b", "ab"},      // stored size first: 13 < 14 bytes
		{"ab", "a:2"},    // a lexeme with positions is larger
		{"a:2", "a:1A"},  // greater position first
		{"a:1A", "a:1"},  // greater weight first
		{"a:1", "a b"},   // same size, fewer lexemes first
		{"a:1", "a:1,2"}, // 18 < 20 bytes
	}
	for _, c := range vectors {
		lo, hi := mustVector(t, c.lo), mustVector(t, c.hi)
		if bytes.Compare(lo.Key(), hi.Key()) >= 0 {
			t.Errorf("tsvector %q should sort before %q", c.lo, c.hi)
		}
	}
	queries := []struct{ lo, hi string }{
		{"a", "b"},  // operands' CRCs decide
		{"b", "!a"}, // fewer items first
		{"!a", "a <2> b"},
		{"a <2> b", "a <-> b"}, // greater distance first
		{"a <-> b", "a | b"},   // phrase (4) before or (3): greater operator first
		{"a | b", "a & b"},
	}
	for _, c := range queries {
		lo, hi := mustQuery(t, c.lo), mustQuery(t, c.hi)
		if bytes.Compare(lo.Key(), hi.Key()) >= 0 {
			t.Errorf("tsquery %q should sort before %q", c.lo, c.hi)
		}
	}
	for _, eq := range [][2]string{{"a:A", "a"}, {"a:*", "a"}, {"a:AB & b", "a & b:*"}} {
		if !bytes.Equal(mustQuery(t, eq[0]).Key(), mustQuery(t, eq[1]).Key()) {
			t.Errorf("tsquery %q and %q are equal in PostgreSQL", eq[0], eq[1])
		}
	}
}

func mustVector(t *testing.T, s string) Vector {
	t.Helper()
	v, err := ParseVector(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustQuery(t *testing.T, s string) Query {
	t.Helper()
	q, err := ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
