package protocol

import (
	"bytes"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
)

// scramState is what a connection remembers of a SCRAM exchange so that
// the SCRAMClientFinal pseudo-message can compute the proof, and the
// server's signature can be checked.
type scramState struct {
	clientFirstBare string
	gs2Header       string
	serverFirst     string
	serverSignature string // base64, once SCRAMClientFinal was sent
}

// encodeFrontend turns one input line, "Type" or "Type {json}", into wire
// bytes. The JSON fields are those of the pgproto3 message, with readable
// spellings: text for SASL data and CopyData ("Text"), hex only where bytes
// are binary ("Hex"). Two pseudo-messages exist: Raw {"Hex": "..."} sends
// bytes as they are, and SCRAMClientFinal {"Password": "..."} sends the
// SCRAM client-final-message for the exchange in progress.
func encodeFrontend(line string, sc *scramState) ([]byte, error) {
	typ, body, _ := strings.Cut(strings.TrimSpace(line), " ")
	body = strings.TrimSpace(body)
	if body == "" {
		body = "{}"
	}
	strict := func(v any) error {
		dec := json.NewDecoder(strings.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("%s: %v", typ, err)
		}
		return nil
	}
	var msg pgproto3.FrontendMessage
	switch typ {
	case "Query":
		m := &pgproto3.Query{}
		if err := strict(m); err != nil {
			return nil, err
		}
		msg = m
	case "Parse":
		m := &pgproto3.Parse{}
		if err := strict(m); err != nil {
			return nil, err
		}
		msg = m
	case "Bind":
		m := &pgproto3.Bind{}
		if err := json.Unmarshal([]byte(body), m); err != nil {
			return nil, fmt.Errorf("Bind: %v", err)
		}
		msg = m
	case "Describe", "Close":
		var v struct {
			ObjectType string
			Name       string
		}
		if err := strict(&v); err != nil {
			return nil, err
		}
		if len(v.ObjectType) != 1 {
			return nil, fmt.Errorf("%s: ObjectType must be S or P", typ)
		}
		if typ == "Describe" {
			msg = &pgproto3.Describe{ObjectType: v.ObjectType[0], Name: v.Name}
		} else {
			msg = &pgproto3.Close{ObjectType: v.ObjectType[0], Name: v.Name}
		}
	case "Execute":
		m := &pgproto3.Execute{}
		if err := strict(m); err != nil {
			return nil, err
		}
		msg = m
	case "Sync":
		msg = &pgproto3.Sync{}
	case "Flush":
		msg = &pgproto3.Flush{}
	case "Terminate":
		msg = &pgproto3.Terminate{}
	case "CopyDone":
		msg = &pgproto3.CopyDone{}
	case "CopyFail":
		m := &pgproto3.CopyFail{}
		if err := strict(m); err != nil {
			return nil, err
		}
		msg = m
	case "CopyData":
		var v struct{ Text, Hex string }
		if err := strict(&v); err != nil {
			return nil, err
		}
		data := []byte(v.Text)
		if v.Hex != "" {
			b, err := hex.DecodeString(strings.ReplaceAll(v.Hex, " ", ""))
			if err != nil {
				return nil, err
			}
			data = b
		}
		msg = &pgproto3.CopyData{Data: data}
	case "StartupMessage":
		m := &pgproto3.StartupMessage{}
		if err := strict(m); err != nil {
			return nil, err
		}
		if m.ProtocolVersion == 0 {
			m.ProtocolVersion = pgproto3.ProtocolVersionNumber
		}
		msg = m
	case "SSLRequest":
		msg = &pgproto3.SSLRequest{}
	case "GSSEncRequest":
		msg = &pgproto3.GSSEncRequest{}
	case "PasswordMessage":
		m := &pgproto3.PasswordMessage{}
		if err := strict(m); err != nil {
			return nil, err
		}
		msg = m
	case "SASLInitialResponse":
		var v struct{ AuthMechanism, Data string }
		if err := strict(&v); err != nil {
			return nil, err
		}
		// gs2-header "n,," (or "y,,"), then client-first-message-bare.
		if i := strings.Index(v.Data, ",,"); i >= 0 {
			sc.gs2Header = v.Data[:i+2]
			sc.clientFirstBare = v.Data[i+2:]
		}
		msg = &pgproto3.SASLInitialResponse{AuthMechanism: v.AuthMechanism, Data: []byte(v.Data)}
	case "SASLResponse":
		var v struct{ Data string }
		if err := strict(&v); err != nil {
			return nil, err
		}
		msg = &pgproto3.SASLResponse{Data: []byte(v.Data)}
	case "SCRAMClientFinal":
		var v struct{ Password string }
		if err := strict(&v); err != nil {
			return nil, err
		}
		final, err := sc.clientFinal(v.Password)
		if err != nil {
			return nil, err
		}
		msg = &pgproto3.SASLResponse{Data: []byte(final)}
	case "Raw":
		var v struct{ Hex string }
		if err := strict(&v); err != nil {
			return nil, err
		}
		return hex.DecodeString(strings.ReplaceAll(v.Hex, " ", ""))
	default:
		return nil, fmt.Errorf("unknown frontend message %q", typ)
	}
	return msg.Encode(nil)
}

