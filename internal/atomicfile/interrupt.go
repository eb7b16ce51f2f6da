package atomicfile

import (
	"context"
	"sync"
)

// Interruptible returns a context derived from parent and the stop that
// cancels it. A commit under the context (File.CommitContext,
// WriteFileContext) and stop exclude each other: the commit's temporary
// takes its name before stop returns or never, so once stop has returned
// no output written under the context appears. That is what lets an
// interrupted command promise that it renamed nothing after the interrupt,
// and one that finished that every output is in place.
func Interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	g := &gate{}
	return context.WithValue(ctx, gateKey{}, g), func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.stopped = true
		cancel()
	}
}

// gate is the lock an Interruptible context's commits and its stop share.
type gate struct {
	mu      sync.Mutex
	stopped bool
}

type gateKey struct{}

// commitUnder runs rename (a temporary taking its target's name) unless
// ctx is done, under ctx's gate if it has one.
func commitUnder(ctx context.Context, rename func() error) error {
	if g, _ := ctx.Value(gateKey{}).(*gate); g != nil {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.stopped { // ctx is cancelled too, even one derived by a goroutine
			return context.Canceled
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return rename()
}
