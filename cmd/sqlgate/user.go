package main

import (
	"bufio"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/sqlgate/sqlgate/pgwire"
)

// `sqlgate user ...` manages the users file, and the serve flags that turn
// authentication and TLS on. The users file holds SCRAM-SHA-256 verifiers
// (see pgwire/users.go); passwords are read from standard input, without
// echo when it is a terminal, never from the command line (where ps and
// shell history would see them).

const defaultUsersFile = "users.json"

// userCommand runs `sqlgate user add|remove|list`.
func userCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprint(stderr, `usage:
  sqlgate user add [--data DIR | --users FILE] [--md5] [--superuser] NAME   set NAME's password (read from standard input); the first user of a file is a superuser
  sqlgate user remove [--data DIR | --users FILE] NAME
  sqlgate user list [--data DIR | --users FILE]
`)
	}
	if len(args) == 0 {
		usage()
		return 2
	}
	verb := args[0]
	fs := flag.NewFlagSet("user "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "./sqlgate-data", "data directory (the users file defaults to DIR/users.json)")
	usersPath := fs.String("users", "", "users file")
	withMD5 := fs.Bool("md5", false, "also store the md5 hash, for clients that can only do md5 authentication (password-equivalent: prefer SCRAM)")
	superuser := fs.Bool("superuser", false, "make the user a superuser (default: only the first user of a file is one)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	path := *usersPath
	if path == "" {
		path = filepath.Join(*data, defaultUsersFile)
	}
	users, err := pgwire.LoadUsers(path)
	if errors.Is(err, os.ErrNotExist) {
		users, err = &pgwire.Users{}, nil
	}
	if err != nil {
		fmt.Fprintf(stderr, "sqlgate user: %v\n", err)
		return 1
	}
	switch verb {
	case "list":
		for _, n := range users.Names() {
			fmt.Fprintln(stdout, n)
		}
		return 0
	case "add", "remove":
	default:
		usage()
		return 2
	}
	if fs.NArg() != 1 {
		usage()
		return 2
	}
	name := fs.Arg(0)
	if verb == "remove" {
		if _, ok := users.Users[name]; !ok {
			fmt.Fprintf(stderr, "sqlgate user: no user %q in %s\n", name, path)
			return 1
		}
		delete(users.Users, name)
	} else {
		password, err := readPassword(stdin, stderr, name)
		if err != nil {
			fmt.Fprintf(stderr, "sqlgate user: %v\n", err)
			return 1
		}
		old, existed := users.Users[name]
		// The first user of a file is its superuser, so that somebody can
		// create tables and grant on them; later users are not unless asked.
		super := old.Superuser || !existed && !anySuperuser(users)
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "superuser" {
				super = *superuser
			}
		})
		if err := users.SetPassword(name, password, *withMD5); err != nil {
			fmt.Fprintf(stderr, "sqlgate user: %v\n", err)
			return 1
		}
		e := users.Users[name]
		e.Superuser = super
		users.Users[name] = e
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		fmt.Fprintf(stderr, "sqlgate user: %v\n", err)
		return 1
	}
	if err := users.Save(path); err != nil {
		fmt.Fprintf(stderr, "sqlgate user: %v\n", err)
		return 1
	}
	what := map[string]string{"add": "saved", "remove": "removed"}[verb]
	if verb == "add" && users.Users[name].Superuser {
		what = "saved as a superuser"
	}
	fmt.Fprintf(stdout, "user %q %s in %s\n", name, what, path)
	return 0
}

func anySuperuser(u *pgwire.Users) bool {
	for _, e := range u.Users {
		if e.Superuser {
			return true
		}
	}
	return false
}

