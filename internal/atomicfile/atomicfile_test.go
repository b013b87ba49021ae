package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesWithMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, content := range []string{"first", "second, longer"} {
		if err := Write(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q %v, want %q", got, err, content)
		}
		st, _ := os.Stat(path)
		if st.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", st.Mode().Perm())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("x"), 0o600); err == nil {
		t.Error("writing into a missing directory must fail")
	}
}

func TestJSONRoundTripMissingAndDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.json")
	var v map[string]int
	if found, err := ReadJSON(path, "test file", &v); found || err != nil || v != nil {
		t.Fatalf("missing file: found %v err %v v %v, want not found, no error, v untouched", found, err, v)
	}
	if err := WriteJSON(path, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if found, err := ReadJSON(path, "test file", &v); !found || err != nil || v["a"] != 1 {
		t.Fatalf("after write: found %v err %v v %v", found, err, v)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	if err := os.WriteFile(path, []byte("{oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadJSON(path, "test file", &v)
	if err == nil || !strings.Contains(err.Error(), "test file "+path) {
		t.Fatalf("damaged file: err %v, want one naming the file", err)
	}
}
