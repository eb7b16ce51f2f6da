package gapset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gapset/gapset/internal/safe"
	"github.com/gapset/gapset/internal/statedir"
)

// A layer (and a projection run) is stored split by key range: with
// keys of width w bits and b prefix bits, part p holds the keys whose
// top b bits are p (key >> (w - b) == p), as a run of its own. Parts
// are independent: they are sorted, de-duplicated, subtracted, written,
// merged and read on as many goroutines as there are workers, and their
// concatenation in part order is the whole sorted run. A reverse move
// changes two cells, so most of a parent's children stay in its part.
// docs/enumeration-layout.md describes the files.

// DefaultPrefixBits parts boards by their first cell (16 parts):
// enough independent work for the cores of one machine, and a sixteenth of
// the files 8 bits make, each of which costs a create (4x4 gap <= 2,
// paired: 118.2 s wall with 4 bits, 119.1 s with 8, 2,820 against
// 2,982 MiB of peak disk; docs/enumeration-layout.md). A cluster wants
// more.
const DefaultPrefixBits = 4

// maxPrefixBits bounds the parts of one run (256 files).
const maxPrefixBits = 8

// projectionPrefixBits splits the projection runs more coarsely than
// the layers: there are two or three of them per layer, each file costs a
// create, and the parts only have to balance the workers of their
// merges.
const projectionPrefixBits = 4

// parts is a split run: runs[p] is part p (path "" when empty;
// runs is nil for an empty run of no parts at all).
type parts struct {
	runs []run
	n    int64
	self int64 // of a new canonical layer: its self-transposed keys
}

// partBits is the number of part bits for keys of width bits.
func partBits(prefixBits, width int) int { return min(prefixBits, width) }

// partBounds returns the part boundaries of sorted a, whose keys have
// width bits: part p is a[b[p]:b[p+1]].
func partBounds(a []uint64, width, bits int) []int {
	np := 1 << bits
	b := make([]int, np+1)
	shift := uint(width - bits)
	for p := 1; p < np; p++ {
		lo, rest := uint64(p)<<shift, a[b[p-1]:]
		b[p] = b[p-1] + sort.Search(len(rest), func(i int) bool { return rest[i] >= lo })
	}
	b[np] = len(a)
	return b
}

// partPath names part p of the split run at base.
func partPath(base string, p int) string { return statedir.Part(base, p) }

// bySize lists the indexes with a positive size, largest first (the order
// that balances a pool of workers).
func bySize(sizes []int64) []int {
	var order []int
	for i, s := range sizes {
		if s > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(x, y int) int {
		switch {
		case sizes[x] > sizes[y]:
			return -1
		case sizes[x] < sizes[y]:
			return 1
		}
		return 0
	})
	return order
}

