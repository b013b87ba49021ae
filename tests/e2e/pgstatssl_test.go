package e2e

import (
	"context"
	"crypto/tls"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/internal/testtls"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/server"
)

// TestPgStatSSL: pg_stat_ssl answers for the asking connection, as it is:
// over TLS its pid, ssl true, and the version, cipher and key bits the
// client negotiated; over plaintext ssl false and NULLs. psql's \conninfo
// and drivers read it.
func TestPgStatSSL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), TLS: testtls.SelfSigned(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	const q = "SELECT pid = pg_backend_pid(), ssl, version, cipher, bits, client_dn, client_serial::text, issuer_dn FROM pg_stat_ssl"
	type sslRow struct {
		self, ssl                  bool
		version, cipher            *string
		bits                       *int32
		clientDN, serial, issuerDN *string
	}
	read := func(c *pgx.Conn) sslRow {
		var r sslRow
		if err := c.QueryRow(ctx, q).Scan(&r.self, &r.ssl, &r.version, &r.cipher, &r.bits, &r.clientDN, &r.serial, &r.issuerDN); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if !r.self || r.clientDN != nil || r.serial != nil || r.issuerDN != nil {
			t.Errorf("want the connection's own row without a client certificate: %+v", r)
		}
		return r
	}

	cfg, err := pgx.ParseConfig(srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	cfg.TLSConfig = &tls.Config{InsecureSkipVerify: true, MaxVersion: tls.VersionTLS12,
		CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384}}
	tc, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close(ctx)
	r := read(tc)
	if !r.ssl || r.version == nil || *r.version != "TLSv1.2" || r.cipher == nil || *r.cipher != "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384" || r.bits == nil || *r.bits != 256 {
		t.Errorf("over TLS 1.2 with AES-256-GCM: %+v", r)
	}

	cfg.TLSConfig = nil
	pc, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(ctx)
	if r := read(pc); r.ssl || r.version != nil || r.cipher != nil || r.bits != nil {
		t.Errorf("over plaintext: %+v", r)
	}
}
