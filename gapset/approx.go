package gapset

import (
	"context"
	"fmt"
	"math/bits"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/safe"
	"github.com/gapset/gapset/keyset"
)

// MaxApproxCells bounds the sets held as one bit per 4k-bit key (16^k bits:
// 512 MiB for k = 8). Above it a set is one bit per placement rank
// (n!/(n-k)! bits: 3.6 GB for 10 of 16 cells), up to MaxApproxBytes for
// the search's tables (ApproxMemory).
const MaxApproxCells = 8

// ApproxLevel is one finished level of Approximate: Set holds every pattern
// of the last k cells whose abstract cost is at most Level, a superset of
// the projection of the configurations of gap <= 2*Level.
type ApproxLevel struct {
	Level int
	// Header names the level's set: GapG_K (exact, a level below the
	// exact ones given) or GapG_Ka (approximated), G = 2 Level.
	Header keyset.Header
	Set    *Bits
	// New is the number of patterns of abstract cost exactly Level.
	New     int64
	Elapsed time.Duration
}

// Bits is a set of projected keys as one bit per key (key < 1<<(4k)) on at
// most MaxApproxCells cells, else as one bit per rank of the pattern (see
// placement.RankKey). The keys' last cells must hold distinct values below the
// board's size (keyset.ValidKey), as every board's do.
type Bits struct {
	words []uint64
	cells int
	count int64
	rk    *placement.Ranker // nil: the bit index is the key
}

// NewBits returns an empty set of keys of the last cells cells (at most
// MaxApproxCells) as a 16^cells bit table, on huge pages when it is large
// (8 cells: 512 MiB; hugemem.Min): the search and the heuristic read it in
// random order.
func NewBits(cells int) *Bits {
	b := &Bits{words: make([]uint64, (1<<(4*uint(cells))+63)/64), cells: cells}
	hugemem.Words(b.words)
	return b
}

// newBitsOn returns an empty set of keys of the last k of n cells: a 16^k
// bit table up to MaxApproxCells cells, else a ranked one.
func newBitsOn(n, k int) *Bits {
	if k <= MaxApproxCells {
		return NewBits(k)
	}
	return newRankedBits(n, k)
}

// index is the bit of a projected key.
func (b *Bits) index(k uint64) uint64 {
	if b.rk == nil {
		return k
	}
	return b.rk.Rank(k)
}

// Has reports whether key's projection is in the set.
func (b *Bits) Has(key uint64) bool {
	return b.hasIndex(b.index(key & encode.ProjectMask(b.cells)))
}

func (b *Bits) hasIndex(i uint64) bool { return b.words[i>>6]>>(i&63)&1 != 0 }

// set adds bit k and reports whether it was new (safe for concurrent use).
func (b *Bits) set(k uint64) bool {
	m := uint64(1) << (k & 63)
	return atomic.OrUint64(&b.words[k>>6], m)&m == 0
}

// Contains is Has: the set answers ida.Set's questions directly (one bit
// per pattern: 512 MiB for 8 cells, whatever the count; ranked above).
func (b *Bits) Contains(key uint64) bool { return b.Has(key) }

// Mask keeps the key bits the set looks at (ida.Masked).
func (b *Bits) Mask() uint64 { return encode.ProjectMask(b.cells) }

// Bytes is the table's memory.
func (b *Bits) Bytes() int64 { return int64(len(b.words)) * 8 }

// LoadBits reads a key-set file into a bit table: 16^k bits on at most
// MaxApproxCells cells, one bit per placement rank above (Gap0_10 ...,
// 3.6 GB each on the 4x4 board), refused beyond MaxApproxBytes.
func LoadBits(path string) (*Bits, keyset.Header, error) {
	return loadBits(path, keyset.Open)
}

// loadBits is LoadBits with the opener (keyset.OpenAny: the patterns of
// any cells, for a search that knows them).
func loadBits(path string, open func(string) (*keyset.Reader, error)) (*Bits, keyset.Header, error) {
	r, err := open(path)
	if err != nil {
		return nil, keyset.Header{}, err
	}
	defer r.Close()
	h := r.Header()
	n := h.Rows * h.Cols
	if h.Cells > MaxApproxCells {
		if t := placement.Bytes(n, h.Cells); t > MaxApproxBytes {
			return nil, h, fmt.Errorf("%s: %d cells, a ranked bit table of %.1f GiB is more than the %d GiB limit", path, h.Cells, gib(t), MaxApproxBytes>>30)
		}
	}
	b := newBitsOn(n, h.Cells)
	batch := make([]uint64, 0, 1<<16)
	for key, ok := r.Next(); ok; key, ok = r.Next() {
		if batch = append(batch, key); len(batch) == cap(batch) {
			b.Add(batch)
			batch = batch[:0]
		}
	}
	b.Add(batch)
	return b, h, r.Err()
}

