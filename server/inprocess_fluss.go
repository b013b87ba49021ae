package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sqlgate/sqlgate/fluss/remote"
)

// InProcessFluss is InProcess against a Fluss cluster: a fresh sqlgate per
// file whose schema "public" is a Fluss database of the file's own (named
// after the file, the process and a counter), so that files run side by
// side on one cluster without seeing each other's tables. A file's cleanup
// stops its server; drop, once every file has run, drops the databases.
// They are not dropped file by file: Fluss 0.9.1's coordinator, dropping one
// database's tables while a table is created in another, now and then
// never assigns the new table's buckets (seen in its log: the table is
// registered in ZooKeeper but never taken up as new, so it never gets a
// leader, and its later drop fails with a NullPointerException).
func InProcessFluss(cfg remote.Config) (connect func(ctx context.Context, file string) (string, func(), error), drop func(ctx context.Context) error) {
	var (
		files atomic.Int64 // numbers the databases of this run's files
		mu    sync.Mutex
		dbs   []string
	)
	connect = func(ctx context.Context, file string) (string, func(), error) {
		fc := cfg
		fc.Database = fileDatabase(file, files.Add(1))
		mu.Lock()
		dbs = append(dbs, fc.Database)
		mu.Unlock()
		return inProcess(ctx, &fc)
	}
	drop = func(ctx context.Context) error {
		c, err := remote.New(cfg)
		if err != nil {
			return err
		}
		defer c.Close()
		mu.Lock()
		defer mu.Unlock()
		var errs []error
		for _, db := range dbs {
			if err := c.DropDatabase(ctx, db, true, true); err != nil {
				errs = append(errs, fmt.Errorf("dropping database %s: %w", db, err))
			}
		}
		dbs = nil
		return errors.Join(errs...)
	}
	return connect, drop
}

// fileDatabase is a Fluss database name for one file of one run: the
// file's base name reduced to what Fluss allows, the process id and n.
func fileDatabase(file string, n int64) string {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, base)
	if len(name) > 100 {
		name = name[:100]
	}
	return fmt.Sprintf("slt_%s_%d_%d", name, os.Getpid(), n)
}
