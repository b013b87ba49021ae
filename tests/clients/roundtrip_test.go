package clients

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The round-trip table: every scalar type sqlgate supports, with the
// extremes of each in row 1 (largest) and row 2 (smallest), and NULLs in
// row 3. Every driver test inserts these rows with parameters into its own
// table, reads them back and compares them itself; then checkStored reads
// the table's text through pgx's simple protocol and compares it with
// wantText, so that a driver cannot pass by storing and reading back the
// same wrong value.
const roundTripColumns = "id INT, i8 BIGINT, i4 INT, i2 SMALLINT, f8 DOUBLE, f4 REAL, b BOOLEAN, t TEXT, v VARCHAR(20), n DECIMAL(20,4), d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, bin BYTEA"

const roundTripInsert = "INSERT INTO %s (id, i8, i4, i2, f8, f4, b, t, v, n, d, ts, tz, bin) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"

const roundTripSelect = "SELECT id, i8, i4, i2, f8, f4, b, t, v, n, d, ts, tz, bin FROM %s ORDER BY id"

// Values of rows 1 and 2 (row 3 is id 3 and NULLs).
var (
	rtText1  = "héllo ☃ \"quote\" \\back\ttab\nnewline 'single'"
	rtText2  = ""
	rtVchar1 = "varchar ✓"
	rtBytes1 = []byte{0x00, 0xff, '\\'}
	rtTS1    = time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC)
	rtTS2    = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	// Dates stay inside 1678..2261 until types.parseDate stops computing
	// days through a time.Duration, which saturates outside that range and
	// silently stores 2262-04-11 / 1677-09-22 for '9999-12-31' / '0001-01-01'
	// written as text (simple-protocol literals). Then: 9999-12-31 and
	// 0001-01-01, like the timestamps.
	rtDate1 = time.Date(2261, 12, 31, 0, 0, 0, 0, time.UTC)
	rtDate2 = time.Date(1678, 1, 1, 0, 0, 0, 0, time.UTC)
)

// wantText is the stored rows as sqlgate's (and PostgreSQL's) text output.
var wantText = [][]string{
	{"1", "9223372036854775807", "2147483647", "32767", "1.7976931348623157e+308", "3.4028235e+38", "t", rtText1, rtVchar1,
		"9999999999999999.9999", "2261-12-31", "9999-12-31 23:59:59.999999", "9999-12-31 23:59:59.999999+00", `\x00ff5c`},
	{"2", "-9223372036854775808", "-2147483648", "-32768", "-2.2250738585072014e-308", "-1.1754944e-38", "f", "", "",
		"-9999999999999999.9999", "1678-01-01", "0001-01-01 00:00:00", "0001-01-01 00:00:00+00", `\x`},
	{"3", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
}

// checkStored compares the table's rows, read as text, with wantText.
func checkStored(t *testing.T, connString, table string) {
	t.Helper()
	conn := connectPgx(t, connString)
	rows, err := conn.Query(context.Background(), strings.Replace(roundTripSelect, "%s", table, 1), pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got [][]string
	for rows.Next() {
		var row []string
		for _, v := range rows.RawValues() {
			if v == nil {
				row = append(row, "NULL")
			} else {
				row = append(row, string(v))
			}
		}
		got = append(got, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(wantText) {
		t.Fatalf("%s: %d rows stored, want %d: %q", table, len(got), len(wantText), got)
	}
	cols := strings.Split(roundTripColumns, ", ")
	for i := range wantText {
		for j := range wantText[i] {
			if got[i][j] != wantText[i][j] {
				t.Errorf("%s row %d column %s: stored %q, want %q", table, i+1, strings.Fields(cols[j])[0], got[i][j], wantText[i][j])
			}
		}
	}
}

func createRoundTripTable(t *testing.T, conn *pgx.Conn, table string) {
	t.Helper()
	mustExec(t, conn, "CREATE TABLE "+table+" ("+roundTripColumns+")")
}
