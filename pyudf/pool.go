package pyudf

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

//go:embed worker.py
var workerScript []byte

// Config configures a Pool.
type Config struct {
	// Python is the interpreter, which must import pyarrow; "" = the
	// environment's SQLGATE_PYTHON, else python3.
	Python string
	// Workers is how many worker processes may run at once (calls wait
	// for an idle one); 0 = 2.
	Workers int
	// MemoryLimit is each worker's address-space limit in bytes
	// (RLIMIT_AS, set by the worker before it imports pyarrow); 0 = 4 GiB,
	// negative = none.
	MemoryLimit int64
	// ScriptDir is where the worker script is written once; "" = a
	// temporary directory removed by Close.
	ScriptDir string
}

// Pool runs Python UDF calls in worker processes. Workers start on demand,
// serve one call at a time, and are reused; a worker that fails a call by
// dying, or that is killed because its statement was cancelled or timed
// out, is discarded, and the next call starts a new one. It is safe for
// concurrent use.
type Pool struct {
	cfg    Config
	mu     sync.Mutex
	idle   []*worker
	slots  chan struct{} // one token per running worker
	script string
	tmpDir string
	closed bool
}

// NewPool returns a pool; no worker starts until the first call.
func NewPool(cfg Config) *Pool {
	if cfg.Python == "" {
		cfg.Python = os.Getenv("SQLGATE_PYTHON")
	}
	if cfg.Python == "" {
		cfg.Python = "python3"
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	if cfg.MemoryLimit == 0 {
		cfg.MemoryLimit = 4 << 30
	}
	return &Pool{cfg: cfg, slots: make(chan struct{}, cfg.Workers)}
}

// Close ends every idle worker (busy ones end when their call returns) and
// removes the worker script's temporary directory.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, w := range p.idle {
		w.stop()
	}
	p.idle = nil
	if p.tmpDir != "" {
		os.RemoveAll(p.tmpDir)
	}
}

// worker is one Python process and its end of the socket pair.
type worker struct {
	cmd  *exec.Cmd
	conn net.Conn
	r    *bufio.Reader
	done chan struct{} // closed when the process has been waited for
	err  error         // the process's exit, once done
}

func (w *worker) stop() {
	w.conn.Close() // the worker exits at end of input
	<-w.done
}

func (w *worker) kill() {
	w.cmd.Process.Kill()
	w.conn.Close()
}

// scriptPath writes the worker script once.
func (p *Pool) scriptPath() (string, error) {
	if p.script != "" {
		return p.script, nil
	}
	dir := p.cfg.ScriptDir
	if dir == "" {
		d, err := os.MkdirTemp("", "sqlgate-pyudf-")
		if err != nil {
			return "", err
		}
		dir, p.tmpDir = d, d
	}
	path := dir + "/sqlgate_udf_worker.py"
	if err := os.WriteFile(path, workerScript, 0o600); err != nil {
		return "", err
	}
	p.script = path
	return path, nil
}

// get returns an idle worker or starts one, waiting for a slot while
// Workers are busy.
func (p *Pool) get(ctx context.Context) (*worker, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		<-p.slots
		return nil, sqlerr.New(sqlerr.AdminShutdown, "the Python UDF workers are shut down")
	}
	for len(p.idle) > 0 {
		w := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		select {
		case <-w.done:
			w.conn.Close() // it died while idle (killed from outside): start another
		default:
			return w, nil
		}
	}
	w, err := p.start()
	if err != nil {
		<-p.slots
		return nil, err
	}
	return w, nil
}

// put returns a healthy worker to the idle list.
func (p *Pool) put(w *worker) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.stop()
	} else {
		p.idle = append(p.idle, w)
		p.mu.Unlock()
	}
	<-p.slots
}

// discard ends a worker that failed; its slot frees for a new one.
func (p *Pool) discard(w *worker) {
	w.kill()
	<-w.done
	<-p.slots
}

func (p *Pool) start() (*worker, error) {
	script, err := p.scriptPath()
	if err != nil {
		return nil, err
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "pyudf"), os.NewFile(uintptr(fds[1]), "pyudf-worker")
	defer theirs.Close()
	conn, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		return nil, err
	}
	limit := p.cfg.MemoryLimit
	if limit < 0 {
		limit = 0
	}
	cmd := exec.Command(p.cfg.Python, "-u", script, strconv.FormatInt(limit, 10))
	cmd.ExtraFiles = []*os.File{theirs} // fd 3
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{buf: &stderr, max: 64 << 10}
	// its own process group: a terminal's signals to sqlgate's group do
	// not reach it; it ends when its socket closes (sqlgate ended)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		conn.Close()
		return nil, sqlerr.New(sqlerr.ExternalRoutineException, "cannot start a Python UDF worker (%s): %v", p.cfg.Python, err)
	}
	w := &worker{cmd: cmd, conn: conn, r: bufio.NewReaderSize(conn, 64<<10), done: make(chan struct{})}
	go func() {
		w.err = cmd.Wait()
		if stderr.Len() > 0 && w.err != nil {
			w.err = fmt.Errorf("%v: %s", w.err, bytes.TrimSpace(stderr.Bytes()))
		}
		close(w.done)
	}()
	return w, nil
}

