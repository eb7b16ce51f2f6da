package gapset

import (
	"sync"

	"github.com/gapset/gapset/internal/safe"
)

// expandTask is one input part of a step and which moves expand it.
type expandTask struct {
	r     run
	raise bool
}

// expander expands a step's input parts into the work buffer in
// batches, the workers each reading parts of their own (claimed
// largest first) and writing their children to a slice of the buffer.
type expander struct {
	g       *geometry
	tr      *transposer // set: children are canonicalised
	tasks   []expandTask
	next    int // the first task not yet claimed
	mu      sync.Mutex
	readers []expandReader
	bufKeys int
	left    int64 // input keys not yet expanded
}

// expandReader is a worker's place in the part it is expanding.
type expandReader struct {
	c       *cursor
	raise   bool
	live    bool     // c has keys not yet read
	pending []uint64 // read, not yet expanded
}

func newExpander(g *geometry, tr *transposer, tasks []expandTask, workers, inChunk int) *expander {
	sizes := make([]int64, len(tasks))
	x := &expander{g: g, tr: tr, readers: make([]expandReader, max(1, workers)), bufKeys: max(1, inChunk/max(1, workers))}
	for i, t := range tasks {
		sizes[i] = t.r.n
		x.left += t.r.n
	}
	for _, i := range bySize(sizes) {
		x.tasks = append(x.tasks, tasks[i])
	}
	return x
}

func (x *expander) claim() (expandTask, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.next >= len(x.tasks) {
		return expandTask{}, false
	}
	x.next++
	return x.tasks[x.next-1], true
}

// batch expands up to maxIn input keys, and no more than fit, into
// work[fill:] and returns the new fill.
func (x *expander) batch(work []uint64, fill, maxIn int) (int, error) {
	room := len(work) - fill
	w := max(1, min(len(x.readers), room/4, maxIn))
	q := min(room/(4*w), (maxIn+w-1)/w) // input keys per worker
	// With fewer workers than readers, those holding input go first: a
	// batch always makes progress.
	who := make([]int, 0, len(x.readers))
	for i := range x.readers {
		if rd := &x.readers[i]; rd.live || len(rd.pending) > 0 {
			who = append(who, i)
		}
	}
	for i := range x.readers {
		if rd := &x.readers[i]; !rd.live && len(rd.pending) == 0 {
			who = append(who, i)
		}
	}
	got := make([]int, w)
	used := make([]int64, w)
	errs := make([]error, w)
	var g safe.Group
	for i := 0; i < w; i++ {
		g.Go(func() {
			out := work[fill+4*q*i : fill+4*q*(i+1)]
			got[i], used[i], errs[i] = x.expand(&x.readers[who[i]], out, q)
		})
	}
	g.Wait()
	n := fill + got[0]
	for i := 0; i < w; i++ {
		x.left -= used[i]
		if errs[i] != nil {
			return fill, errs[i]
		}
		if i > 0 {
			lo := fill + 4*q*i
			n += copy(work[n:], work[lo:lo+got[i]])
		}
	}
	return n, nil
}

// expand writes the children of up to q input keys into out (room for 4
// each) and returns how many children and input keys.
func (x *expander) expand(rd *expandReader, out []uint64, q int) (int, int64, error) {
	n, budget := 0, q
	for budget > 0 {
		if len(rd.pending) == 0 && rd.live {
			rd.pending = rd.c.chunk()
			if rd.pending == nil {
				if rd.c.err != nil {
					return n, int64(q - budget), rd.c.err
				}
				rd.live = false
			}
		}
		if len(rd.pending) == 0 {
			t, ok := x.claim()
			if !ok {
				break
			}
			var err error
			if rd.c == nil {
				rd.c, err = openCursor(t.r, x.bufKeys)
			} else {
				err = rd.c.reopen(t.r)
			}
			if err != nil {
				return n, int64(q - budget), err
			}
			rd.raise, rd.live = t.raise, true
			continue
		}
		take := rd.pending[:min(len(rd.pending), budget)]
		n0 := n
		if rd.raise {
			n += x.g.expandRaise(take, out[n:])
		} else {
			n += x.g.expandLower(take, out[n:])
		}
		if x.tr != nil {
			x.tr.canonAll(out[n0:n])
		}
		rd.pending = rd.pending[len(take):]
		budget -= len(take)
	}
	return n, int64(q - budget), nil
}

func (x *expander) close() {
	for i := range x.readers {
		if c := x.readers[i].c; c != nil {
			c.close()
			x.readers[i].c = nil
		}
	}
}
