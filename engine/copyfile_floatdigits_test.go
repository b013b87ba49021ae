package engine_test

import (
	"os"
	"path/filepath"
	"testing"
)

// COPY TO a server file writes a float's text under the session's
// extra_float_digits, as COPY TO STDOUT and PostgreSQL's float8out do (in
// arrays and records too); binary COPY keeps the bits.
func TestCopyFileFloatDigits(t *testing.T) {
	dir, admin, _ := fileSessions(t)
	mustRun(t, admin, "CREATE TABLE fdc (id INT NOT NULL, d DOUBLE, r FLOAT)")
	mustRun(t, admin, "INSERT INTO fdc VALUES (1, 0.30000000000000004, 1.1), (2, 1e-320, 'NaN')")
	for _, tc := range []struct{ setting, format, want string }{
		{"1", "text", "1\t0.30000000000000004\t1.1\t{0.30000000000000004}\t(0.30000000000000004,1.1)\n2\t1e-320\tNaN\t{1e-320}\t(1e-320,NaN)\n"},
		{"0", "text", "1\t0.3\t1.1\t{0.3}\t(0.3,1.1)\n2\t9.99988867182683e-321\tNaN\t{9.99988867182683e-321}\t(9.99988867182683e-321,NaN)\n"},
		{"-14", "csv", "1,0.3,1,{0.3},\"(0.3,1)\"\n2,1e-320,NaN,{1e-320},\"(1e-320,NaN)\"\n"},
	} {
		mustRun(t, admin, "SET extra_float_digits = "+tc.setting)
		mustRun(t, admin, "COPY (SELECT id, d, r, ARRAY[d], ROW(d, r) FROM fdc ORDER BY id) TO 'f.out' (FORMAT "+tc.format+")")
		got, err := os.ReadFile(filepath.Join(dir, "f.out"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("extra_float_digits %s, %s:\n got %q\nwant %q", tc.setting, tc.format, got, tc.want)
		}
	}
}
