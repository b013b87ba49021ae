// Package pgtest runs throwaway PostgreSQL 15 clusters for tests and tools:
// a data directory in a temporary directory (a copy of one initdb's, the
// template kept under os.TempDir() and made again when PostgreSQL or the
// options change: template.go), a postmaster on a free loopback port, a
// connection string, and Stop; and Shared (shared.go), one such cluster for
// a test package whose tests each take a fresh database on it. Conn and
// Shared.Conn hand a test a connection that its cleanup closes; ScanRows
// and WriteGoSource (generated.go) are the generated-catalog tests' reading
// of PostgreSQL's rows and writing of their Go tables.
//
// It owns only process and directory management of those clusters and of
// the template. It must
// not know anything about sqlgate's engine, must never touch a cluster it did
// not create, and must never listen on anything but 127.0.0.1. When the
// current process runs as root (as CI does), initdb and postgres refuse to
// start, so both are run under an unprivileged account ("postgres" when the
// Debian package created one, else "nobody") via syscall.Credential.
package pgtest
