package functions

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// randomJSONB writes a random JSON document of small depth, with values
// chosen to collide often: numbers written in several ways ('1', '1.0',
// '1e0'), short keys of one and two letters, empty containers.
func randomJSONB(rng *rand.Rand, depth int) string {
	scalars := []string{"null", "true", "false", "0", "1", "1.0", "1e0", "-2.5", "10", `""`, `"a"`, `"b"`, `"ab"`, `"a\u0001"`}
	if depth == 0 || rng.Intn(3) == 0 {
		return scalars[rng.Intn(len(scalars))]
	}
	n := rng.Intn(3)
	parts := make([]string, n)
	if rng.Intn(2) == 0 {
		for i := range parts {
			parts[i] = randomJSONB(rng, depth-1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	keys := []string{"a", "b", "aa", "ab", "c"}
	for i := range parts {
		parts[i] = fmt.Sprintf("%q:%s", keys[rng.Intn(len(keys))], randomJSONB(rng, depth-1))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestJSONBKeyOrderMatchesCompare: types.AppendJSONBKey's bytes order and
// equate documents exactly as CompareJSONB (jsonb's btree order, which
// the jsonb operators use) does, so that ORDER BY, DISTINCT and GROUP BY
// agree with < and =.
func TestJSONBKeyOrderMatchesCompare(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	docs := make([]string, 400)
	for i := range docs {
		docs[i] = randomJSONB(rng, 3)
	}
	keys := make([][]byte, len(docs))
	for i, d := range docs {
		k, err := types.AppendJSONBKey(nil, d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		keys[i] = k
	}
	equal := 0
	for i := range docs {
		for j := range docs {
			want, err := CompareJSONB(docs[i], docs[j])
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Compare(keys[i], keys[j]); got != want {
				t.Fatalf("%s vs %s: keys compare %d, jsonb %d", docs[i], docs[j], got, want)
			}
			if want == 0 && docs[i] != docs[j] {
				equal++
			}
		}
	}
	if equal == 0 {
		t.Error("no two different texts were equal as jsonb: the generator lost its collisions")
	}
}