// readPassword reads a password: from a terminal with a prompt, no echo and
// a confirmation; otherwise the first line of stdin.
func readPassword(stdin io.Reader, stderr io.Writer, name string) (string, error) {
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprintf(stderr, "Password for %s: ", name)
		pw, err := readNoEcho(f)
		fmt.Fprintln(stderr)
		if err != nil {
			return "", err
		}
		fmt.Fprint(stderr, "Enter it again: ")
		again, err := readNoEcho(f)
		fmt.Fprintln(stderr)
		if err != nil {
			return "", err
		}
		if pw != again {
			return "", errors.New("passwords do not match")
		}
		return pw, nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", fmt.Errorf("reading the password from standard input: %v", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// serveSecurityFlags are `sqlgate serve`'s authentication and TLS flags.
type serveSecurityFlags struct {
	users, auth, tlsCert, tlsKey *string
	insecure                     *bool
}

// serveSecurity is what the flags resolve to.
type serveSecurity struct {
	Auth       pgwire.AuthConfig
	TLS        *tls.Config
	RequireTLS bool
	// UsersFile is the users file in use ("" for trust).
	UsersFile string
}

func registerSecurityFlags(fs *flag.FlagSet) *serveSecurityFlags {
	return &serveSecurityFlags{
		users:    fs.String("users", "", "users file for password authentication (default DATA/users.json when it exists; create it with `sqlgate user add NAME`)"),
		auth:     fs.String("auth", "", "authentication method: trust, password, md5 or scram-sha-256 (default scram-sha-256 with a users file, trust without)"),
		tlsCert:  fs.String("tls-cert", "", "TLS certificate (PEM); with --tls-key, clients may use TLS"),
		tlsKey:   fs.String("tls-key", "", "TLS private key (PEM)"),
		insecure: fs.Bool("insecure", false, "allow listening on a non-loopback address without TLS (passwords and data cross the network in clear)"),
	}
}

// resolve checks the flags against the listening address and loads the
// users file and the certificate.
func (f *serveSecurityFlags) resolve(listen, dataDir string) (serveSecurity, error) {
	var sec serveSecurity
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return sec, fmt.Errorf("--listen %q: %v", listen, err)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || (ip != nil && ip.IsLoopback())

	path := *f.users
	if path == "" {
		if p := filepath.Join(dataDir, defaultUsersFile); fileExists(p) {
			path = p
		}
	}
	method := pgwire.AuthTrust
	if path != "" {
		method = pgwire.AuthSCRAM
	}
	if *f.auth != "" {
		m, ok := pgwire.ParseAuthMethod(*f.auth)
		if !ok {
			return sec, fmt.Errorf("--auth %q: use trust, password, md5 or scram-sha-256", *f.auth)
		}
		method = m
	}
	if method != pgwire.AuthTrust {
		if path == "" {
			return sec, fmt.Errorf("--auth %s needs a users file: create one with `sqlgate user add NAME --data %s` or pass --users FILE", method, dataDir)
		}
		users, err := pgwire.LoadUsers(path)
		if err != nil {
			return sec, err
		}
		if len(users.Users) == 0 {
			return sec, fmt.Errorf("users file %s has no users: add one with `sqlgate user add NAME --users %s`", path, path)
		}
		sec.Auth = pgwire.AuthConfig{Method: method, Users: users}
		sec.UsersFile = path
	}
	if (*f.tlsCert == "") != (*f.tlsKey == "") {
		return sec, errors.New("--tls-cert and --tls-key go together")
	}
	if *f.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(*f.tlsCert, *f.tlsKey)
		if err != nil {
			return sec, fmt.Errorf("loading the TLS certificate: %v", err)
		}
		sec.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if !loopback {
		if method == pgwire.AuthTrust {
			return sec, fmt.Errorf("refusing to listen on %s without authentication: create a user with `sqlgate user add NAME --data %s` (sqlgate then uses %s) or pass --users FILE",
				listen, dataDir, filepath.Join(dataDir, defaultUsersFile))
		}
		if sec.TLS == nil && !*f.insecure {
			return sec, fmt.Errorf("refusing to listen on %s without TLS: pass --tls-cert FILE --tls-key FILE, or --insecure to let passwords and data cross the network unencrypted", listen)
		}
		// Remote clients must use TLS when it is configured (hostssl).
		sec.RequireTLS = sec.TLS != nil && !*f.insecure
	}
	return sec, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// checkFlight applies the PostgreSQL side's rules to the Flight SQL
// address: off loopback it needs authentication and TLS (gRPC cannot
// offer both on one port, so with TLS configured every Flight client uses
// it), unless --insecure.
func (f *serveSecurityFlags) checkFlight(listen string, sec serveSecurity) error {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("--flight-listen %q: %v", listen, err)
	}
	ip := net.ParseIP(host)
	if host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	if !sec.Auth.RequiresPassword() {
		return fmt.Errorf("refusing to serve Flight SQL on %s without authentication: create a user with `sqlgate user add NAME` or pass --users FILE", listen)
	}
	if sec.TLS == nil && !*f.insecure {
		return fmt.Errorf("refusing to serve Flight SQL on %s without TLS: pass --tls-cert FILE --tls-key FILE, or --insecure to let passwords and data cross the network unencrypted", listen)
	}
	return nil
}
