// Package bench runs heuristics over instance sets and reports the work they
// took: per-instance records (CSV, JSON Lines), a Markdown summary beside the
// paper's Table 2, and a PNG chart of nodes per instance.
package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/safe"
	"github.com/gapset/gapset/internal/sysprobe"
)

// Record is one solve of one instance with one heuristic.
type Record struct {
	ID        string  `json:"id"`
	Board     string  `json:"board"`
	Heuristic string  `json:"heuristic"`
	Length    int     `json:"length"`
	RootBound int     `json:"root_bound"`
	Nodes     int64   `json:"nodes"` // expanded
	Generated int64   `json:"generated"`
	Seconds   float64 `json:"seconds"`     // wall clock
	CPU       float64 `json:"cpu_seconds"` // CPU time of the search's thread (0: unknown)
	Queries   int64   `json:"queries"`     // set-membership queries made
	Skipped   int64   `json:"skipped"`     // nodes whose query was skipped
	// LastIteration is the nodes expanded by the last iteration alone (the
	// one that finds the solution and stops at it).
	LastIteration int64            `json:"last_iteration_nodes,omitempty"`
	Solutions     int64            `json:"solutions,omitempty"` // optimal solutions found (all with AllSolutions)
	Counters      map[string]int64 `json:"counters,omitempty"`  // the heuristic's own
	Error         string           `json:"error,omitempty"`
}

// Options tune a run.
type Options struct {
	Jobs     int   // parallel searches; <= 0 uses every core
	MaxNodes int64 // per solve; 0 = no limit (a solve over it is recorded with Error)
	// AllSolutions finishes each last iteration (ida.Options.AllSolutions).
	AllSolutions bool
	// KeepUndo generates undo moves too (ida.Options.KeepUndo).
	KeepUndo bool
	// Repeat solves each instance this many times with each heuristic
	// (rounds interleaved: every heuristic once, then again) and keeps the
	// fastest wall and CPU times: on a shared machine other work only ever
	// slows a solve down, so the minimum is the steadiest figure. 0 or 1:
	// once. The repeats must agree on nodes and length.
	Repeat int
	// Progress, when set, is called (from one goroutine at a time) after
	// each finished solve.
	Progress func(done, total int, r Record)
}

// Run solves every instance with every heuristic. Records come back in
// instance order, heuristics in the order given. Each solution has been
// replayed by the solver; a failure other than the node limit or
// cancellation stops the run.
func Run(ctx context.Context, insts []encode.Instance, hs []ida.Heuristic, opt Options) ([]Record, error) {
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	reps := max(opt.Repeat, 1)
	total := len(insts) * len(hs)
	recs := make([]Record, total)
	seen := make([]int, total) // repeats finished per record
	work := make(chan int)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		done     int
		firstErr error
	)
	// record keeps a search's result (unlocking even when Progress panics:
	// the other workers go on to their end)
	record := func(i int, r Record, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err == nil && seen[i] > 0 {
			r, err = fastest(recs[i], r)
		}
		recs[i] = r
		seen[i]++
		if err != nil && firstErr == nil {
			firstErr = err
			cancel()
		}
		if seen[i] == reps {
			done++
			if opt.Progress != nil && err == nil {
				opt.Progress(done, total, r)
			}
		}
	}
	wg := safe.Group{OnPanic: cancel} // the feeder stops: it would wait for workers that died
	for w := 0; w < jobs; w++ {
		wg.Go(func() {
			// one OS thread per worker, so its CPU clock times one search
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for j := range work {
				// j runs instance by instance, round by round, heuristic by heuristic
				i := j/(len(hs)*reps)*len(hs) + j%len(hs)
				in, h := insts[i/len(hs)], hs[i%len(hs)]
				r, err := solveOne(in, h, ida.Options{Context: ctx, MaxNodes: opt.MaxNodes, AllSolutions: opt.AllSolutions, KeepUndo: opt.KeepUndo})
				record(i, r, err)
			}
		})
	}
feed:
	for j := 0; j < total*reps; j++ {
		select {
		case work <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return recs, nil
}

func solveOne(in encode.Instance, h ida.Heuristic, opt ida.Options) (Record, error) {
	r := Record{ID: in.ID, Board: in.Board.String(), Heuristic: h.Name()}
	start := time.Now()
	cpu0, okCPU := sysprobe.ThreadCPU()
	res, err := ida.Solve(in.Board, h, opt)
	elapsed := time.Since(start)
	if cpu1, ok := sysprobe.ThreadCPU(); ok && okCPU {
		r.CPU = (cpu1 - cpu0).Seconds()
	}
	r.Length, r.RootBound, r.Generated = res.Length, res.RootBound, res.Generated
	r.Nodes, r.Seconds = res.Expanded, res.Elapsed.Seconds()
	r.Queries, r.Skipped = res.Counters["queries"], res.Counters["skipped"]
	r.Counters, r.Solutions = res.Counters, res.Solutions
	if n := len(res.Iterations); n > 0 {
		r.LastIteration = res.Iterations[n-1].Expanded
	}
	if err != nil {
		if errors.Is(err, ida.ErrNodeLimit) {
			r.Error = err.Error()
			r.Length = -1
			r.Seconds = elapsed.Seconds()
			for _, it := range res.Iterations {
				r.Nodes += it.Expanded
				r.Generated += it.Generated
			}
			return r, nil
		}
		return r, fmt.Errorf("instance %s with %s: %w", in.ID, h.Name(), err)
	}
	return r, nil
}

// fastest merges two solves of the same instance with the same heuristic:
// the smaller wall and CPU times (each from its own solve). Any other
// difference is an error: the searches are deterministic.
func fastest(a, b Record) (Record, error) {
	if a.Nodes != b.Nodes || a.Length != b.Length || a.Error != b.Error {
		return a, fmt.Errorf("instance %s with %s: repeated solves differ (%d and %d nodes, lengths %d and %d)",
			a.ID, a.Heuristic, a.Nodes, b.Nodes, a.Length, b.Length)
	}
	a.Seconds = min(a.Seconds, b.Seconds)
	if b.CPU > 0 && (a.CPU == 0 || b.CPU < a.CPU) {
		a.CPU = b.CPU
	}
	return a, nil
}
