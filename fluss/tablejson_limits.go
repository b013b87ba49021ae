package fluss

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/types"
)

// Fluss's STRING has no length, so a cluster would lose a VARCHAR(n)
// column's limit (and the difference between varchar and text, Length -1).
// The table JSON sent to a cluster keeps each limit in the table's
// custom_properties, which Fluss stores and returns untouched, under
// varcharKeyPrefix + the JSON array of the steps from the column to the
// string ("c:NAME" the column, "f:NAME" a ROW field, "e" an ARRAY element,
// "k"/"v" a MAP key/value); ParseTableJSON puts them back. Other clients
// see a plain STRING column.
const varcharKeyPrefix = "sqlgate.varchar-length:"

// putVarcharLimits adds the limits of t (reached by steps) to custom.
func putVarcharLimits(t types.T, steps []string, custom map[string]string) {
	switch t.Kind {
	case types.String:
		if t.Length != 0 {
			custom[varcharKey(steps)] = strconv.Itoa(t.Length)
		}
	case types.Array:
		putVarcharLimits(*t.Elem, append(steps, "e"), custom)
	case types.Map:
		putVarcharLimits(*t.Key, append(steps, "k"), custom)
		putVarcharLimits(*t.Elem, append(steps, "v"), custom)
	case types.Row:
		for _, f := range t.Fields {
			putVarcharLimits(f.Type, append(steps, "f:"+f.Name), custom)
		}
	}
}

// VarcharLimitProperties are the custom properties that keep col's
// VARCHAR(n) limits on a cluster, as CREATE TABLE's JSON carries them: what
// an ALTER TABLE that adds col sets with it.
func VarcharLimitProperties(col Column) map[string]string {
	out := map[string]string{}
	putVarcharLimits(col.Type, []string{"c:" + col.Name}, out)
	return out
}

// takeVarcharLimits sets the limits custom keeps on t's strings.
func takeVarcharLimits(t *types.T, steps []string, custom map[string]string) {
	switch t.Kind {
	case types.String:
		if v, ok := custom[varcharKey(steps)]; ok {
			if n, err := strconv.Atoi(v); err == nil && n >= -1 {
				t.Length = n
			}
		}
	case types.Array:
		e := *t.Elem
		takeVarcharLimits(&e, append(steps, "e"), custom)
		t.Elem = &e
	case types.Map:
		k, v := *t.Key, *t.Elem
		takeVarcharLimits(&k, append(steps, "k"), custom)
		takeVarcharLimits(&v, append(steps, "v"), custom)
		t.Key, t.Elem = &k, &v
	case types.Row:
		fs := append([]types.Field(nil), t.Fields...)
		for i := range fs {
			takeVarcharLimits(&fs[i].Type, append(steps, "f:"+fs[i].Name), custom)
		}
		t.Fields = fs
	}
}

// takeVarcharKeys moves the limits out of a table's custom properties
// (they are sqlgate's bookkeeping, not properties of the table).
func takeVarcharKeys(custom map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range custom {
		if strings.HasPrefix(k, varcharKeyPrefix) {
			out[k] = v
			delete(custom, k)
		}
	}
	return out
}

// applyVarcharLimits sets the limits on the columns' strings.
func applyVarcharLimits(cols []Column, limits map[string]string) {
	if len(limits) == 0 {
		return
	}
	for i := range cols {
		takeVarcharLimits(&cols[i].Type, []string{"c:" + cols[i].Name}, limits)
	}
}

func varcharKey(steps []string) string {
	b, _ := json.Marshal(steps)
	return varcharKeyPrefix + string(b)
}
