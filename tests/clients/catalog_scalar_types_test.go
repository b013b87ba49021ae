package clients

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestInetLsnXidMatchPostgres: the catalog types inet, pg_lsn and xid
// (pg_stat_activity.client_addr, pg_replication_slots.restart_lsn,
// pg_class.relfrozenxid) read and print as PostgreSQL 15's: for generated
// and edge inputs, a cast from text gives the same output text, the same
// text(inet) with its netmask, the same binary form, or the same SQLSTATE.
func TestInetLsnXidMatchPostgres(t *testing.T) {
	pg := pgtest.Start(t)
	srv := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pc, sc := connectPgconn(t, ctx, pg.ConnString()), connectPgconn(t, ctx, srv.ConnString())
	r := rand.New(rand.NewPCG(31, 869))
	inets := []string{"127.0.0.1", "::1", "10.1.2.3/8", "0.0.0.0/0", "::/0", "::ffff:1.2.3.4", "2001:db8::1/64",
		"2001:DB8:0:0:0:0:0:1", "192.168.0.1/32", "192.168.0.1/33", "1.2.3", "1.2.3.4/", "1.2.3.4/-1", "fe80::1%eth0",
		"", " 1.2.3.4 ", "abc", "1.2.3.256", "::1/128", "::1/129"}
	for i := 0; i < 40; i++ {
		var b [16]byte
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		var a netip.Addr
		if i%2 == 0 {
			a = netip.AddrFrom4([4]byte(b[:4]))
		} else {
			a = netip.AddrFrom16(b)
			if i%5 == 0 { // runs of zero groups, which :: abbreviates
				a = netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: b[15]})
			}
		}
		s := a.String()
		if i%3 == 0 {
			s += fmt.Sprintf("/%d", r.IntN(a.BitLen()+1))
		}
		inets = append(inets, s)
	}
	lsns := []string{"0/0", "16/B374D848", "FFFFFFFF/FFFFFFFF", "0/16b3748", "00000001/00000002", "1/", "/1", "G/1", "100000000/0", "1 /1"}
	for i := 0; i < 20; i++ {
		lsns = append(lsns, fmt.Sprintf("%X/%x", r.Uint32(), r.Uint32()))
	}
	xids := []string{"0", "1", "4294967295", "4294967296", "-1", "abc", " 7 ", "0x1F", "017", "08", "12abc", "+5", "-0x10", "99999999999999999999999", "0x"}
	type check struct{ typ, query string }
	checks := []check{
		{"inet", "SELECT $1::text::inet"},
		{"inet", "SELECT ($1::text::inet)::text"},
		{"inet", "SELECT $1::text::inet = $1::text::inet"},
		{"pg_lsn", "SELECT $1::text::pg_lsn"},
		{"xid", "SELECT $1::text::xid"},
	}
	inputs := map[string][]string{"inet": inets, "pg_lsn": lsns, "xid": xids}
	run := func(c *pgconn.PgConn, q, in string, format int16) string {
		res := c.ExecParams(ctx, q, [][]byte{[]byte(in)}, nil, nil, []int16{format}).Read()
		if res.Err != nil {
			if pe, ok := res.Err.(*pgconn.PgError); ok {
				return "error " + pe.Code
			}
			return "error " + res.Err.Error()
		}
		if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
			return fmt.Sprintf("%d rows", len(res.Rows))
		}
		return fmt.Sprintf("%d:%x", res.FieldDescriptions[0].DataTypeOID, res.Rows[0][0])
	}
	n := 0
	for _, c := range checks {
		for _, in := range inputs[c.typ] {
			for _, format := range []int16{0, 1} {
				want, got := run(pc, c.query, in, format), run(sc, c.query, in, format)
				if got != want {
					t.Errorf("%s with %q (format %d): sqlgate %s, PostgreSQL %s", c.query, in, format, got, want)
				}
				n++
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d comparisons", n)
	}
}
