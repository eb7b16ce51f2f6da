// Package progress writes the status of a long-running command to stderr:
// a bar redrawn in place when stderr is a terminal, plain lines at most
// every few seconds otherwise (logs, CI), nothing when quiet.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Bar is the status line of one command.
type Bar struct {
	w        io.Writer
	tty      bool
	interval time.Duration
	last     time.Time
	quiet    bool
	dirty    bool
}

// New writes to w (a terminal is detected by its file mode); quiet writes
// nothing.
func New(w io.Writer, quiet bool) *Bar {
	p := &Bar{w: w, interval: 5 * time.Second, quiet: quiet}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
			p.interval = 200 * time.Millisecond
		}
	}
	return p
}

// Update shows done of total (total <= 0: unknown) with a message; it is
// rate-limited unless force is set.
func (p *Bar) Update(done, total int64, force bool, format string, a ...any) {
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

// Clear erases the bar before data is printed, so the next update redraws
// in place (one line on the terminal whether or not stdout is redirected).
func (p *Bar) Clear() {
	if p.tty && p.dirty {
		fmt.Fprint(p.w, "\r\033[K")
		p.dirty = false
	}
}

// Done ends the bar line so later output starts on a fresh line.
func (p *Bar) Done() {
	if p.tty && p.dirty {
		fmt.Fprintln(p.w)
		p.dirty = false
	}
}