// NotExactError is a file LoadExact refuses: not the exact set of its
// place in the order.
type NotExactError struct {
	Path, Name        string // the file and the set it holds
	Gap               int    // of the set expected
	Rows, Cols, Cells int
	Set               encode.CellSet // the cells (0: the last Cells)
}

func (e *NotExactError) Error() string {
	cells := fmt.Sprintf("%d cells", e.Cells)
	if e.Set != 0 && !e.Set.IsLast(e.Rows*e.Cols) {
		cells = "the cells " + e.Set.String()
	}
	return fmt.Sprintf("%s: %s is not the exact gap <= %d set of a %dx%d board on %s", e.Path, e.Name, e.Gap, e.Rows, e.Cols, cells)
}

// LoadExact loads the exact sets of the lowest levels of Approximate from
// key-set files, in order: Gap0_K, Gap2_K, ... of a rows x cols board on k
// cells. A file holding another set is refused with a *NotExactError.
// Above MaxApproxCells cells only the last file is loaded (the ranked
// search starts from it and needs no other); the others' headers are
// checked and they are given as nil.
func LoadExact(paths []string, rows, cols, k int) ([]*Bits, error) {
	return LoadExactCells(paths, rows, cols, encode.LastCells(rows*cols, k))
}

// LoadExactCells is LoadExact on any set of cells (the files must be of
// those cells: enumerate --cells @SET).
func LoadExactCells(paths []string, rows, cols int, set encode.CellSet) ([]*Bits, error) {
	var exact []*Bits
	k := set.Len()
	for i, path := range paths {
		var b *Bits
		var h keyset.Header
		var err error
		if k > MaxApproxCells && i < len(paths)-1 {
			h, err = checkKeys(path)
		} else {
			b, h, err = loadBits(path, keyset.OpenAny)
		}
		if err != nil {
			return nil, err
		}
		if h.Rows != rows || h.Cols != cols || h.Set() != set || h.Gap != 2*i || h.Exact && h.Gap > 0 || h.Approx {
			return nil, &NotExactError{Path: path, Name: h.Name(), Gap: 2 * i, Rows: rows, Cols: cols, Cells: k, Set: set}
		}
		exact = append(exact, b)
	}
	return exact, nil
}

// checkKeys returns a key-set file's header (of any cells).
func checkKeys(path string) (keyset.Header, error) {
	r, err := keyset.OpenAny(path)
	if err != nil {
		return keyset.Header{}, err
	}
	defer r.Close()
	return r.Header(), nil
}

// Len is the number of keys in the set.
func (b *Bits) Len() int64 { return b.count }

// Cells is the number of cells the keys hold.
func (b *Bits) Cells() int { return b.cells }

