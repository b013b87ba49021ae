package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sqlgate/sqlgate/transfer"
)

// defaultConn is the server sqlgate serve listens on by default.
const defaultConn = "postgres://sqlgate@127.0.0.1:5433/sqlgate?sslmode=prefer"

func connFlag(fs *flag.FlagSet) *string {
	def := os.Getenv("SQLGATE_URL")
	if def == "" {
		def = defaultConn
	}
	return fs.String("url", def, "the server to connect to (a PostgreSQL URL or key=value string; $SQLGATE_URL; password from $PGPASSWORD)")
}

// progressOut says how to show progress on stdout: a bar on a terminal,
// plain lines every interval elsewhere.
func progressOut(stdout io.Writer, mode string) (bar bool, every time.Duration, err error) {
	term := false
	if f, ok := stdout.(*os.File); ok {
		term = isTerminal(f)
	}
	switch mode {
	case "auto":
		return term, 10 * time.Second, nil
	case "bar":
		return true, 0, nil
	case "plain":
		return false, 10 * time.Second, nil
	case "none":
		return false, 0, nil
	}
	return false, 0, fmt.Errorf("--progress %q: want auto, bar, plain or none", mode)
}

// importCommand: sqlgate import [--url URL] [--table T] [--create] [--format F] [--state FILE] FILE...
func importCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := connFlag(fs)
	table := fs.String("table", "", "the table to load (default: each file's name without its extension)")
	create := fs.Bool("create", false, "create the table from the file's columns when it does not exist (a CSV file's: text columns named by its comma-separated header)")
	format := fs.String("format", "", "parquet, arrow, csv (with a header line) or text (default: by the file's extension)")
	copyOpts := fs.String("copy-options", "", "more COPY options for CSV and text files, e.g. \"DELIMITER ';', NULL 'NA'\"")
	state := fs.String("state", ".sqlgate-import.json", "where the files already imported are recorded, so that running the command again skips them (\"\" to keep no record)")
	progress := fs.String("progress", "auto", "auto (a bar on a terminal, a line every 10s elsewhere), bar, plain or none")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "sqlgate import: no files")
		return 2
	}
	bar, every, err := progressOut(stdout, *progress)
	if err != nil {
		fmt.Fprintf(stderr, "sqlgate import: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err = transfer.Import(ctx, transfer.ImportOptions{Conn: *url, Table: *table, Create: *create, Format: *format,
		CopyOptions: *copyOpts, State: *state, Out: stdout, Bar: bar, Interval: every}, fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "sqlgate import: %v\n", err)
		return 1
	}
	return 0
}

// exportCommand: sqlgate export [--url URL] (--table T | --query Q) [--format F] FILE
func exportCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := connFlag(fs)
	table := fs.String("table", "", "the table to export")
	query := fs.String("query", "", "the query whose rows to export (instead of --table)")
	format := fs.String("format", "", "parquet, arrow, csv, text or binary (default: by the file's extension)")
	progress := fs.String("progress", "auto", "auto, bar, plain or none")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "sqlgate export: want one output file")
		return 2
	}
	bar, every, err := progressOut(stdout, *progress)
	if err != nil {
		fmt.Fprintf(stderr, "sqlgate export: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if _, err := transfer.Export(ctx, transfer.ExportOptions{Conn: *url, Table: *table, Query: *query, Format: *format,
		Out: stdout, Bar: bar, Interval: every}, fs.Arg(0)); err != nil {
		fmt.Fprintf(stderr, "sqlgate export: %v\n", err)
		return 1
	}
	return 0
}
