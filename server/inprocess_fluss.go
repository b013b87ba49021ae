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
// file whose schemas are Fluss databases of the file's own (named with a
// prefix made of the file's name, the process and a counter:
// remote.Config.DatabasePrefix), so that files run side by side on one
// cluster without seeing each other's tables or schemas. A file's cleanup
// stops its server; drop, once every file has run, drops the databases.
// They are not dropped file by file: Fluss 0.9.1's coordinator missed new
// tables (never gave their buckets a leader) more often while it dropped
// other databases' tables; remote.Store's CreateTable recovers from the
// rest.
func InProcessFluss(cfg remote.Config) (connect func(ctx context.Context, file string) (string, func(), error), drop func(ctx context.Context) error) {
	var (
		files    atomic.Int64 // numbers this run's files
		mu       sync.Mutex
		prefixes []string
	)
	connect = func(ctx context.Context, file string) (string, func(), error) {
		fc := cfg
		fc.DatabasePrefix = filePrefix(file, files.Add(1))
		mu.Lock()
		prefixes = append(prefixes, fc.DatabasePrefix)
		mu.Unlock()
		return inProcess(ctx, Config{Fluss: &fc})
	}
	drop = func(ctx context.Context) error {
		c, err := remote.New(cfg)
		if err != nil {
			return err
		}
		defer c.Close()
		dbs, err := c.ListDatabases(ctx)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		var errs []error
		for _, db := range dbs {
			for _, p := range prefixes {
				if strings.HasPrefix(db, p) {
					if err := c.DropDatabase(ctx, db, true, true); err != nil {
						errs = append(errs, fmt.Errorf("dropping database %s: %w", db, err))
					}
					break
				}
			}
		}
		prefixes = nil
		return errors.Join(errs...)
	}
	return connect, drop
}

// filePrefix is the Fluss database prefix of one file of one run: the
// file's base name reduced to what Fluss allows, the process id and n.
func filePrefix(file string, n int64) string {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, base)
	if len(name) > 60 {
		name = name[:60]
	}
	return fmt.Sprintf("slt_%s_%d_%d__", name, os.Getpid(), n)
}
