package transfer

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Progress shows how a transfer advances: on a terminal a bar redrawn in
// place (bytes, rows, rate, ETA), elsewhere a plain line now and then (a
// log or a CI job must not fill with carriage returns).
type Progress struct {
	w        io.Writer
	bar      bool
	every    time.Duration
	total    int64 // bytes of all files, 0 when unknown (export)
	start    time.Time
	bytes    atomic.Int64
	rows     atomic.Int64
	label    atomic.Value // string: the file being transferred
	stop     chan struct{}
	done     sync.WaitGroup
	mu       sync.Mutex // one line at a time
	lastLine int
}

// NewProgress starts reporting to w: a bar when bar is set (w is a
// terminal), else a line every interval (none when interval is 0).
func NewProgress(w io.Writer, bar bool, interval time.Duration, totalBytes int64) *Progress {
	p := &Progress{w: w, bar: bar, every: interval, total: totalBytes, start: time.Now(), stop: make(chan struct{})}
	p.label.Store("")
	if bar {
		p.every = 200 * time.Millisecond
		p.draw(false) // at once: a short transfer still shows its bar
	}
	if p.every > 0 {
		p.done.Add(1)
		go p.loop()
	}
	return p
}

func (p *Progress) loop() {
	defer p.done.Done()
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.draw(false)
		}
	}
}

// SetFile names the file being transferred.
func (p *Progress) SetFile(name string) { p.label.Store(name) }

// AddBytes and AddRows count what was transferred.
func (p *Progress) AddBytes(n int64) { p.bytes.Add(n) }
func (p *Progress) AddRows(n int64)  { p.rows.Add(n) }

// Rows and Bytes are the counts so far.
func (p *Progress) Rows() int64  { return p.rows.Load() }
func (p *Progress) Bytes() int64 { return p.bytes.Load() }

// Finish stops the reports, drawing the bar a last time complete.
func (p *Progress) Finish() {
	close(p.stop)
	p.done.Wait()
	if p.bar {
		p.draw(true)
		fmt.Fprintln(p.w)
	}
}

func (p *Progress) draw(final bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := p.line(time.Since(p.start), final)
	if !p.bar {
		fmt.Fprintln(p.w, line)
		return
	}
	pad := ""
	if n := p.lastLine - len(line); n > 0 {
		pad = strings.Repeat(" ", n) // erase the rest of a longer line
	}
	p.lastLine = len(line)
	fmt.Fprint(p.w, "\r"+line+pad)
}

const barWidth = 24

// line is one report: [bar] pct bytes/total rows rate ETA file.
func (p *Progress) line(elapsed time.Duration, final bool) string {
	bytes, rows := p.bytes.Load(), p.rows.Load()
	secs := elapsed.Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	var b strings.Builder
	if p.total > 0 {
		frac := float64(bytes) / float64(p.total)
		if final || frac > 1 {
			frac = 1
		}
		if p.bar {
			n := int(frac * barWidth)
			b.WriteString("[" + strings.Repeat("#", n) + strings.Repeat("-", barWidth-n) + "] ")
		}
		fmt.Fprintf(&b, "%3.0f%% %s/%s", frac*100, HumanBytes(bytes), HumanBytes(p.total))
	} else {
		b.WriteString(HumanBytes(bytes))
	}
	fmt.Fprintf(&b, " %s rows %s/s %s rows/s", Thousands(rows), HumanBytes(int64(float64(bytes)/secs)), Thousands(int64(float64(rows)/secs)))
	if p.total > 0 && !final {
		eta := "--:--"
		if bytes > 0 {
			left := time.Duration(float64(p.total-bytes) / (float64(bytes) / secs) * float64(time.Second))
			eta = clock(left)
		}
		b.WriteString(" ETA " + eta)
	} else {
		b.WriteString(" in " + clock(elapsed))
	}
	if f, _ := p.label.Load().(string); f != "" && !final {
		b.WriteString(" " + f)
	}
	return b.String()
}

// clock renders a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// HumanBytes renders a byte count in binary units.
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// Thousands renders n with thousands separators.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Printf prints a line of its own (above the bar on a terminal).
func (p *Progress) Printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar && p.lastLine > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.lastLine)+"\r")
		p.lastLine = 0
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}
