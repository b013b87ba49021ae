package main

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote"
)

// directLookups times sqlgate's own Fluss client (fluss/remote, no SQL, no
// PostgreSQL protocol) looking up keys one at a time for c.seconds: the
// floor under sqlgate's lookup latency, so that the table shows how much of
// it is the RPC and how much is SQL and pgwire. It returns QPS and the
// median latency in milliseconds.
func directLookups(ctx context.Context, c config) (float64, float64, error) {
	s, err := remote.OpenStore(ctx, remote.Config{Bootstrap: []string{c.bootstrap}})
	if err != nil {
		return 0, 0, err
	}
	defer s.Close()
	t, err := s.Table(ctx, fluss.TablePath{Database: c.db, Table: "fb_pk"})
	if err != nil {
		return 0, 0, err
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	one := func(k int64) error {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer b.Release()
		b.Field(0).(*array.Int64Builder).Append(k)
		keys := b.NewRecordBatch()
		defer keys.Release()
		got, err := t.Lookup(ctx, keys, nil)
		if err != nil {
			return fmt.Errorf("direct lookup of %d: %w", k, err)
		}
		defer got.Release()
		if got.NumRows() != 1 {
			return fmt.Errorf("MISMATCH: direct lookup of %d gave %d rows", k, got.NumRows())
		}
		return nil
	}
	for k := 0; k < 200; k++ {
		if err := one(int64(k % c.keys)); err != nil {
			return 0, 0, err
		}
	}
	var lat []float64
	start := time.Now()
	for k := int64(0); time.Since(start) < c.seconds; k++ {
		t0 := time.Now()
		if err := one(k % int64(c.keys)); err != nil {
			return 0, 0, err
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
	}
	return float64(len(lat)) / time.Since(start).Seconds(), median(lat), nil
}

// directTableInfo times Store.Table (a GetTableInfo RPC to the coordinator),
// which sqlgate's planner calls once per statement that reads a table: the
// other part of a lookup's latency. It returns calls/s and the median
// latency in milliseconds, over d.
func directTableInfo(ctx context.Context, c config, d time.Duration) (float64, float64, error) {
	s, err := remote.OpenStore(ctx, remote.Config{Bootstrap: []string{c.bootstrap}})
	if err != nil {
		return 0, 0, err
	}
	defer s.Close()
	path := fluss.TablePath{Database: c.db, Table: "fb_pk"}
	var lat []float64
	start := time.Now()
	for time.Since(start) < d {
		t0 := time.Now()
		if _, err := s.Table(ctx, path); err != nil {
			return 0, 0, err
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
	}
	return float64(len(lat)) / time.Since(start).Seconds(), median(lat), nil
}
