package isolation

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestRepeatableReadRetries: clients read a counter in a REPEATABLE READ
// transaction and write back what they read plus one (a read-modify-write
// from the snapshot, the classic lost update), retrying the transaction on
// 40001. No increment is lost: a writer whose row changed since its
// snapshot fails instead of overwriting the change, on sqlgate as on
// PostgreSQL, and every failure is 40001.
func TestRepeatableReadRetries(t *testing.T) {
	const n = 8
	per := sized(15, 200)
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			c := connect(t, tg.conn)
			mustExec(t, c, "DROP TABLE IF EXISTS rrctr")
			mustExec(t, c, "CREATE TABLE rrctr (id INT PRIMARY KEY, n BIGINT NOT NULL)")
			mustExec(t, c, "INSERT INTO rrctr VALUES (1, 0)")
			runClients(t, tg.conn, n, func(ctx context.Context, c *pgx.Conn, _ int) error {
				for done := 0; done < per; {
					err := func() error {
						tx, err := c.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
						if err != nil {
							return err
						}
						defer tx.Rollback(ctx)
						var v int64
						if err := tx.QueryRow(ctx, "SELECT n FROM rrctr WHERE id = 1").Scan(&v); err != nil {
							return err
						}
						if _, err := tx.Exec(ctx, "UPDATE rrctr SET n = $1 WHERE id = 1", v+1); err != nil {
							return err
						}
						return tx.Commit(ctx)
					}()
					var pe *pgconn.PgError
					switch {
					case err == nil:
						done++
					case errors.As(err, &pe) && pe.Code == "40001":
					default:
						return err
					}
				}
				return nil
			})
			var got int64
			if err := c.QueryRow(context.Background(), "SELECT n FROM rrctr WHERE id = 1").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != int64(n*per) {
				t.Fatalf("counter %d, want %d", got, n*per)
			}
		})
	}
}
