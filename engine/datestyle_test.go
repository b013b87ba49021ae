package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestDateStyleParameterStatus: SET DateStyle reports (ParameterStatus)
// and shows the canonical value PostgreSQL does, when it changed (as
// PostgreSQL reports only a value it did not report last; a lone style
// or order keeps the other half, German alone setting DMY); a refused SET
// reports nothing, and a startup DateStyle (pgJDBC sends "ISO") is kept in
// the canonical form.
func TestDateStyleParameterStatus(t *testing.T) {
	s := newSession(t)
	prev := "ISO, MDY"
	for _, c := range []struct {
		set, want string
		code      sqlerr.Code
	}{
		{set: "SET DateStyle = dmy", want: "ISO, DMY"},
		{set: "SET DateStyle = 'Euro, ISO'", want: "ISO, DMY"},
		{set: "SET DateStyle TO US", want: "ISO, MDY"},
		{set: "SET DateStyle = 'iso, sql'", code: sqlerr.InvalidParameterValue},
		{set: "SET DateStyle = German", want: "German, DMY"},
		{set: "SET DateStyle = 'YMD'", want: "German, YMD"},
		{set: "SET DateStyle = 'SQL'", want: "SQL, YMD"},
		{set: "RESET DateStyle", want: "ISO, MDY"},
	} {
		s.StatusChanges()
		_, _, err := run(t, s, c.set)
		changes := s.StatusChanges()
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code || len(changes) != 0 {
				t.Errorf("%s: %v, status changes %v; want %s and none", c.set, err, changes, c.code)
			}
			continue
		}
		if got, reported := changes["DateStyle"]; err != nil || reported != (c.want != prev) || reported && got != c.want {
			t.Errorf("%s: %v, status changes %v; want DateStyle %q (last reported %q)", c.set, err, changes, c.want, prev)
		}
		prev = c.want
		if lines, _, err := run(t, s, "SHOW DateStyle"); err != nil || len(lines) != 1 || lines[0] != c.want {
			t.Errorf("%s; SHOW DateStyle: %q %v, want %q", c.set, lines, err, c.want)
		}
	}

	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	js, err := engine.New(store, engine.Options{}).NewSession(context.Background(),
		pgwire.SessionInfo{User: "u", Params: map[string]string{"DateStyle": "ISO"}})
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close()
	if v, ok := js.Status("DateStyle"); !ok || v != "ISO, MDY" {
		t.Errorf("startup DateStyle ISO: %q %v, want \"ISO, MDY\"", v, ok)
	}
}
