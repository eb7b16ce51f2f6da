package cmdline

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// RunWithSignals runs run under the one interrupt handler of every command:
// SIGINT or SIGTERM cancels run's context, gives it a moment to stop,
// removes the temporaries and scratch registered with the Cleanup, prints
// one line naming name and exits 130.
func RunWithSignals(name string, stderr io.Writer, run func(context.Context, *Cleanup) int) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	c := NewCleanup()
	done := make(chan int, 1)
	go func() { done <- run(ctx, c) }()
	select {
	case code := <-done:
		return code
	case s := <-sigs:
		cancel()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
		n := c.Remove()
		fmt.Fprintf(stderr, "%s: interrupted by %v; removed %d temporary files\n", name, s, n)
		return ExitInterrupted
	}
}

// Cleanup knows where a command's temporaries appear: beside its outputs
// (".NAME.tmp-*", ".tmp-NAME-*", ".NAME.*") and in its scratch directories.
// Only entries changed since the run began go. A nil Cleanup registers
// nothing.
type Cleanup struct {
	mu       sync.Mutex
	start    time.Time
	patterns []string
}

// NewCleanup starts a Cleanup for a run beginning now.
func NewCleanup() *Cleanup { return &Cleanup{start: time.Now().Add(-time.Second)} }

// WillWrite registers output files whose temporaries an interrupt removes.
func (c *Cleanup) WillWrite(paths ...string) {
	for _, p := range paths {
		dir, base := filepath.Dir(p), filepath.Base(p)
		c.WillRemove(filepath.Join(dir, "."+base+".*"), filepath.Join(dir, ".tmp-"+base+"-*"))
	}
}

// WillRemove registers glob patterns of scratch an interrupt removes (the
// enumerator's scratch directories of this process: gapset.ScratchGlob).
func (c *Cleanup) WillRemove(globs ...string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.patterns = append(c.patterns, globs...)
}

// Remove deletes the temporaries and returns how many it removed.
func (c *Cleanup) Remove() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, pat := range c.patterns {
		matches, _ := filepath.Glob(pat)
		for _, m := range matches {
			if st, err := os.Lstat(m); err == nil && !st.ModTime().Before(c.start) && os.RemoveAll(m) == nil {
				n++
			}
		}
	}
	return n
}