// Each calls fn with the keys in increasing order, in batches (the slice is
// reused between calls), until fn returns an error.
func (b *Bits) Each(fn func([]uint64) error) error {
	buf := make([]uint64, 0, 1<<16)
	p := placement.NewPrefix(b.rk) // ranks in increasing order: mostly the last digit changes
	for i, w := range b.words {
		for w != 0 {
			x := uint64(i)<<6 | uint64(bits.TrailingZeros64(w))
			if b.rk != nil {
				p.SetRank(x)
				x = p.Key()
			}
			buf = append(buf, x)
			w &= w - 1
			if len(buf) == cap(buf) {
				if err := fn(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
	}
	if len(buf) > 0 {
		return fn(buf)
	}
	return nil
}

// Keys returns the keys in increasing order (for small sets and tests).
func (b *Bits) Keys() []uint64 {
	out := make([]uint64, 0, b.count)
	b.Each(func(a []uint64) error { out = append(out, a...); return nil })
	return out
}

// Approximate computes supersets of the projections onto the last k cells
// of the gap <= 2j sets, j = 0..maxLevel, by a 0-1 breadth-first search
// from the goal in the abstract space of k-cell patterns (the key's low 4k
// bits: the contents of the last k cells, the blank's cell when it is
// among them). A reverse move from the goal costs 1 when it lowers the
// Manhattan distance; a configuration's gap is twice the fewest such moves
// on any path from the goal. Every concrete move projects onto an abstract
// move of the same cost, except moves inside the hidden cells, which leave
// the pattern unchanged; so the abstract cost of a pattern is at most half
// the gap of every configuration projecting onto it, and the level-j set,
// the patterns of abstract cost at most j, holds the projection of every
// configuration of gap <= 2j.
//
// exact, when given, holds the exact projections of the lower levels
// (exact[i]: gap <= 2i on the same k cells, e.g. Gap0_8 and Gap2_8): a
// pattern outside exact[i] has no configuration of gap <= 2i, so the
// search settles it no earlier than level i+1 and expands it only from
// there. The cost stays a lower bound (by induction along a
// configuration's optimal path: docs/proofs.md#approximated-gap-sets), the
// levels below len(exact) come out exact, and the higher ones far smaller.
//
// The tables are 16^k bits up to MaxApproxCells cells and one bit per
// placement rank above (ApproxMemory; approxrank.go), both giving the same
// sets; search tables beyond MaxApproxBytes are refused with ErrArgs. The
// ranked search starts from the top exact level and reports the levels
// from it on: it needs only that seed (the lower ones may be nil; LoadExact
// loads only the top one above MaxApproxCells cells).
//
// level is called after each level with the set so far (it must not keep
// the set past the call: the next level adds to it). progress, if not nil,
// is called when a level starts and after each of its waves or sweeps, with
// the level and the patterns seen so far: a 10-cell level can take an hour.
func Approximate(ctx context.Context, rows, cols, k, maxLevel int, exact []*Bits, level func(ApproxLevel) error, progress func(level int, seen int64)) error {
	if err := encode.CheckSize(rows, cols); err != nil {
		return fmt.Errorf("%w: %w", ErrArgs, err)
	}
	if k < 1 || k >= rows*cols {
		return fmt.Errorf("%w: approximated sets need 1..%d cells, fewer than the board's %d", ErrArgs, rows*cols-1, rows*cols)
	}
	return ApproximateCells(ctx, rows, cols, encode.LastCells(rows*cols, k), maxLevel, exact, level, progress)
}

// ApproximateCells is Approximate on any set of cells (keys gathered:
// encode.Projector). The abstraction is the same: a pattern's cells are
// visible, the others hidden, wherever they lie on the board.
func ApproximateCells(ctx context.Context, rows, cols int, set encode.CellSet, maxLevel int, exact []*Bits, level func(ApproxLevel) error, progress func(level int, seen int64)) error {
	k := set.Len()
	g, err := checkArgs(rows, cols, 2*maxLevel, []int{max(k, 1)})
	if err != nil {
		return err
	}
	if err := set.Check(g.N); err != nil || k >= g.N {
		return fmt.Errorf("%w: approximated sets need 1..%d cells of the board's %d, not %s", ErrArgs, g.N-1, g.N, set)
	}
	if err := CheckApproxMemory(g.N, k); err != nil {
		return fmt.Errorf("%w: %w", ErrArgs, err)
	}
	return approximateSet(ctx, g, rows, cols, set, maxLevel, exact, level, progress, k > MaxApproxCells)
}

// approximate is approximateSet on the last k cells.
func approximate(ctx context.Context, g *geometry, rows, cols, k, maxLevel int, exact []*Bits, level func(ApproxLevel) error, progress func(int, int64), ranked bool) error {
	return approximateSet(ctx, g, rows, cols, encode.LastCells(g.N, k), maxLevel, exact, level, progress, ranked)
}

// approximateSet is ApproximateCells on ranked tables or on 16^k ones
// (tests force either where both fit). Exact sets held the other way are
// copied.
func approximateSet(ctx context.Context, g *geometry, rows, cols int, set encode.CellSet, maxLevel int, exact []*Bits, level func(ApproxLevel) error, progress func(int, int64), ranked bool) error {
	k := set.Len()
	if progress == nil {
		progress = func(int, int64) {}
	}
	for i, e := range exact {
		if e == nil && ranked && i < len(exact)-1 {
			continue // the ranked search starts from the top level
		}
		if e == nil || e.cells != k || e.rk != nil && e.rk.N() != g.N {
			return fmt.Errorf("%w: exact level %d is not a set on %d cells of %d", ErrArgs, i, k, g.N)
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	a := newAbstract(g, set)
	a.exact = make([]*Bits, len(exact))
	for i, e := range exact {
		if e != nil {
			a.exact[i] = e.reindexed(g.N, ranked)
		}
	}
	if len(exact) == 0 {
		a.exact = nil
	}
	if ranked {
		return approximateRanked(ctx, a, rows, cols, maxLevel, exact, level, progress)
	}
	seen, next := NewBits(k), NewBits(k)
	if len(exact) > 1 {
		a.later = NewBits(k)
	}
	start := time.Now()
	goal := a.goal()
	seen.set(goal)
	frontier := []uint32{uint32(goal)}
	workers := defaultWorkers()
	for j := 0; j <= maxLevel; j++ {
		a.level = j
		if j > 0 {
			// the level starts from the cost-1 successors and the deferred
			// patterns not seen yet whose lower bound allows this level
			frontier = frontier[:0]
			for i, w := range next.words {
				if a.later != nil {
					w |= a.later.words[i]
					a.later.words[i] = 0
				}
				w &^= seen.words[i]
				next.words[i] = 0
				for w != 0 {
					q := uint64(i<<6 | bits.TrailingZeros64(w))
					w &= w - 1
					if a.lowerBound(q) > j {
						a.later.set(q)
						continue
					}
					frontier = append(frontier, uint32(q))
				}
			}
			for _, p := range frontier {
				seen.set(uint64(p))
			}
		}
		var added int64
		progress(j, seen.count)
		for len(frontier) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			added += int64(len(frontier))
			frontier = a.expand(frontier, seen, next, j < maxLevel, workers)
			progress(j, seen.count+added)
		}
		seen.count += added
		h := ApproxHeaderCells(rows, cols, set, j, len(exact))
		if err := level(ApproxLevel{Level: j, Header: h, Set: seen, New: added, Elapsed: time.Since(start)}); err != nil {
			return err
		}
	}
	return nil
}

// abstract holds the move tables of the k-cell pattern space.
type abstract struct {
	g     *geometry
	k     int
	set   encode.CellSet // the known cells; the others are hidden
	cells []int          // the known cells, increasing
	// pshift[c] is the shift of known cell c's nibble in a pattern (the
	// cells gathered in order: encode.Projector)
	pshift [16]uint8
	all    uint16
	exact  []*Bits // exact lower levels (see Approximate)
	later  *Bits   // patterns reached before their lower bound allows
	level  int     // the level being searched
}

// lowerBound is the level below which pattern q cannot lie: the first exact
// level holding it, len(exact) when none does.
func (a *abstract) lowerBound(q uint64) int {
	for i, e := range a.exact {
		if e != nil && e.words[q>>6]>>(q&63)&1 != 0 {
			return i
		}
	}
	return len(a.exact)
}

func newAbstract(g *geometry, set encode.CellSet) *abstract {
	a := &abstract{g: g, k: set.Len(), set: set, cells: set.Cells()}
	for i, c := range a.cells {
		a.pshift[c] = uint8(4 * (a.k - 1 - i))
	}
	for t := 1; t < g.N; t++ {
		a.all |= 1 << t
	}
	return a
}

// goal is the goal's pattern.
func (a *abstract) goal() uint64 {
	p := a.set.Projector(a.g.N)
	return p.Gather(a.g.goal)
}

// known tells whether cell c is one of the pattern's.
func (a *abstract) known(c int) bool { return a.set&(1<<uint(c)) != 0 }

func (a *abstract) shift(c int) uint { return uint(a.pshift[c]) }

// lowers reports whether tile t sliding from cell from to cell to lowers
// its distance from home.
func (a *abstract) lowers(t, from, to int) bool { return a.g.Delta[t][from][to] < 0 }

// expand visits the frontier's successors: cost-0 ones not seen yet are
// added to seen and returned as the next frontier; cost-1 ones go to next
// (when keep). Workers split the frontier.
func (a *abstract) expand(frontier []uint32, seen, next *Bits, keep bool, workers int) []uint32 {
	if len(frontier) < 1<<12 {
		workers = 1
	}
	outs := make([][]uint32, workers)
	per := (len(frontier) + workers - 1) / workers
	var wg safe.Group
	for w := range workers {
		lo, hi := min(w*per, len(frontier)), min((w+1)*per, len(frontier))
		wg.Go(func() {
			var out []uint32
			for _, p := range frontier[lo:hi] {
				a.successors(uint64(p), func(q uint64, cost int) {
					if cost == 0 {
						if a.exact != nil && !seen.Has(q) && a.lowerBound(q) > a.level {
							// deferred to the level its lower bound allows
							if a.later != nil {
								a.later.set(q)
							} else {
								next.set(q)
							}
							return
						}
						if seen.set(q) {
							out = append(out, uint32(q))
						}
					} else if keep && !seen.Has(q) {
						next.set(q)
					}
				})
			}
			outs[w] = out
		})
	}
	wg.Wait()
	n := 0
	for _, o := range outs {
		n += len(o)
	}
	res := make([]uint32, 0, n)
	for _, o := range outs {
		res = append(res, o...)
	}
	return res
}

// successors calls fn for every abstract reverse move from pattern p with
// its cost (1 when it certainly lowers the Manhattan distance).
func (a *abstract) successors(p uint64, fn func(q uint64, cost int)) {
	g := a.g
	blank := -1
	var present uint16
	for _, c := range a.cells {
		t := int(p>>a.shift(c)) & 15
		if t == 0 {
			blank = c
		} else {
			present |= 1 << t
		}
	}
	cost := func(low bool) int {
		if low {
			return 1
		}
		return 0
	}
	if blank >= 0 {
		sb := a.shift(blank)
		for _, c := range g.Nbr[blank][:g.NbrN[blank]] {
			c := int(c)
			if a.known(c) {
				t := int(p>>a.shift(c)) & 15
				fn(p&^(15<<a.shift(c))|uint64(t)<<sb, cost(a.lowers(t, c, blank)))
				continue
			}
			// a hidden tile, any of those not in the pattern, slides in
			for hidden := a.all &^ present; hidden != 0; hidden &= hidden - 1 {
				t := bits.TrailingZeros16(hidden)
				fn(p|uint64(t)<<sb, cost(a.lowers(t, c, blank)))
			}
		}
		return
	}
	// The blank is hidden: a pattern tile next to a hidden cell may slide
	// into it (if the blank is there).
	for _, c := range a.cells {
		t := int(p>>a.shift(c)) & 15
		for _, u := range g.Nbr[c][:g.NbrN[c]] {
			if !a.known(int(u)) {
				fn(p&^(15<<a.shift(c)), cost(a.lowers(t, c, int(u))))
			}
		}
	}
}

// reindexed is the set held as a ranked table (ranked) or a 16^k one: b
// itself when it is held so, else a copy.
func (b *Bits) reindexed(n int, ranked bool) *Bits {
	if (b.rk != nil) == ranked {
		return b
	}
	c := NewBits(b.cells)
	if ranked {
		c = newRankedBits(n, b.cells)
	}
	b.Each(func(keys []uint64) error { c.Add(keys); return nil })
	return c
}

// BitsOf returns the set of the given keys, projected onto the last cells
// cells.
func BitsOf(keys []uint64, cells int) *Bits {
	b := NewBits(cells)
	b.Add(keys)
	return b
}

// Add adds the keys (projected) to the set; a keyset.Reader's batches can
// be passed straight in.
func (b *Bits) Add(keys []uint64) {
	mask := encode.ProjectMask(b.cells)
	for _, k := range keys {
		if b.set(b.index(k & mask)) {
			b.count++
		}
	}
}

// ApproxHeader describes level j of an approximation onto k cells seeded by
// nExact exact levels (the levels from nExact on are approximated).
func ApproxHeader(rows, cols, k, j, nExact int) keyset.Header {
	return keyset.Header{Rows: rows, Cols: cols, Cells: k, Gap: 2 * j, Approx: j >= nExact}
}

// ApproxHeaderCells is ApproxHeader on any set of cells.
func ApproxHeaderCells(rows, cols int, set encode.CellSet, j, nExact int) keyset.Header {
	return ApproxHeader(rows, cols, set.Len(), j, nExact).OnCells(set)
}

// ApproxCells reads the one projection an approximation is asked for, in
// ParseCells's syntax (the last K cells or @SET), and checks that it
// leaves a cell out and that its tables fit MaxApproxBytes; the errors
// name gapset approx's --cells.
func ApproxCells(spec string, rows, cols int) (encode.CellSet, error) {
	n := rows * cols
	ks, sets, err := ParseCells(spec, n)
	if err != nil {
		return 0, err
	}
	if len(ks)+len(sets) != 1 {
		return 0, fmt.Errorf("--cells %s: one projection", spec)
	}
	var set encode.CellSet
	if len(sets) == 1 {
		set = sets[0]
	} else if k := ks[0]; k >= 1 && k <= n {
		set = encode.LastCells(n, k)
	}
	if k := set.Len(); k < 1 || k >= n {
		return 0, fmt.Errorf("--cells %s: want 1..%d cells", spec, n-1)
	}
	if err := CheckApproxMemory(n, set.Len()); err != nil {
		return 0, fmt.Errorf("--cells %s: %v", spec, err)
	}
	return set, nil
}

// ApproxPaths are the key-set files in dir an approximation of set up to
// maxLevel writes above its nExact exact levels.
func ApproxPaths(dir string, rows, cols int, set encode.CellSet, maxLevel, nExact int) []string {
	var out []string
	for j := nExact; j <= maxLevel; j++ {
		out = append(out, filepath.Join(dir, ApproxHeaderCells(rows, cols, set, j, nExact).Name()+".keys"))
	}
	return out
}
