package engine_test

import "testing"

// TestWriteTags: a write's command tag counts its rows, whether the count
// is one of the shared tags (0 and 1 rows, results made once) or not, and
// the shared ones come back unchanged however often they are returned.
func TestWriteTags(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE wt (k BIGINT PRIMARY KEY, v BIGINT)")
	for round := range 2 {
		for _, c := range []struct{ sql, tag string }{
			{"BEGIN", "BEGIN"},
			{"INSERT INTO wt VALUES (1, 1)", "INSERT 0 1"},
			{"INSERT INTO wt VALUES (2, 1), (3, 1)", "INSERT 0 2"},
			{"INSERT INTO wt SELECT 4, 1 WHERE false", "INSERT 0 0"},
			{"UPDATE wt SET v = v + 1 WHERE k = 99", "UPDATE 0"},
			{"UPDATE wt SET v = v + 1 WHERE k = 1", "UPDATE 1"},
			{"UPDATE wt SET v = v + 1 WHERE k IN (2, 3)", "UPDATE 2"},
			{"UPDATE wt SET v = v + 1", "UPDATE 3"},
			{"DELETE FROM wt WHERE k = 99", "DELETE 0"},
			{"DELETE FROM wt WHERE k = 1", "DELETE 1"},
			{"DELETE FROM wt WHERE k IN (2, 3)", "DELETE 2"},
			{"COMMIT", "COMMIT"},
		} {
			if _, tag, err := run(t, s, c.sql); err != nil || tag != c.tag {
				t.Errorf("round %d: %s: tag %q, %v; want %q", round, c.sql, tag, err, c.tag)
			}
		}
	}
}
