package gapset

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/hugemem"
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
	return rankedBytes(n, k), 2
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

func rankedBytes(n, k int) int64 {
	p := int64(1)
	for i := 0; i < k; i++ {
		p *= int64(n - i)
	}
	return (p + 63) / 64 * 8
}

// newRankedBits returns an empty set of patterns of the last k of n cells
// indexed by rank (see ranker).
func newRankedBits(n, k int) *Bits {
	b := &Bits{words: make([]uint64, rankedBytes(n, k)/8), cells: k, rk: newRanker(n, k)}
	hugemem.Words(b.words)
	return b
}

// ranker numbers the patterns of the last k of n cells (k distinct values
// below n <= 16) densely in 0..n!/(n-k)!-1, as memset.Ranked does: digit i
// (the key's nibble k-1-i, the most significant first) is the value
// counted among the values not on the nibbles before it, in radix n-i. The
// rank grows with the key, so a ranked table lists its keys in increasing
// order.
type ranker struct {
	n, k int
	// recip[i] is 2^64/(n-i) rounded up: the high word of x*recip[i] is
	// x/(n-i) for every x below 2^64/(n-i) (ranks are below 16! < 2^45),
	// a multiplication instead of a division.
	recip [16]uint64
	// sel[b][d] is the position of the d-th set bit of byte b.
	sel [256][8]uint8
}

func newRanker(n, k int) *ranker {
	r := &ranker{n: n, k: k}
	for i := 0; i < k; i++ {
		r.recip[i] = (1<<64-1)/uint64(n-i) + 1 // 0 for radix 1: see div
	}
	for b := range 256 {
		d := 0
		for x := 0; x < 8; x++ {
			if b&(1<<x) != 0 {
				r.sel[b][d] = uint8(x)
				d++
			}
		}
	}
	return r
}

// div is x/(n-i).
func (r *ranker) div(x uint64, i int) uint64 {
	if r.recip[i] == 0 {
		return x
	}
	hi, _ := bits.Mul64(x, r.recip[i])
	return hi
}

// selectFree is the d-th (from 0) value not in used.
func (r *ranker) selectFree(used uint32, d uint64) int {
	free := ^used & 0xffff
	lo := free & 0xff
	if c := uint64(bits.OnesCount32(lo)); d >= c {
		return 8 + int(r.sel[free>>8][d-c])
	}
	return int(r.sel[lo][d])
}

// rank is the pattern's rank; key holds only the pattern's 4k bits.
func (r *ranker) rank(key uint64) uint64 {
	var used uint32
	x := uint64(0)
	for i := 0; i < r.k; i++ {
		v := uint(key>>(4*uint(r.k-1-i))) & 15
		x = x*uint64(r.n-i) + uint64(v) - uint64(bits.OnesCount32(used&(1<<v-1)))
		used |= 1 << v
	}
	return x
}

// prefix holds the rank of a parent pattern digit by digit, so that a
// successor, which differs from it in one or two cells, is ranked from its
// first changed digit on: the incremental rank of the search.
type prefix struct {
	r    *ranker
	key  uint64
	x    [17]uint64 // x[i]: the rank of digits 0..i-1
	used [17]uint32 // the values on them
	ok   bool       // x, used and key are set
}

// set makes key the parent.
func (p *prefix) set(key uint64) {
	p.key = key
	r := p.r
	for i := 0; i < r.k; i++ {
		v := uint(key>>(4*uint(r.k-1-i))) & 15
		p.x[i+1] = p.x[i]*uint64(r.n-i) + uint64(v) - uint64(bits.OnesCount32(p.used[i]&(1<<v-1)))
		p.used[i+1] = p.used[i] | 1<<v
	}
	p.ok = true
}

// setRank makes the pattern of rank x the parent (unranking it): the
// prefixes' ranks are x's leading digits. The digits it shares with the
// parent before (the search takes ranks in increasing order, so usually
// all but the last few) are kept.
func (p *prefix) setRank(x uint64) {
	r := p.r
	i := r.k
	p.x[i] = x
	for ; i > 0; i-- {
		q := r.div(p.x[i], i-1)
		if p.ok && q == p.x[i-1] {
			break // digits 0..i-2 are the parent's
		}
		p.x[i-1] = q
	}
	start := max(i-1, 0)
	key := uint64(0)
	if start > 0 {
		key = p.key >> (4 * uint(r.k-start))
	}
	for i := start; i < r.k; i++ {
		v := r.selectFree(p.used[i], p.x[i+1]-p.x[i]*uint64(r.n-i))
		p.used[i+1] = p.used[i] | 1<<v
		key = key<<4 | uint64(v)
	}
	p.key, p.ok = key, true
}

// rank ranks q (a pattern) from the first digit where it differs from the
// parent.
func (p *prefix) rank(q uint64) uint64 {
	r := p.r
	d := p.key ^ q
	if d == 0 {
		return p.x[r.k]
	}
	i := r.k - 1 - (63-bits.LeadingZeros64(d))/4
	x, used := p.x[i], p.used[i]
	for ; i < r.k; i++ {
		v := uint(q>>(4*uint(r.k-1-i))) & 15
		x = x*uint64(r.n-i) + uint64(v) - uint64(bits.OnesCount32(used&(1<<v-1)))
		used |= 1 << v
	}
	return x
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
		goal := rk.rank(g.goal & encode.ProjectMask(k))
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
		h := ApproxHeader(rows, cols, k, j, len(exact))
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
		p := prefix{r: seen.rk}
		visit := func(q uint64, cost int) {
			x := p.rank(q)
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
				p.setRank(uint64(i<<6 | bits.TrailingZeros64(w)))
				a.successors(p.key, visit)
			}
		}
		return n
	})
	return n, took.Load()
}
