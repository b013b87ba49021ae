package sqllogictest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestRestartCheck runs a file that creates objects with Options.Restart
// set, against PostgreSQL: a restart that gives the same target back
// passes; one that comes back as another (empty) database, or does not
// come back, fails the file with what the check saw.
func TestRestartCheck(t *testing.T) {
	srv := pgtest.Start(t)
	connect := freshDatabases(t, srv)
	file := filepath.Join(t.TempDir(), "objects.slt")
	script := "statement ok\nCREATE TYPE mood AS ENUM ('a', 'b')\n\n" +
		"statement ok\nCREATE TABLE t (id int PRIMARY KEY, m mood DEFAULT 'a')\n\n" +
		"statement ok\nCREATE VIEW v AS SELECT * FROM t\n"
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		restart func(ctx context.Context, connString string) (string, error)
		want    string // in the output when the file fails
	}{
		{"the same target", func(_ context.Context, cs string) (string, error) { return cs, nil }, ""},
		{"another database", func(ctx context.Context, _ string) (string, error) {
			cs, _, err := connect(ctx, "other")
			return cs, err
		}, "restart check: the catalogs read back otherwise after a restart"},
		{"no target", func(context.Context, string) (string, error) { return "", errors.New("refused") },
			"restart check: the data directory does not open again: refused"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			sum, err := Run(context.Background(), []string{file}, Options{Connect: connect, Restart: c.restart, Out: &out})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if sum.Failed != 0 || sum.Passed != 3 {
					t.Errorf("passed %d failed %d, want 3 and 0:\n%s", sum.Passed, sum.Failed, out.String())
				}
				return
			}
			if sum.Failed != 1 || !strings.Contains(out.String(), c.want) {
				t.Errorf("failed %d, want 1 with %q:\n%s", sum.Failed, c.want, out.String())
			}
		})
	}
}
