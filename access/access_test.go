package access

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGrantRevokeHas(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetOwner(1, "fluss.t", "owner"); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		do     func() error
		role   string
		need   Privilege
		expect bool
	}{
		{"owner has everything", nil, "owner", All, true},
		{"others have nothing", nil, "alice", Select, false},
		{"grant select", func() error { return s.Grant(1, "", "alice", Select, false) }, "alice", Select, true},
		{"select is not insert", nil, "alice", Select | Insert, false},
		{"grant to public", func() error { return s.Grant(1, "", Public, Insert, false) }, "bob", Insert, true},
		{"own and public combine", nil, "alice", Select | Insert, true},
		{"revoke from alice keeps public", func() error { return s.Revoke(1, "", "alice", Select|Insert, false) }, "alice", Insert, true},
		{"revoked select", nil, "alice", Select, false},
		{"unknown table", nil, "owner", Select, false},
	}
	for i, st := range steps {
		if st.do != nil {
			if err := st.do(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		id := int64(1)
		if i == len(steps)-1 {
			id = 2
		}
		if got := s.Has(st.role, id, st.need); got != st.expect {
			t.Errorf("%s: Has(%s, %v) = %v", st.name, st.role, st.need, got)
		}
	}
}

func TestGrantOptionsAndACLText(t *testing.T) {
	s, _ := Open("")
	s.SetOwner(7, "fluss.t", "ann")
	s.Grant(7, "", "bob", Select|Update, true)
	s.Grant(7, "", Public, Select, false)
	s.Grant(7, "", "Mixed Case", Delete, false)
	if !s.CanGrant("bob", 7, Select) || s.CanGrant("bob", 7, Insert) || s.CanGrant("carl", 7, Select) || !s.CanGrant("ann", 7, All) {
		t.Error("grant options")
	}
	want := `{ann=arwdDxt/ann,"Mixed Case"=d/ann,bob=r*w*/ann,=r/ann}`
	if got := s.ACL(7); got != want {
		t.Errorf("ACL\n got %s\nwant %s", got, want)
	}
	s.Revoke(7, "", "bob", Update, true)
	if s.CanGrant("bob", 7, Update) || !s.Has("bob", 7, Update) {
		t.Error("REVOKE GRANT OPTION FOR must keep the privilege")
	}
	if s.ACL(8) != "" {
		t.Error("a table without grants has a NULL acl")
	}
}

func TestPersistence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "privileges.json")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.SetOwner(3, "fluss.a", "ann")
	s.Grant(3, "", "bob", Select|Insert, false)
	s.SetOwner(4, "fluss.b", "ann")
	s.Forget(4)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Has("bob", 3, Select|Insert) || r.Has("bob", 3, Delete) || r.Owner(3) != "ann" || r.Owner(4) != "" {
		t.Error("privileges did not survive reopening")
	}
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := Open(path); err == nil {
		t.Error("a damaged file must be refused")
	}
}

func TestParsePrivilege(t *testing.T) {
	for _, n := range []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"} {
		p, ok := ParsePrivilege(n)
		if !ok || p.String() != n {
			t.Errorf("%s: %v %v", n, p, ok)
		}
	}
	if _, ok := ParsePrivilege("FLY"); ok {
		t.Error("FLY")
	}
}
