package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress writes long-running status to stderr: a redrawn bar when stderr
// is a terminal, plain lines at most every interval otherwise (logs, CI).
type progress struct {
	w        io.Writer
	tty      bool
	interval time.Duration
	last     time.Time
	quiet    bool
	dirty    bool
}

func newProgress(w io.Writer, quiet bool) *progress {
	p := &progress{w: w, interval: 5 * time.Second, quiet: quiet}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
			p.interval = 200 * time.Millisecond
		}
	}
	return p
}

// update shows done of total (total <= 0: unknown) with a message; it is
// rate-limited unless force is set.
func (p *progress) update(done, total int64, force bool, format string, a ...any) {
	if p.quiet {
		return
	}
	now := time.Now()
	if !(force && p.tty) && now.Sub(p.last) < p.interval && !p.last.IsZero() {
		return
	}
	p.last = now
	msg := fmt.Sprintf(format, a...)
	if p.tty {
		bar := ""
		if total > 0 {
			const width = 24
			fill := int(done * width / total)
			if fill > width {
				fill = width
			}
			bar = fmt.Sprintf("[%s%s] %d/%d ", strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total)
		}
		fmt.Fprintf(p.w, "\r\033[K%s%s", bar, msg)
		p.dirty = true
		return
	}
	if total > 0 {
		fmt.Fprintf(p.w, "%d/%d %s\n", done, total, msg)
	} else {
		fmt.Fprintln(p.w, msg)
	}
}

// clear erases the bar before data is printed, so the next update redraws
// in place (one line on the terminal whether or not stdout is redirected).
func (p *progress) clear() {
	if p.tty && p.dirty {
		fmt.Fprint(p.w, "\r\033[K")
		p.dirty = false
	}
}

// done ends the bar line so later output starts on a fresh line.
func (p *progress) done() {
	if p.tty && p.dirty {
		fmt.Fprintln(p.w)
		p.dirty = false
	}
}
