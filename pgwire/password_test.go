package pgwire

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestCheckPassword(t *testing.T) {
	var u Users
	if err := u.SetPassword("scram", "pw1", false); err != nil {
		t.Fatal(err)
	}
	if err := u.SetPassword("both", "pw2", true); err != nil {
		t.Fatal(err)
	}
	u.Users["md5only"] = UserEntry{MD5: md5Secret("md5only", "pw3")}
	e := u.Users["scram"]
	u.Users["nologin"] = UserEntry{SCRAM: e.SCRAM, NoLogin: true}
	auth := AuthConfig{Method: AuthSCRAM, Users: &u, FailureDelay: -1}
	ctx := context.Background()
	for _, tc := range []struct {
		user, password string
		want           sqlerr.Code
	}{
		{"scram", "pw1", ""},
		{"scram", "pw2", sqlerr.InvalidPassword},
		{"both", "pw2", ""},
		{"md5only", "pw3", ""},
		{"md5only", "pw1", sqlerr.InvalidPassword},
		{"nobody", "pw1", sqlerr.InvalidPassword},
		{"nologin", "pw1", sqlerr.InvalidAuthorizationSpec},
		{"nologin", "bad", sqlerr.InvalidPassword},
	} {
		err := auth.CheckPassword(ctx, tc.user, tc.password)
		got := sqlerr.Code("")
		if err != nil {
			got = err.Code
		}
		if got != tc.want {
			t.Errorf("%s/%s: %v, want %q", tc.user, tc.password, err, tc.want)
		}
	}
	if err := (AuthConfig{}).CheckPassword(ctx, "anyone", ""); err != nil {
		t.Errorf("trust refused: %v", err)
	}
}