// each runs fn(i) for the indexes in order on up to e.workers goroutines
// (in that order of start) and returns the first error; after an error or
// a cancellation no new index starts.
func (e *streamer) each(order []int, fn func(i int) error) error {
	w := min(e.workers, len(order))
	if w <= 1 {
		for _, i := range order {
			if err := e.ctx.Err(); err != nil {
				return err
			}
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	var next atomic.Int64
	var mu sync.Mutex
	var first error
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return first != nil
	}
	var g safe.Group
	for x := 0; x < w; x++ {
		g.Go(func() {
			for !failed() {
				i := int(next.Add(1)) - 1
				if i >= len(order) {
					return
				}
				if err := e.ctx.Err(); err != nil {
					fail(err)
					return
				}
				if err := fn(order[i]); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	g.Wait()
	return first
}

// coding is how the runs of keys of the given width are stored: raw or
// delta-coded, and whole boards as rank codes when asked.
func (e *streamer) coding(width int) coding {
	if e.cfg.RawRuns {
		return coding{}
	}
	if e.cfg.RankRuns && width == 4*e.g.N {
		return coding{delta: true, cells: e.g.N}
	}
	return coding{delta: true}
}

// partsBase is the path a new split run's files start with: in the
// checkpoint directory for state (layers, projections), else in scratch.
func (e *streamer) partsBase(tag string) string {
	e.seq++
	name := fmt.Sprintf("%06d-%s", e.seq, tag)
	if e.state != "" && statedir.IsState(tag) {
		return filepath.Join(e.state, name)
	}
	return filepath.Join(e.tmp, name)
}

// listFresh lists a new split run's files in the checkpoint for
// syncing (each was counted on the disk when it was closed).
func (e *streamer) listFresh(ps parts) parts {
	for _, r := range ps.runs {
		if r.path == "" {
			continue
		}
		if e.state != "" && filepath.Dir(r.path) == e.state {
			e.fresh = append(e.fresh, r.path)
		}
	}
	return ps
}

func (e *streamer) dropParts(ps parts) {
	for _, r := range ps.runs {
		e.drop(r)
	}
}

// writeParts writes sorted a, split by bounds (partBounds), as the
// split run at base: each part de-duplicated, passed through
// keep (when set; it may drop keys) and written, in parallel. It returns
// the run and a's length once the parts kept are moved together
// (a[:n] is then the run's keys in order).
func (e *streamer) writeParts(a []uint64, bounds []int, base string, c coding, keep func(p int, seg []uint64) ([]uint64, error)) (parts, int, error) {
	np := len(bounds) - 1
	runs := make([]run, np)
	lens := make([]int, np)
	sizes := make([]int64, np)
	for p := range sizes {
		sizes[p] = int64(bounds[p+1] - bounds[p])
	}
	err := e.each(bySize(sizes), func(p int) error {
		seg := dedup(a[bounds[p]:bounds[p+1]])
		if keep != nil {
			var err error
			if seg, err = keep(p, seg); err != nil {
				return err
			}
		}
		lens[p] = len(seg)
		if len(seg) == 0 {
			return nil
		}
		r, err := writeRun(partPath(base, p), seg, c)
		if err != nil {
			return err
		}
		runs[p] = e.track(r)
		return nil
	})
	ps := parts{runs: runs}
	n := 0
	for p := range runs {
		ps.n += runs[p].n
		n += copy(a[n:], a[bounds[p]:bounds[p]+lens[p]])
	}
	return e.listFresh(ps), n, err
}

// mergeParts merges split runs part by part (in parallel)
// into the split run at base, passing each sorted batch through keep
// (when set) on its way. newKeep makes part p's keep.
func (e *streamer) mergeParts(in [][]run, base string, c coding, bufKeys int, newKeep func(p int) (func([]uint64) ([]uint64, error), func(), error)) (parts, error) {
	np := len(in)
	runs := make([]run, np)
	sizes := make([]int64, np)
	for p, rs := range in {
		for _, r := range rs {
			sizes[p] += r.n
		}
	}
	err := e.each(bySize(sizes), func(p int) error {
		var keep func([]uint64) ([]uint64, error)
		if newKeep != nil {
			k, done, err := newKeep(p)
			if err != nil {
				return err
			}
			defer done()
			keep = k
		}
		var w *runWriter
		err := mergeRuns(in[p], bufKeys, func(b []uint64) error {
			if keep != nil {
				var err error
				if b, err = keep(b); err != nil {
					return err
				}
			}
			if len(b) == 0 {
				return nil
			}
			if w == nil {
				var err error
				if w, err = createRun(partPath(base, p), c, sizes[p]); err != nil {
					return err
				}
			}
			return w.write(b)
		})
		if w == nil {
			return err
		}
		r, cerr := w.close()
		if err = errors.Join(err, cerr); err != nil {
			os.Remove(w.path)
			return err
		}
		runs[p] = e.track(r)
		return nil
	})
	ps := parts{runs: runs}
	for _, r := range runs {
		ps.n += r.n
	}
	return e.listFresh(ps), err
}

// partsOf gathers part p of every split run in list.
func partsOf(list []parts) [][]run {
	np := 0
	for _, ps := range list {
		np = max(np, len(ps.runs))
	}
	out := make([][]run, np)
	for _, ps := range list {
		for p, r := range ps.runs {
			if r.n > 0 {
				out[p] = append(out[p], r)
			}
		}
	}
	return out
}

// readInto reads the whole run r into dst (len(dst) == r.n).
func readInto(r run, dst []uint64, bufKeys int) error {
	n := 0
	err := forEachChunk(r, bufKeys, func(keys []uint64) error {
		if n+len(keys) > len(dst) {
			return fmt.Errorf("reading %s: more keys than its %d", r.path, r.n)
		}
		n += copy(dst[n:], keys)
		return nil
	})
	if err == nil && n != len(dst) {
		err = fmt.Errorf("reading %s: %d keys, not %d", r.path, n, len(dst))
	}
	return err
}