// clientFinal computes the SCRAM-SHA-256 client-final-message (RFC 5802)
// for the server-first-message received last.
func (sc *scramState) clientFinal(password string) (string, error) {
	if sc.serverFirst == "" || sc.clientFirstBare == "" {
		return "", fmt.Errorf("SCRAMClientFinal: no SCRAM exchange in progress")
	}
	var nonce, saltB64 string
	iter := 0
	for _, attr := range strings.Split(sc.serverFirst, ",") {
		k, v, _ := strings.Cut(attr, "=")
		switch k {
		case "r":
			nonce = v
		case "s":
			saltB64 = v
		case "i":
			iter, _ = strconv.Atoi(v)
		}
	}
	salt, err := base64.StdEncoding.DecodeString(saltB64)
	if err != nil || iter <= 0 || nonce == "" {
		return "", fmt.Errorf("SCRAMClientFinal: bad server-first-message %q", sc.serverFirst)
	}
	salted, err := pbkdf2.Key(sha256.New, password, salt, iter, sha256.Size)
	if err != nil {
		return "", err
	}
	mac := func(key []byte, msg string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(msg))
		return h.Sum(nil)
	}
	clientKey := mac(salted, "Client Key")
	storedKey := sha256.Sum256(clientKey)
	withoutProof := "c=" + base64.StdEncoding.EncodeToString([]byte(sc.gs2Header)) + ",r=" + nonce
	authMessage := sc.clientFirstBare + "," + sc.serverFirst + "," + withoutProof
	sig := mac(storedKey[:], authMessage)
	proof := make([]byte, len(clientKey))
	for i := range proof {
		proof[i] = clientKey[i] ^ sig[i]
	}
	sc.serverSignature = base64.StdEncoding.EncodeToString(mac(mac(salted, "Server Key"), authMessage))
	return withoutProof + ",p=" + base64.StdEncoding.EncodeToString(proof), nil
}

// validServerSignature stands for the server's SCRAM signature in a
// rendered AuthenticationSASLFinal when it is the one the client computed.
const validServerSignature = "v=<valid server signature>"

// renderBackend renders a received message as one line of JSON: "Type"
// first, then the message's non-zero fields in alphabetical order.
// ErrorResponse and NoticeResponse lose File, Line and Routine (the
// server's source location, which sqlgate has no equivalent of). CopyData
// shows its bytes as "Text" when they are printable, "Hex" otherwise.
func renderBackend(msg pgproto3.BackendMessage, sc *scramState) (string, error) {
	var typ string
	var fields map[string]any
	switch m := msg.(type) {
	case *pgproto3.CopyData:
		typ = "CopyData"
		if printable(m.Data) {
			fields = map[string]any{"Text": string(m.Data)}
		} else {
			fields = map[string]any{"Hex": hex.EncodeToString(m.Data)}
		}
	case *pgproto3.NoticeResponse:
		e := pgproto3.ErrorResponse(*m)
		if err := toFields(&e, &typ, &fields); err != nil {
			return "", err
		}
		typ = "NoticeResponse"
	case *pgproto3.AuthenticationSASLContinue:
		sc.serverFirst = string(m.Data)
		if err := toFields(m, &typ, &fields); err != nil {
			return "", err
		}
	case *pgproto3.AuthenticationSASLFinal:
		typ = "AuthenticationSASLFinal"
		data := string(m.Data)
		if sc.serverSignature != "" && data == "v="+sc.serverSignature {
			data = validServerSignature
		}
		fields = map[string]any{"Data": data}
	default:
		if err := toFields(m, &typ, &fields); err != nil {
			return "", err
		}
	}
	if typ == "ErrorResponse" || typ == "NoticeResponse" {
		delete(fields, "File")
		delete(fields, "Line")
		delete(fields, "Routine")
	}
	keys := make([]string, 0, len(fields))
	for k, v := range fields {
		if isZero(v) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString(`{"Type":`)
	writeJSON(&b, typ)
	for _, k := range keys {
		b.WriteByte(',')
		writeJSON(&b, k)
		b.WriteByte(':')
		writeJSON(&b, fields[k])
	}
	b.WriteByte('}')
	return b.String(), nil
}

// toFields splits a message's pgproto3 JSON into its type and its fields,
// each kept as pgproto3 wrote it (nested objects keep their field order).
func toFields(m any, typ *string, fields *map[string]any) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil {
		return err
	}
	if err := json.Unmarshal(f["Type"], typ); err != nil {
		return err
	}
	delete(f, "Type")
	*fields = map[string]any{}
	for k, v := range f {
		(*fields)[k] = v
	}
	return nil
}

func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case json.RawMessage:
		switch string(x) {
		case `""`, "0", "null", "[]", "{}", "false":
			return true
		}
	}
	return false
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	b.Truncate(b.Len() - 1) // Encode's newline
}

func printable(b []byte) bool {
	for _, c := range b {
		if (c < 32 && c != '\n' && c != '\t' && c != '\r') || c >= 127 {
			return false
		}
	}
	return true
}

// cancelRequest encodes a CancelRequest for a BackendKeyData.
func cancelRequest(pid uint32, secret []byte) []byte {
	b := make([]byte, 8, 16)
	binary.BigEndian.PutUint32(b, uint32(8+4+len(secret)))
	binary.BigEndian.PutUint32(b[4:], 80877102)
	b = binary.BigEndian.AppendUint32(b, pid)
	return append(b, secret...)
}
