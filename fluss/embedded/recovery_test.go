package embedded

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The recovery time of issue 33's acceptance 1: a writer child appends
// SQLGATE_RECOVERY_MB MiB (8 by default; 1024 for the README's figure) to
// a log table in commits small enough to be made durable by pebble's
// write-ahead log alone (durable.go), with checkpoints put off past the
// end, so that every byte is an un-checkpointed append; it is killed with
// SIGKILL, and Open must replay every append record, check the logs and
// find every acknowledged row. The test logs how long Open took.

const (
	recoveryChildEnv = "SQLGATE_EMBEDDED_RECOVERY_CHILD"
	recoveryBytesEnv = "SQLGATE_EMBEDDED_RECOVERY_BYTES"
	// recoveryRows is the rows of one commit: about 360 KB of log,
	// under appendRecordMax.
	recoveryRows = 8000
)

// runRecoveryChild writes until it has written its bytes, prints "done
// ROWS", and waits to be killed.
func runRecoveryChild(dir string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "recovery child:", err)
		os.Exit(2)
	}
	want, err := strconv.ParseInt(os.Getenv(recoveryBytesEnv), 10, 64)
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	s, err := Open(dir, Options{CheckpointBytes: 2 * want})
	if err != nil {
		fail(err)
	}
	tb, err := s.Table(ctx, path("rec"))
	if err != nil {
		fail(err)
	}
	schema := tb.Info().ArrowSchema()
	var rows int64
	for s.appends.bytes < want {
		rec := sixColRecord(schema, rows, recoveryRows)
		_, err := tb.Append(ctx, rec)
		rec.Release()
		if err != nil {
			fail(err)
		}
		rows += recoveryRows
	}
	if s.appends.first == s.appends.next {
		fail(fmt.Errorf("no append record is left to replay"))
	}
	fmt.Printf("done %d\n", rows)
	select {}
}

func TestRecoveryTime(t *testing.T) {
	mb := 8
	if v := os.Getenv("SQLGATE_RECOVERY_MB"); v != "" {
		var err error
		if mb, err = strconv.Atoi(v); err != nil || mb <= 0 {
			t.Fatalf("SQLGATE_RECOVERY_MB=%q", v)
		}
	}
	dir := t.TempDir()
	s := openStore(t, dir)
	createTable(t, s, "rec", sixColDesc(false, 4))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	cmd, stdout := startChild(t, "TestRecoveryTime", []string{recoveryChildEnv + "=" + dir, recoveryBytesEnv + "=" + strconv.Itoa(mb<<20)})
	buf := make([]byte, 64)
	n, _ := stdout.Read(buf)
	line := strings.TrimSpace(string(buf[:n]))
	var rows int
	if _, err := fmt.Sscanf(line, "done %d", &rows); err != nil {
		_ = cmd.Process.Kill()
		t.Fatalf("child said %q", line)
	}
	_ = cmd.Process.Kill() // SIGKILL
	_ = cmd.Wait()
	began := time.Now()
	s = reopenAfterKill(t, dir)
	took := time.Since(began)
	defer s.Close()
	if left := s.appends.next - s.appends.first; left != 0 {
		t.Fatalf("%d append records left after Open", left)
	}
	t.Logf("Open after SIGKILL with %d MiB of un-checkpointed appends (%d rows): %v", mb, rows, took.Round(time.Millisecond))
	if got := countRows(t, mustTable(t, s, "rec")); got != rows {
		t.Fatalf("%d rows after recovery, want the %d acknowledged", got, rows)
	}
}
