package fluss

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestArrowSchemasGet(t *testing.T) {
	builds := 0
	build := func(name string) func() *arrow.Schema {
		return func() *arrow.Schema {
			builds++
			return arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.PrimitiveTypes.Int64}}, nil)
		}
	}
	tests := []struct {
		name       string
		cache      *ArrowSchemas
		keys       []string
		wantBuilds int
	}{
		{"nil cache builds every time", nil, []string{"a", "a", "a"}, 3},
		{"one key builds once", NewArrowSchemas(), []string{"a", "a", "a"}, 1},
		{"each key builds once", NewArrowSchemas(), []string{"a", "b", "a", "b"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			builds = 0
			got := map[string]*arrow.Schema{}
			for _, k := range tc.keys {
				s := tc.cache.Get([]byte(k), build(k))
				if s.Field(0).Name != k {
					t.Fatalf("key %q: schema %v", k, s)
				}
				if prev, ok := got[k]; ok && tc.cache != nil && prev != s {
					t.Errorf("key %q: a second schema", k)
				}
				got[k] = s
			}
			if builds != tc.wantBuilds {
				t.Errorf("%d builds, want %d", builds, tc.wantBuilds)
			}
		})
	}
}

// TestArrowSchemasBounded checks that keys past the bound are built each
// time instead of growing the cache.
func TestArrowSchemasBounded(t *testing.T) {
	c := NewArrowSchemas()
	builds := 0
	for i := 0; i < 2*maxArrowSchemas; i++ {
		for range 2 {
			name := fmt.Sprint(i)
			c.Get([]byte(name), func() *arrow.Schema {
				builds++
				return arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.PrimitiveTypes.Int64}}, nil)
			})
		}
	}
	if len(c.m) != maxArrowSchemas {
		t.Errorf("cache holds %d schemas, bound %d", len(c.m), maxArrowSchemas)
	}
	if want := maxArrowSchemas + 2*maxArrowSchemas; builds != want {
		t.Errorf("%d builds, want %d", builds, want)
	}
}
