package gapset

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/safe"
)

// MaxApproxBytes bounds the tables of an approximation's own search (the
// exact seeds come on top, one table each): 16 GiB. On the 4x4 board 10
// cells take two ranked tables of 3.6 GB; 11 cells would take two of 22 GB.
const MaxApproxBytes = 16 << 30

// ApproxMemory is the memory of an approximation on the last k of n cells:
// the bytes of one table (16^k bits up to MaxApproxCells cells, else one bit
// per placement rank, n!/(n-k)! bits) and the number of tables the search
// holds besides the exact seeds. The 16^k path keeps three (seen, next,
// deferred) and lists of the patterns of a wave (4 bytes each), and one
// table per seed; the ranked path keeps two (seen, and a mark that is the
// frontier for seen patterns and the candidates of later levels for the
// others), no lists, and only the top seed.
func ApproxMemory(n, k int) (table int64, tables int) {
	if k <= MaxApproxCells {
		return flatBytes(k), 3
	}
	return placement.Bytes(n, k), 2
}

// CheckApproxMemory refuses an approximation whose search tables exceed
// MaxApproxBytes (the error names the size; Approximate wraps it in
// ErrArgs).
func CheckApproxMemory(n, k int) error {
	table, tables := ApproxMemory(n, k)
	if total := table * int64(tables); total > MaxApproxBytes {
		return fmt.Errorf("an approximation on %d of %d cells holds %d tables of %.1f GiB (%.1f GiB), more than the %d GiB limit",
			k, n, tables, gib(table), gib(total), MaxApproxBytes>>30)
	}
	return nil
}

// ApproxMemoryString says in one line what an approximation on the last k
// of n cells seeded with nExact exact levels holds.
func ApproxMemoryString(n, k, nExact int) string {
	table, tables := ApproxMemory(n, k)
	kind, lists, held := "16^k", " and the lists of a wave's patterns (4 bytes each)", nExact
	if k > MaxApproxCells {
		kind, lists, held = "placement-rank", "", min(nExact, 1)
		if nExact > 1 {
			lists = fmt.Sprintf(" (only the top one of the %d exact levels is loaded)", nExact)
		}
	}
	return fmt.Sprintf("%d search tables and %d exact tables (%s bits) of %s each: %s%s",
		tables, held, kind, size(table), size(table*int64(tables+held)), lists)
}

// size is a table's size for a person: GiB, or MiB below one GiB.
func size(b int64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", gib(b))
}

func gib(b int64) float64 { return float64(b) / (1 << 30) }

func flatBytes(k int) int64 { return (int64(1)<<(4*uint(k)) + 63) / 64 * 8 }

// newRankedBits returns an empty set of patterns of the last k of n cells
// indexed by placement rank (placement.RankKey: it grows with the key, so
// a ranked table lists its keys in increasing order).
func newRankedBits(n, k int) *Bits {
	b := &Bits{words: make([]uint64, placement.Bytes(n, k)/8), cells: k, rk: placement.NewRanker(n, k)}
	hugemem.Words(b.words)
	return b
}

// chunkWords is the span of one dirty flag of the ranked search: 64K
// patterns.
const chunkWords = 1 << 10

// approximateRanked is Approximate on ranked tables. A pattern is in one of
// four states, held in two tables: seen or not, and mark, which for a seen
// pattern means "not expanded yet" and for another "a candidate of a later
// level" (a cost-1 successor, or one deferred by its lower bound). A level
// promotes the candidates its lower bound allows, then sweeps the tables
// for seen and marked patterns until none is left; dirty flags (one per
// chunkWords words) let a sweep skip the chunks where nothing was marked.
// Patterns are expanded in another order than by the 16^k path, but each
// level is the same closure, so the sets are identical.
func approximateRanked(ctx context.Context, a *abstract, rows, cols, maxLevel int, exact []*Bits, level func(ApproxLevel) error, progress func(int, int64)) error {
	g, k := a.g, a.k
	seen, mark := newRankedBits(g.N, k), newRankedBits(g.N, k)
	rk := seen.rk
	s := &sweeper{a: a, seen: seen, mark: mark, dirty: make([]atomic.Bool, (len(seen.words)+chunkWords-1)/chunkWords)}
	start := time.Now()
	first, added := 0, int64(1)
	if top := len(exact) - 1; top >= 0 {
		// The search's own level top would be the seed itself (the levels
		// below len(exact) come out exact), every seed pattern expanded
		// and every successor outside it a candidate of level top+1
		// (cost 1, or cost 0 deferred by its lower bound). So start there:
		// mark the whole seed for expansion at level top, when an unseen
		// pattern's lower bound is top+1 whatever the lower seeds say.
		// Every later level is the same closure, so the sets are
		// identical, and the lower seeds are never asked.
		first, added = top, a.exact[top].count
		copy(seen.words, a.exact[top].words)
		copy(mark.words, seen.words)
		for i := range s.dirty {
			s.dirty[i].Store(true)
		}
		a.exact = make([]*Bits, len(exact)) // lowerBound: len(exact) for every unseen pattern
	} else {
		goal := rk.Rank(a.goal())
		seen.set(goal)
		mark.set(goal)
		s.dirty[goal>>6/chunkWords].Store(true)
	}
	workers := defaultWorkers()
	for j := first; j <= maxLevel; j++ {
		a.level = j
		if j > first {
			added = s.promote(ctx, workers)
		}
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			n, took := s.sweep(ctx, j < maxLevel, workers)
			added += n
			if err := ctx.Err(); err != nil {
				return err // the sweep stopped early
			}
			progress(j, seen.count+added)
			if !took {
				break
			}
		}
		seen.count += added
		h := ApproxHeaderCells(rows, cols, a.set, j, len(exact))
		if err := level(ApproxLevel{Level: j, Header: h, Set: seen, New: added, Elapsed: time.Since(start)}); err != nil {
			return err
		}
	}
	return nil
}

