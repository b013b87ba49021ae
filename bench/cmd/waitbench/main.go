//go:build linux

// Command waitbench measures what a Go server spends per round trip waiting
// for a client's next message, by the way it waits, so that pgwire's wait
// path can be weighed against PostgreSQL's (a backend blocks in recv(2), or
// in epoll_wait(2) after a recv that found nothing, and the kernel wakes it
// directly) without the rest of a server in the figures.
//
//	waitbench [-mode netpoll|block|epoll] [-n 40000] [-think 20us]
//
// It starts itself as a child process serving one TCP connection on the
// loopback in the given mode, drives it from this process with n ping-pong
// round trips of 40 bytes, spinning -think between a reply and the next
// request (a client's own work: it keeps the server waiting, as pgx's does
// between the messages of a transaction), and prints the child's CPU time
// and context switches per round trip, read from /proc/PID/task/*.
//
// Modes:
//
//	netpoll  net.Conn Read and Write: a read that finds nothing parks the
//	         goroutine on the runtime's netpoller (what pgwire does)
//	block    the socket taken out of the netpoller (the net.Conn's file
//	         duplicated and closed), blocking read(2) and write(2) through
//	         package syscall: the thread blocks in the kernel, as a
//	         PostgreSQL backend does
//	epoll    the socket out of the netpoller, non-blocking, and its own
//	         epoll instance: read(2), and on EAGAIN epoll_wait(2) through
//	         package syscall, then read(2) (PostgreSQL's WaitEventSet)
//
// It must not hold sqlgate code: it measures the Go runtime's ways of
// waiting, nothing else.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"github.com/sqlgate/sqlgate/bench/internal/procstat"
)

func main() {
	mode := flag.String("mode", "netpoll", "how the server waits: netpoll, block or epoll")
	n := flag.Int("n", 40000, "round trips")
	think := flag.Duration("think", 20*time.Microsecond, "the client's spin between a reply and its next request")
	serve := flag.String("serve", "", "internal: serve one connection on this listener address")
	flag.Parse()
	if *serve != "" {
		if err := runServer(*serve, *mode); err != nil {
			fmt.Fprintln(os.Stderr, "waitbench server:", err)
			os.Exit(1)
		}
		return
	}
	if err := runClient(*mode, *n, *think); err != nil {
		fmt.Fprintln(os.Stderr, "waitbench:", err)
		os.Exit(1)
	}
}

// runClient starts the server child, runs the round trips and reports.
func runClient(mode string, n int, think time.Duration) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close() // the child listens on it; a free port in practice
	cmd := exec.Command(os.Args[0], "-serve", addr, "-mode", mode)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Wait()
	var fd int
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			fd, err = detach(c)
			if err != nil {
				return err
			}
			break
		}
		if i == 200 {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
	defer syscall.Close(fd)
	// The client blocks in read(2) on one locked thread: cheap and the same
	// for every mode.
	runtime.LockOSThread()
	msg, reply := make([]byte, 40), make([]byte, 64)
	roundTrip := func() error {
		if _, err := syscall.Write(fd, msg); err != nil {
			return err
		}
		for got := 0; got < len(msg); {
			r, err := syscall.Read(fd, reply)
			if err != nil {
				return err
			}
			if r == 0 {
				return errors.New("server closed the connection")
			}
			got += r
		}
		for t := time.Now(); time.Since(t) < think; {
		}
		return nil
	}
	for range 1000 { // warm-up
		if err := roundTrip(); err != nil {
			return err
		}
	}
	pid := cmd.Process.Pid
	cpu0, cs0, err := procstat.TaskStats(pid)
	if err != nil {
		return err
	}
	t0 := time.Now()
	for range n {
		if err := roundTrip(); err != nil {
			return err
		}
	}
	elapsed := time.Since(t0)
	cpu1, cs1, err := procstat.TaskStats(pid)
	if err != nil {
		return err
	}
	fmt.Printf("%-8s think %v: %.1f µs/round trip; server %.2f µs CPU, %.2f context switches per round trip\n",
		mode, think, float64(elapsed.Microseconds())/float64(n),
		float64((cpu1-cpu0).Nanoseconds())/1e3/float64(n), float64(cs1-cs0)/float64(n))
	return nil
}

// detach takes c's socket out of the runtime's netpoller: a duplicate of
// its descriptor that nobody polls (os registers the descriptor File
// returns, so that one is duplicated again and closed), in blocking mode.
func detach(c net.Conn) (int, error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return -1, errors.New("not a TCP connection")
	}
	f, err := tc.File()
	c.Close()
	if err != nil {
		return -1, err
	}
	defer f.Close()
	fd, err := syscall.Dup(int(f.Fd())) // Fd puts the file in blocking mode
	if err != nil {
		return -1, err
	}
	return fd, nil
}

// runServer echoes each message of one connection back, waiting in mode.
func runServer(addr, mode string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	c, err := ln.Accept()
	if err != nil {
		return err
	}
	// Keep a goroutine parked on the netpoller, as a server's accept loop
	// is: the runtime then has a poller to wait in whatever the mode.
	go func() { _, _ = ln.Accept() }()
	buf := make([]byte, 8192)
	switch mode {
	case "netpoll":
		for {
			n, err := c.Read(buf)
			if err != nil {
				return nil
			}
			if _, err := c.Write(buf[:n]); err != nil {
				return nil
			}
		}
	case "block":
		fd, err := detach(c)
		if err != nil {
			return err
		}
		for {
			n, err := syscall.Read(fd, buf)
			if err != nil || n <= 0 {
				return nil
			}
			if _, err := syscall.Write(fd, buf[:n]); err != nil {
				return nil
			}
		}
	case "epoll":
		fd, err := detach(c)
		if err != nil {
			return err
		}
		if err := syscall.SetNonblock(fd, true); err != nil {
			return err
		}
		ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			return err
		}
		if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)}); err != nil {
			return err
		}
		events := make([]syscall.EpollEvent, 1)
		for {
			n, err := syscall.Read(fd, buf)
			if err == syscall.EAGAIN {
				if _, err := syscall.EpollWait(ep, events, -1); err != nil && err != syscall.EINTR {
					return err
				}
				continue
			}
			if err != nil || n <= 0 {
				return nil
			}
			if _, err := syscall.Write(fd, buf[:n]); err != nil {
				return nil
			}
		}
	}
	return fmt.Errorf("unknown mode %q", mode)
}
