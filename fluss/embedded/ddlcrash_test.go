package embedded

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The DDL crash test: a child creates databases (CREATE SCHEMA), tables in
// them, and alters the tables column by column (ADD COLUMN) while it writes
// rows under each schema, printing what each call acknowledged; it is killed
// with SIGKILL at a random moment, and the store reopened must hold every
// acknowledged database, column and row, with each table's schema id
// matching its columns and every row readable (NULL in the columns added
// after it was written).
const (
	ddlCrashChildEnv = "SQLGATE_EMBEDDED_DDLCRASH_CHILD"
	ddlCrashStartEnv = "SQLGATE_EMBEDDED_DDLCRASH_START"
	ddlCrashAlters   = 4 // columns added per table
)

func ddlDB(i int) string { return fmt.Sprintf("db_%d", i) }

// ddlRow is row n of a table altered n times: key n, then v = n and
// c1..cn = 1..n.
func ddlRow(names []string, n int) arrow.RecordBatch {
	fs := make([]arrow.Field, len(names))
	for i, nm := range names {
		fs[i] = arrow.Field{Name: nm, Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fs, nil))
	defer rb.Release()
	rb.Field(0).(*array.Int32Builder).Append(int32(n))
	rb.Field(1).(*array.Int32Builder).Append(int32(n))
	for j := 2; j < len(names); j++ {
		rb.Field(j).(*array.Int32Builder).Append(int32(j - 1))
	}
	return rb.NewRecordBatch()
}

func ddlColumns(n int) []string {
	out := []string{"k", "v"}
	for j := 1; j <= n; j++ {
		out = append(out, fmt.Sprintf("c%d", j))
	}
	return out
}

func runDDLCrashChild(dir string, start int) error {
	ctx := context.Background()
	s, err := Open(dir, Options{})
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	ack := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	for i := start; ; i++ {
		db := ddlDB(i)
		if err := s.CreateDatabase(ctx, db, false); err != nil {
			return err
		}
		ack("schema %d", i)
		for _, name := range []string{"t", "l"} {
			d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v")}, BucketCount: 2}
			if name == "t" {
				d.Schema.PrimaryKey = []string{"k"}
			}
			if _, err := s.CreateTable(ctx, fluss.TablePath{Database: db, Table: name}, d, false); err != nil {
				return err
			}
		}
		// A writer keeps upserting key -1 under whatever schema the table
		// has while the columns are added: a write through a retired
		// state fails (40001) and is sent again through the new one.
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				tb, err := s.Table(ctx, fluss.TablePath{Database: db, Table: "t"})
				if err != nil {
					continue
				}
				n := len(tb.Info().Descriptor.Schema.Columns) - 2
				rec := ddlRow(ddlColumns(n), n)
				rec2 := rec.NewSlice(0, 1)
				rec.Release()
				// key -1: overwrite the key column
				b := array.NewInt32Builder(memory.DefaultAllocator)
				b.Append(-1)
				key := b.NewArray()
				b.Release()
				cols := append([]arrow.Array{key}, rec2.Columns()[1:]...)
				r := array.NewRecordBatch(rec2.Schema(), cols, 1)
				key.Release()
				rec2.Release()
				_, err = tb.Upsert(ctx, r, fluss.UpsertOptions{})
				r.Release()
				if err != nil && sqlerr.CodeOf(err) != sqlerr.SerializationFailure {
					fmt.Fprintln(os.Stderr, "writer:", err)
					os.Exit(3)
				}
			}
		}()
		for n := 0; n <= ddlCrashAlters; n++ {
			if n > 0 {
				for _, name := range []string{"t", "l"} {
					ch := fluss.TableChange{Kind: fluss.ChangeAddColumn, Column: fluss.Column{Name: fmt.Sprintf("c%d", n), Type: types.Int32Type}}
					if _, err := s.AlterTable(ctx, fluss.TablePath{Database: db, Table: name}, []fluss.TableChange{ch}); err != nil {
						return err
					}
				}
				ack("alter %d %d", i, n)
			}
			for _, name := range []string{"t", "l"} {
				tb, err := s.Table(ctx, fluss.TablePath{Database: db, Table: name})
				if err != nil {
					return err
				}
				rec := ddlRow(ddlColumns(n), n)
				if name == "t" {
					_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
				} else {
					_, err = tb.Append(ctx, rec)
				}
				rec.Release()
				if err != nil {
					return err
				}
			}
			ack("row %d %d", i, n)
		}
		close(stop)
		wg.Wait()
		if i%2 == 1 {
			// Said before the drop: killed during it, the database may
			// be there or not.
			ack("dropping %d", i-1)
			if err := s.DropDatabase(ctx, ddlDB(i-1), false, true); err != nil {
				return err
			}
			ack("drop %d", i-1)
		}
	}
}

