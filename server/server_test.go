package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

func identity(_ context.Context, args []arrow.Array) (arrow.Array, error) {
	args[0].Retain()
	return args[0], nil
}

// TestConfigUDFs: the UDFs of the config are callable; the registry is
// copied at Start, and a UDF named like a built-in is refused.
func TestConfigUDFs(t *testing.T) {
	reg := udf.NewRegistry()
	if err := reg.AddScalar(udf.Scalar{Name: "same", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: identity}); err != nil {
		t.Fatal(err)
	}
	srv, err := Start(context.Background(), Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), UDFs: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	}()
	if err := reg.AddScalar(udf.Scalar{Name: "late", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: identity}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v int64
	if err := conn.QueryRow(ctx, "SELECT same(41) + 1").Scan(&v); err != nil || v != 42 {
		t.Errorf("same(41) + 1 = %d, %v", v, err)
	}
	var pe *pgconn.PgError
	if err := conn.QueryRow(ctx, "SELECT late(1)").Scan(&v); !errors.As(err, &pe) || pe.Code != "42883" {
		t.Errorf("a UDF added after Start: %v", err)
	}

	bad := udf.NewRegistry()
	if err := bad.AddScalar(udf.Scalar{Name: "length", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: identity}); err != nil {
		t.Fatal(err)
	}
	if s, err := Start(context.Background(), Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), UDFs: bad}); err == nil {
		s.Stop(context.Background())
		t.Error("a UDF named like a built-in function was accepted")
	}
}
