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

	"github.com/gapset/gapset/internal/atomicfile"
)

// RunWithSignals runs run under the one interrupt handler of every command.
// SIGINT or SIGTERM stops run's context (atomicfile.Interruptible: no
// output written under it takes its name from then on) and gives run a
// moment to end. A run that ends with status 0 finished before the
// interrupt took hold, its outputs all in place: its status stands.
// Otherwise the temporaries and scratch registered with the Cleanup go, one
// line names name and how many it removed, and the status is 130.
func RunWithSignals(name string, stderr io.Writer, run func(context.Context, *Cleanup) int) int {
	return runWithSignals(name, stderr, 2*time.Second, run)
}

// runWithSignals is RunWithSignals waiting grace for run to end.
func runWithSignals(name string, stderr io.Writer, grace time.Duration, run func(context.Context, *Cleanup) int) int {
	ctx, stop := atomicfile.Interruptible(context.Background())
	defer stop()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	c := NewCleanup(name, stderr)
	done := make(chan int, 1)
	go func() { done <- run(ctx, c) }()
	select {
	case code := <-done:
		return code
	case s := <-sigs:
		// What exists now counts as removed once it is gone, whether the
		// run's own cleanup or Remove took it.
		before := c.matches()
		stop()
		select {
		case code := <-done:
			if code == 0 {
				return 0
			}
		case <-time.After(grace):
		}
		c.Remove()
		n := 0
		for _, p := range before {
			if _, err := os.Lstat(p); err != nil {
				n++
			}
		}
		fmt.Fprintf(stderr, "%s: interrupted by %v; removed %d temporary files and scratch directories\n", name, s, n)
		return ExitInterrupted
	}
}

// Cleanup knows where a command's temporaries appear: beside its outputs
// and in its scratch directories, named by atomicfile with this process's
// PID, so only this run's own go. Registering a directory also removes the
// temporaries there whose writer is gone (a kill -9, a crash), saying so on
// stderr. A nil Cleanup registers nothing.
type Cleanup struct {
	mu       sync.Mutex
	name     string
	stderr   io.Writer
	patterns []string
	swept    map[string]bool
}

// NewCleanup starts a Cleanup whose messages name the command name.
func NewCleanup(name string, stderr io.Writer) *Cleanup {
	return &Cleanup{name: name, stderr: stderr, swept: map[string]bool{}}
}

// WillWrite refuses, before any work, outputs that exist and are not
// regular files (CheckOutFiles; flag names them in the message), and
// registers the files whose temporaries an interrupt removes.
func (c *Cleanup) WillWrite(flag string, paths ...string) error {
	if err := CheckOutFiles(flag, paths...); err != nil {
		return err
	}
	if c == nil {
		return nil
	}
	for _, p := range paths {
		c.sweep(filepath.Dir(p))
		c.add(atomicfile.Glob(p))
	}
	return nil
}

// WillScratch registers this process's scratch directories called name in
// dir (made by atomicfile.MkdirTemp).
func (c *Cleanup) WillScratch(dir, name string) {
	if c == nil {
		return
	}
	c.sweep(dir)
	c.add(atomicfile.DirGlob(dir, name))
}

func (c *Cleanup) add(glob string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.patterns = append(c.patterns, glob)
}

// sweep removes the stale temporaries in dir, once per run.
func (c *Cleanup) sweep(dir string) {
	c.mu.Lock()
	done := c.swept[dir]
	c.swept[dir] = true
	c.mu.Unlock()
	if done {
		return
	}
	atomicfile.RemoveStale(dir, func(path string, pid int) {
		fmt.Fprintf(c.stderr, "%s: removed %s left by process %d, which is gone\n", c.name, path, pid)
	})
}

func (c *Cleanup) matches() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, pat := range c.patterns {
		m, _ := filepath.Glob(pat)
		out = append(out, m...)
	}
	return out
}

// Remove deletes this run's temporaries and returns how many it removed.
func (c *Cleanup) Remove() int {
	n := 0
	for _, m := range c.matches() {
		if os.RemoveAll(m) == nil {
			n++
		}
	}
	return n
}