// limitedWriter keeps the first max bytes written to it (a worker's
// stderr, for the message when it dies).
type limitedWriter struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// request is the JSON header of a call.
type request struct {
	Key  string   `json:"key"`
	Name string   `json:"name"`
	Args []string `json:"args"`
	Kind string   `json:"kind"`
	Body string   `json:"body"`
}

type response struct {
	OK        bool   `json:"ok"`
	Error     string `json:"error"`
	Traceback string `json:"traceback"`
}

// Call sends one batch to a worker running f and returns the batch it
// answers (the caller releases it). kind is "scalar" or "table". ctx's end
// kills the worker (the call cannot be interrupted otherwise) and returns
// ctx's error; a worker that dies fails the call with 38000.
func (p *Pool) Call(ctx context.Context, f *Function, kind string, in arrow.RecordBatch) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	payload, err := encodeBatch(in)
	if err != nil {
		return nil, err
	}
	hdr, err := json.Marshal(request{Key: f.key(), Name: f.Name, Args: f.argNames(), Kind: kind, Body: f.Body})
	if err != nil {
		return nil, err
	}
	w, err := p.get(ctx)
	if err != nil {
		return nil, err
	}
	stopWatch := context.AfterFunc(ctx, w.kill)
	resp, out, err := w.roundTrip(hdr, payload)
	if !stopWatch() || ctx.Err() != nil {
		// killed for the statement's cancellation or timeout
		if out != nil {
			out.Release()
		}
		p.discard(w)
		return nil, ctx.Err()
	}
	if err != nil {
		p.discard(w)
		return nil, sqlerr.New(sqlerr.ExternalRoutineException, "Python UDF %s: its worker process died (%v); the call failed and the worker was replaced", f.Name, w.exitError()).
			WithDetail("%v", err)
	}
	p.put(w)
	if !resp.OK {
		return nil, sqlerr.New(sqlerr.ExternalRoutineException, "Python UDF %s failed: %s", f.Name, resp.Error).WithDetail("%s", resp.Traceback)
	}
	return out, nil
}

// exitError waits a moment for the dead worker's exit status.
func (w *worker) exitError() error {
	<-w.done
	if w.err == nil {
		return errors.New("exited")
	}
	return w.err
}

func (w *worker) roundTrip(hdr, payload []byte) (response, arrow.RecordBatch, error) {
	var resp response
	msg := make([]byte, 0, 12+len(hdr))
	msg = binary.LittleEndian.AppendUint32(msg, uint32(len(hdr)))
	msg = append(msg, hdr...)
	msg = binary.LittleEndian.AppendUint64(msg, uint64(len(payload)))
	if _, err := (&net.Buffers{msg, payload}).WriteTo(w.conn); err != nil {
		return resp, nil, err
	}
	var n4 [4]byte
	if _, err := io.ReadFull(w.r, n4[:]); err != nil {
		return resp, nil, err
	}
	h := make([]byte, binary.LittleEndian.Uint32(n4[:]))
	if _, err := io.ReadFull(w.r, h); err != nil {
		return resp, nil, err
	}
	if err := json.Unmarshal(h, &resp); err != nil {
		return resp, nil, err
	}
	if !resp.OK {
		return resp, nil, nil
	}
	var n8 [8]byte
	if _, err := io.ReadFull(w.r, n8[:]); err != nil {
		return resp, nil, err
	}
	body := make([]byte, binary.LittleEndian.Uint64(n8[:]))
	if _, err := io.ReadFull(w.r, body); err != nil {
		return resp, nil, err
	}
	out, err := decodeBatch(body)
	return resp, out, err
}

func encodeBatch(b arrow.RecordBatch) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(b.Schema()))
	if err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeBatch(body []byte) (arrow.RecordBatch, error) {
	r, err := ipc.NewReader(bytes.NewReader(body), ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return nil, err
	}
	defer r.Release()
	if !r.Next() {
		if err := r.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("the worker answered no batch")
	}
	b := r.RecordBatch()
	b.Retain()
	return b, nil
}
