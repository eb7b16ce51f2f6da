package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// runWithSignals is run with the one interrupt handler of every command:
// SIGINT or SIGTERM cancels the command's context, gives it a moment to
// stop, removes the temporaries and scratch it made, prints one line and
// exits 130.
func runWithSignals(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, context: ctx, cleanup: newCleanup()}
	done := make(chan int, 1)
	go func() { done <- runEnv(e, args) }()
	select {
	case code := <-done:
		return code
	case s := <-sigs:
		cancel()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
		n := e.cleanup.remove()
		fmt.Fprintf(stderr, "gapset: interrupted by %v; removed %d temporary files\n", s, n)
		return exitInterrupted
	}
}

// cleanup knows where a command's temporaries appear: beside its outputs
// (".NAME.tmp-*", ".tmp-NAME-*", ".NAME.*") and in its scratch directories
// (".gapset-runs-PID-*"). Only entries changed since the run began go.
type cleanup struct {
	mu       sync.Mutex
	start    time.Time
	patterns []string
}

func newCleanup() *cleanup { return &cleanup{start: time.Now().Add(-time.Second)} }

// willWrite registers output files whose temporaries an interrupt removes.
func (e *env) willWrite(paths ...string) {
	if e.cleanup == nil {
		return
	}
	e.cleanup.mu.Lock()
	defer e.cleanup.mu.Unlock()
	for _, p := range paths {
		dir, base := filepath.Dir(p), filepath.Base(p)
		e.cleanup.patterns = append(e.cleanup.patterns, filepath.Join(dir, "."+base+".*"), filepath.Join(dir, ".tmp-"+base+"-*"))
	}
}

// willScratch registers a directory where this process's scratch goes.
func (e *env) willScratch(dir string) {
	if e.cleanup == nil {
		return
	}
	e.cleanup.mu.Lock()
	defer e.cleanup.mu.Unlock()
	e.cleanup.patterns = append(e.cleanup.patterns, filepath.Join(dir, fmt.Sprintf("%s%d-*", scratchPrefix, os.Getpid())))
}

// remove deletes the temporaries and returns how many it removed.
func (c *cleanup) remove() int {
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

// scratchPrefix names the enumerator's scratch directories; the writer's
// PID follows it.
const scratchPrefix = ".gapset-runs-"

// removeStaleScratch removes scratch directories in dir left by processes
// that are gone (a kill -9, a crash), and says so on stderr.
func removeStaleScratch(dir string, stderr io.Writer) {
	matches, _ := filepath.Glob(filepath.Join(dir, scratchPrefix+"*"))
	for _, m := range matches {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), scratchPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue // no PID (an older run) or a live writer: not ours to remove
		}
		if err := os.RemoveAll(m); err == nil {
			fmt.Fprintf(stderr, "gapset: removed scratch %s left by process %d, which is gone\n", m, pid)
		}
	}
}

// processAlive reports whether a process with this PID exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