// ddlAcks is what the children acknowledged, over every round.
type ddlAcks struct {
	schemas map[int]bool
	alters  map[int]int // database -> columns added
	rows    map[int]int // database -> highest row written (-1: none)
	dropped map[int]bool
	// dropping: a drop began (it may not have finished).
	dropping map[int]bool
}

func TestCrashDDL(t *testing.T) {
	if dir := os.Getenv(ddlCrashChildEnv); dir != "" {
		start, _ := strconv.Atoi(os.Getenv(ddlCrashStartEnv))
		if err := runDDLCrashChild(dir, start); err != nil {
			fmt.Fprintln(os.Stderr, "ddl crash child:", err)
			os.Exit(2)
		}
		return
	}
	dir := t.TempDir()
	acks := ddlAcks{schemas: map[int]bool{}, alters: map[int]int{}, rows: map[int]int{}, dropped: map[int]bool{}, dropping: map[int]bool{}}
	rounds := max(crashRounds()/2, 1)
	for round := 1; round <= rounds; round++ {
		env := []string{ddlCrashChildEnv + "=" + dir, ddlCrashStartEnv + "=" + strconv.Itoa(round*1000)}
		killChild(t, "TestCrashDDL", env, 300*time.Millisecond, func(line string) bool {
			var i, n int
			switch {
			case scan(line, "schema %d", &i):
				acks.schemas[i] = true
				acks.rows[i] = -1
			case scan(line, "alter %d %d", &i, &n):
				acks.alters[i] = n
			case scan(line, "row %d %d", &i, &n):
				acks.rows[i] = n
			case scan(line, "dropping %d", &i):
				acks.dropping[i] = true
			case scan(line, "drop %d", &i):
				acks.dropped[i] = true
			default:
				return false
			}
			return true
		})
		verifyDDLCrash(t, dir, acks)
	}
}

func scan(s, format string, args ...any) bool {
	n, err := fmt.Sscanf(s, format, args...)
	return err == nil && n == len(args)
}

func verifyDDLCrash(t *testing.T, dir string, acks ddlAcks) {
	t.Helper()
	ctx := context.Background()
	s := reopenAfterKill(t, dir)
	defer s.Close()
	dbs, err := s.ListDatabases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, d := range dbs {
		have[d] = true
	}
	for i := range acks.schemas {
		if !acks.dropped[i] && !acks.dropping[i] && !have[ddlDB(i)] {
			t.Fatalf("acknowledged database %s lost", ddlDB(i))
		}
		if acks.dropped[i] && have[ddlDB(i)] {
			t.Fatalf("database %s, dropped with acknowledgement, is back", ddlDB(i))
		}
		if have[ddlDB(i)] && acks.rows[i] >= 0 {
			for _, name := range []string{"t", "l"} {
				if _, err := s.GetTable(ctx, fluss.TablePath{Database: ddlDB(i), Table: name}); err != nil {
					t.Fatalf("table %s.%s, written with acknowledgement: %v", ddlDB(i), name, err)
				}
			}
		}
	}
	t.Logf("%d databases acknowledged (%d dropped), %d open now", len(acks.schemas), len(acks.dropped), len(dbs))
	for _, db := range dbs {
		tables, err := s.ListTables(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range tables {
			added := len(info.Descriptor.Schema.Columns) - 2
			// every ADD COLUMN makes one schema: ids and columns agree
			if int(info.SchemaID) != added+1 {
				t.Fatalf("%s: schema id %d with %d columns added", info.Path, info.SchemaID, added)
			}
			var i int
			if _, err := fmt.Sscanf(db, "db_%d", &i); err == nil && acks.alters[i] > added {
				t.Fatalf("%s: %d columns acknowledged added, %d there", info.Path, acks.alters[i], added)
			}
			tb, err := s.Table(ctx, info.Path)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := scanAll(t, tb, fluss.ScanOptions{})
			seen := map[int32]bool{}
			if got != nil {
				for r := 0; r < int(got.NumRows()); r++ {
					k := got.Column(0).(*array.Int32)
					v := got.Column(1).(*array.Int32)
					if k.Value(r) == -1 {
						continue // the concurrent writer's key
					}
					n := int(v.Value(r))
					seen[k.Value(r)] = true
					for j := 1; j <= added; j++ {
						c := got.Column(1 + j).(*array.Int32)
						if j <= n && (c.IsNull(r) || c.Value(r) != int32(j)) || j > n && c.IsValid(r) {
							t.Fatalf("%s: row %d column c%d reads %v", info.Path, n, j, c.GetOneForMarshal(r))
						}
					}
				}
				got.Release()
			}
			if _, err := fmt.Sscanf(db, "db_%d", &i); err == nil {
				for n := 0; n <= acks.rows[i]; n++ {
					if !seen[int32(n)] {
						t.Fatalf("%s: acknowledged row %d lost", info.Path, n)
					}
				}
			}
		}
	}
}