type sweeper struct {
	a          *abstract
	seen, mark *Bits
	dirty      []atomic.Bool
}

// chunks runs fn on every chunk of the tables, the chunks shared out among
// the workers, and returns the sum of fn's counts; it stops early when ctx
// is done (a 10-cell sweep can take minutes).
func (s *sweeper) chunks(ctx context.Context, workers int, fn func(c int) int64) int64 {
	var next atomic.Int64
	var total atomic.Int64
	var wg safe.Group
	for range workers {
		wg.Go(func() {
			var n int64
			for c := int(next.Add(1) - 1); c < len(s.dirty) && ctx.Err() == nil; c = int(next.Add(1) - 1) {
				n += fn(c)
			}
			total.Add(n)
		})
	}
	wg.Wait()
	return total.Load()
}

// promote starts a level: the candidates not seen whose lower bound allows
// the level become seen and stay marked (to expand); the others stay
// candidates. It returns how many were promoted.
func (s *sweeper) promote(ctx context.Context, workers int) int64 {
	return s.chunks(ctx, workers, func(c int) int64 {
		var n int64
		lo, hi := c*chunkWords, min((c+1)*chunkWords, len(s.seen.words))
		for i := lo; i < hi; i++ {
			for w := s.mark.words[i] &^ s.seen.words[i]; w != 0; w &= w - 1 {
				b := bits.TrailingZeros64(w)
				if s.a.lowerBound(uint64(i<<6|b)) <= s.a.level {
					s.seen.words[i] |= 1 << b
					n++
				}
			}
		}
		if n > 0 {
			s.dirty[c].Store(true)
		}
		return n
	})
}

// sweep expands the seen and marked patterns of the dirty chunks, and
// reports how many patterns it made seen and whether it expanded any.
func (s *sweeper) sweep(ctx context.Context, keep bool, workers int) (int64, bool) {
	var took atomic.Bool
	a, seen, mark := s.a, s.seen, s.mark
	n := s.chunks(ctx, workers, func(c int) int64 {
		if !s.dirty[c].Swap(false) {
			return 0
		}
		var n int64
		p := placement.NewPrefix(seen.rk)
		visit := func(q uint64, cost int) {
			x := p.Rank(q)
			if seen.hasIndex(x) {
				return
			}
			if cost != 0 {
				if keep {
					mark.set(x)
				}
				return
			}
			if a.exact != nil && a.lowerBound(x) > a.level {
				mark.set(x) // deferred to the level its lower bound allows
				return
			}
			if seen.set(x) {
				mark.set(x)
				if d := &s.dirty[x>>6/chunkWords]; !d.Load() {
					d.Store(true)
				}
				n++
			}
		}
		lo, hi := c*chunkWords, min((c+1)*chunkWords, len(seen.words))
		for i := lo; i < hi; i++ {
			w := atomic.LoadUint64(&mark.words[i]) & atomic.LoadUint64(&seen.words[i])
			if w == 0 {
				continue
			}
			atomic.AndUint64(&mark.words[i], ^w)
			took.Store(true)
			for ; w != 0; w &= w - 1 {
				p.SetRank(uint64(i<<6 | bits.TrailingZeros64(w)))
				a.successors(p.Key(), visit)
			}
		}
		return n
	})
	return n, took.Load()
}
