package clients

import (
	"database/sql"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"

	_ "github.com/lib/pq"
)

func TestLibPq(t *testing.T) {
	srv := startServer(t)
	db, err := sql.Open("postgres", srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE rt_pq (" + roundTripColumns + ")"); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{
		{1, int64(math.MaxInt64), int64(math.MaxInt32), int64(math.MaxInt16), math.MaxFloat64, float64(float32(math.MaxFloat32)), true,
			rtText1, rtVchar1, "9999999999999999.9999", rtDate1, rtTS1, rtTS1, rtBytes1},
		{2, int64(math.MinInt64), int64(math.MinInt32), int64(math.MinInt16), -2.2250738585072014e-308, float64(float32(-1.1754944e-38)), false,
			rtText2, "", "-9999999999999999.9999", rtDate2, rtTS2, rtTS2, []byte{}},
		{3, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	}
	// A prepared statement (Parse once, Bind/Execute per row) and db.Exec
	// (lib/pq's unnamed statement per call) both run.
	stmt, err := db.Prepare(fmt.Sprintf(roundTripInsert, "rt_pq"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[:2] {
		if _, err := stmt.Exec(r...); err != nil {
			t.Fatalf("insert %v: %v", r[0], err)
		}
	}
	stmt.Close()
	if _, err := db.Exec(fmt.Sprintf(roundTripInsert, "rt_pq"), rows[2]...); err != nil {
		t.Fatal(err)
	}
	res, err := db.Query(fmt.Sprintf(roundTripSelect, "rt_pq"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	i := 0
	for res.Next() {
		var (
			id         int
			i8, i4, i2 sql.NullInt64
			f8, f4     sql.NullFloat64
			b          sql.NullBool
			tx, v, n   sql.NullString
			d, ts, tz  sql.NullTime
			bin        []byte
		)
		if err := res.Scan(&id, &i8, &i4, &i2, &f8, &f4, &b, &tx, &v, &n, &d, &ts, &tz, &bin); err != nil {
			t.Fatal(err)
		}
		got := []any{id, nullable(i8.Int64, i8.Valid), nullable(i4.Int64, i4.Valid), nullable(i2.Int64, i2.Valid),
			nullable(f8.Float64, f8.Valid), nullable(f4.Float64, f4.Valid), nullable(b.Bool, b.Valid),
			nullable(tx.String, tx.Valid), nullable(v.String, v.Valid), nullable(n.String, n.Valid),
			nullTime(d), nullTime(ts), nullTime(tz), bytesOrNil(bin)}
		w := rows[i]
		want := []any{w[0], w[1], w[2], w[3], w[4], shortestFloat32(w[5]), w[6], w[7], w[8], w[9], timeAny(w[10]), timeAny(w[11]), timeAny(w[12]), bytesAny(w[13])}
		for k := range got {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("row %d column %d: got %#v, want %#v", i+1, k, got[k], want[k])
			}
		}
		i++
	}
	if err := res.Err(); err != nil || i != 3 {
		t.Fatalf("read %d rows: %v", i, err)
	}
	checkStored(t, srv.ConnString(), "rt_pq")

	// Errors arrive as *pq.Error with their SQLSTATE; the pool stays usable.
	if _, err := db.Exec("INSERT INTO rt_pq (id, i2) VALUES ($1, $2)", 9, 99999); err == nil {
		t.Fatal("smallint overflow accepted")
	}
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("after an error: %v", err)
	}
}

// shortestFloat32 is a real as a driver that reads its text into a float64
// sees it: the shortest decimal that round-trips the float32.
func shortestFloat32(v any) any {
	if v == nil {
		return nil
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v.(float64), 'g', -1, 32), 64)
	return f
}

func nullable[T any](v T, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

func nullTime(t sql.NullTime) any {
	if !t.Valid {
		return nil
	}
	return t.Time.UTC()
}
