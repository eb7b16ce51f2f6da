// Package safe carries a panic from the goroutine it happened in to the
// goroutine waiting for it, so that one handler, the command's
// (cmdline.Run), reports every panic of the process: one line and exit
// status 1, where Go's own ending would be a stack dump and status 2, the
// status the command reserves for bad input.
//
// Go has no process-wide panic hook: a deferred recover catches only the
// panics of its own goroutine, and an unrecovered panic in any goroutine
// ends the process at once. So every goroutine of the module is started by
// Group.Go (a test fails on a go statement anywhere else): Go recovers a
// panic in the goroutine and keeps the first, with the stack where it
// happened; Wait raises it again in the waiting goroutine as a *Panic.
// Through nested groups it climbs the same way to the command's goroutine.
package safe

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// Panic is a panic recovered in a goroutine: its value and the stack of
// the goroutine where it happened.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) String() string { return fmt.Sprint(p.Value) }

// Recovered wraps a value returned by recover, in the deferred function
// that recovered it (the panicking frames are still on the stack then); a
// *Panic raised again by Wait keeps the stack of its origin.
func Recovered(v any) *Panic {
	if p, ok := v.(*Panic); ok {
		return p
	}
	return &Panic{Value: v, Stack: debug.Stack()}
}

// Group runs goroutines and waits for them, as sync.WaitGroup does, and
// passes the first panic among them to the goroutine that calls Wait. The
// zero value is ready to use; a Group must not be copied after first use.
type Group struct {
	// OnPanic, if set, runs once, in the first goroutine to panic: a pool
	// whose feeder would block on the goroutines that died stops it here
	// (by cancelling its context).
	OnPanic func()

	wg    sync.WaitGroup
	once  sync.Once
	first *Panic
}

// Go runs f in a new goroutine; a panic in f ends that goroutine only and
// is kept for Wait.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer func() {
			if v := recover(); v != nil {
				p := Recovered(v)
				g.once.Do(func() {
					g.first = p
					if g.OnPanic != nil {
						g.OnPanic()
					}
				})
			}
		}()
		f()
	}()
}

// Wait waits for every goroutine started by Go, then panics with the first
// of their panics (a *Panic), if any.
func (g *Group) Wait() {
	g.wg.Wait()
	if g.first != nil {
		panic(g.first)
	}
}

// Pending is a function's result still being computed on another
// goroutine: a check that runs beside work whose outcome must not be
// reported before it passes.
type Pending struct {
	g    Group
	done chan struct{}
	err  error
}

// Start runs f in a new goroutine (through a Group: its panic reaches Wait).
func Start(f func() error) *Pending {
	p := &Pending{done: make(chan struct{})}
	p.g.Go(func() {
		defer close(p.done)
		p.err = f()
	})
	return p
}

// Done tells, without waiting, whether f has returned (or panicked).
func (p *Pending) Done() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Wait waits for f and returns its error, or raises its panic.
func (p *Pending) Wait() error {
	p.g.Wait()
	return p.err
}
