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
// PID and marked as its own, so only this run's own go. Registering a
// directory also removes the temporaries there whose writer is proven gone
// (a kill -9, a crash: atomicfile.RemoveStale), a line on stderr each, and
// says in one line what it leaves in doubt there (named like a temporary
// without the proof). A nil Cleanup registers nothing.
type Cleanup struct {
	mu       sync.Mutex
	name     string
	stderr   io.Writer
	patterns []string
	swept    map[string]bool
	// the files the command's flags and arguments read and write
	// (samefile.go)
	inputs, outputs []named
}

// NewCleanup starts a Cleanup whose messages name the command name.
func NewCleanup(name string, stderr io.Writer) *Cleanup {
	return &Cleanup{name: name, stderr: stderr, swept: map[string]bool{}}
}

// WillWrite refuses, before any work, outputs that exist and are not
// regular files (CheckOutFiles; flag names them in the message), that are
// the same file as an input the command reads or as another output
// (samefile.go), and registers the files whose temporaries an interrupt
// removes.
func (c *Cleanup) WillWrite(flag string, paths ...string) error {
	return c.willWrite(flag, false, paths...)
}

// WillUpdate is WillWrite for files the command reads and rewrites in
// place by design (zdd stores a count in the file it reads).
func (c *Cleanup) WillUpdate(flag string, paths ...string) error {
	return c.willWrite(flag, true, paths...)
}

func (c *Cleanup) willWrite(flag string, update bool, paths ...string) error {
	if err := CheckOutFiles(flag, paths...); err != nil {
		return err
	}
	if c == nil {
		return nil
	}
	if err := c.writes(flag, update, paths...); err != nil {
		return err
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
	removed, doubtful := atomicfile.RemoveStale(dir)
	for _, r := range removed {
		fmt.Fprintf(c.stderr, "%s: removed %s left by process %d, which is gone\n", c.name, r.Path, r.PID)
	}
	switch d := doubtful; {
	case len(d) == 1:
		fmt.Fprintf(c.stderr, "%s: left %s in place: named like a temporary, but %s; remove it by hand if nothing uses it\n", c.name, d[0].Path, d[0].Why)
	case len(d) > 1:
		fmt.Fprintf(c.stderr, "%s: left %d entries of %s named like temporaries in place, none proven stale (%s: %s); remove them by hand if nothing uses them\n",
			c.name, len(d), dir, filepath.Base(d[0].Path), d[0].Why)
	}
}

// matches are this process's temporaries: named for it and marked by it.
func (c *Cleanup) matches() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, pat := range c.patterns {
		m, _ := filepath.Glob(pat)
		for _, p := range m {
			if atomicfile.Mine(p) {
				out = append(out, p)
			}
		}
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
