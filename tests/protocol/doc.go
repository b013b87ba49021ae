// Package protocol holds byte-level PostgreSQL wire-protocol scripts and the
// test that runs each of them, unchanged, against a throwaway PostgreSQL 15
// (internal/pgtest) and then against sqlgate (in-process, server.Start, on
// temporary data directories). PostgreSQL is the oracle: a script passes
// only if both servers send the same messages.
//
// # Scripts
//
// testdata/*.txt are in the style of CockroachDB's pgwire testdata
// (datadriven): a directive line, input lines, "----", the expected output
// lines, a blank line.
//
//	send [conn=NAME]          input: frontend messages, one per line
//	until [conn=NAME]         read until each input type was seen in order
//	                          (default ReadyForQuery); output: the messages
//	connect [conn=NAME] [server=scram] [user=U] [raw]
//	                          open a connection; without raw also run the
//	                          startup (trust, user postgres, database
//	                          postgres, TimeZone UTC), output nothing
//	readbyte [conn=NAME]      the one-byte answer to SSLRequest
//	cancel [conn=NAME] [wrong-secret]
//	                          CancelRequest with the connection's
//	                          BackendKeyData, on a new connection
//	sleep for=DURATION
//	close [conn=NAME]
//
// A frontend message is its pgproto3 name and, optionally, a JSON object
// of its fields: Query {"String": "SELECT 1"}, Parse {"Name": "s", "Query":
// "...", "ParameterOIDs": [23]}, Bind {"Parameters": [{"text": "1"},
// {"binary": "00000001"}, null], "ResultFormatCodes": [1]}, Describe /
// Close {"ObjectType": "S", "Name": ""}, Execute {"Portal": "", "MaxRows":
// 2}, Sync, Flush, Terminate, CopyData {"Text": "..."} or {"Hex": "..."},
// CopyDone, CopyFail {"Message": "..."}, StartupMessage {"ProtocolVersion":
// 196608, "Parameters": {...}}, SSLRequest, GSSEncRequest, PasswordMessage,
// SASLInitialResponse / SASLResponse {"Data": "text"}. Two pseudo-messages:
// Raw {"Hex": "..."} sends bytes as they are, SCRAMClientFinal {"Password":
// "..."} computes the SCRAM client-final-message for the exchange in
// progress.
//
// A received message is one line of JSON: "Type", then its non-zero fields
// in alphabetical order, each as pgproto3 renders it (DataRow values as
// {"text": ...} or {"binary": hex}); CopyData as "Text" when printable,
// else "Hex"; the connection closing is the line EOF.
//
// # What may differ
//
// Kept minimal, and visible in the scripts:
//
//   - ErrorResponse and NoticeResponse lose File, Line and Routine, the
//     PostgreSQL source location of the error.
//   - "<any>" in an expected line matches any value; inside a string it
//     matches any run of characters. It is used for server_version
//     ("15.<any>"), BackendKeyData, table OIDs in RowDescription, and the
//     server's SCRAM nonce and salt.
//   - A SCRAM server signature that the client verified renders as
//     "v=<valid server signature>", so a wrong one fails the script.
//
// Cases where sqlgate differs from PostgreSQL for reasons outside pgwire
// (the engine's implicit transactions, the binder's parameter typing) are
// left out with a comment saying so.
//
// # Rewriting
//
// go test ./tests/protocol -run TestProtocol -rewrite runs the scripts
// against PostgreSQL only and rewrites their expected output from its
// answers, keeping every old line (with its wildcards) that still matches.
package protocol
