package bdd

import (
	"errors"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/gapset/gapset/internal/placement"
)

// The bottom pass. The deepest levels' streams are the largest (the
// deepest holds about one entry a key), yet their diagrams are small: level
// L-j can hold at most 2^(2^j) - 2 nodes, a function of j bits. So the first
// pass over the keys makes the deepest b levels at once, in memory: the keys
// sharing their top L-b bits are consecutive, their b-bit suffixes are
// paired level by level exactly as groups pairs a stream's entries, through
// the tables of levels L-1 .. L-b, which all stay open during the pass. The
// pass writes only the stream of level L-b, one entry per distinct prefix of
// L-b bits instead of one a key; the level passes continue from there.

const (
	// maxBottom caps the levels of the bottom pass: a group's suffixes fit
	// 32 bits. Whole boards reach it (the last 8 cells: 8! completions).
	maxBottom = 32
	// groupKeys is the keys a group of the bottom pass (the keys sharing a
	// prefix) should hold at most on average: the density chooses b so
	// that the first stream is about keys/64 entries for dense sets (b = 6
	// to 8); sparse sets reach the cap.
	groupKeys = 64
)

// NoBottom in OutOfCore.Bottom makes every level in its own pass.
const NoBottom = -1

// bottomLevels is the number of levels the bottom pass makes for keys keys
// of k of n cells (4k bits, the cells or ranks encoding), or asked when set
// (see OutOfCore.Bottom): the most whose groups hold about groupKeys keys
// or fewer at the keys' density among the n!/(n-k)! patterns, at most
// maxBottom.
func bottomLevels(keys uint64, n, k, asked int) int {
	L := 4 * k
	switch {
	case asked == NoBottom:
		return 0
	case asked > 0:
		return min(asked, maxBottom, L)
	}
	d := density(keys, n, k)
	b := 0
	for b < min(maxBottom, L) && d*suffixSpan(n, k, b+1) <= groupKeys {
		b++
	}
	return b
}

// density is the share of the n!/(n-k)! patterns that are keys.
func density(keys uint64, n, k int) float64 {
	return min(1, float64(keys)/float64(placement.Size(n, k)))
}

// suffixSpan is how many patterns share a prefix of 4k-b bits: the choices
// of the last cells below it (the i-th from the end has n-k+i tiles left;
// a cell cut by the prefix at most 2^bits of them), in both encodings.
func suffixSpan(n, k, b int) float64 {
	g := 1.0
	for i := 1; i <= k && b > 0; i++ {
		c := float64(n - k + i)
		if b < 4 {
			c = min(c, math.Ldexp(1, b))
		}
		g *= c
		b -= 4
	}
	return g
}

// expectedPrefixes is the expected number of distinct prefixes of 4k-b
// bits of keys keys spread uniformly over the patterns: the entries of the
// first stream. (Clustered keys, as the gap sets' are, share more
// prefixes: fewer.)
func expectedPrefixes(keys uint64, n, k, b int) float64 {
	if keys == 0 {
		return 0
	}
	g := suffixSpan(n, k, b)
	groups := float64(placement.Size(n, k)) / g
	held := -math.Expm1(g * math.Log1p(-min(density(keys, n, k), 1-1e-12))) // a group holds a key
	return min(float64(keys), groups*held)
}

// suffix is one key's (or one finished sub-diagram's) last bits in a group
// of the bottom pass, with its node.
type suffix struct{ s, id uint32 }

// makeBottom makes the deepest levels in one pass over the keys, at most b of
// them, as many as fit the budget: a pass whose tables pass it goes on with
// fewer levels (narrow), or, when none would fit, leaves the keys to the
// level passes. It returns the levels made (0: none; the level passes
// start from the keys) and the entries of the stream written (at
// streamPath(L - levels)). from, when set, is the pass's checkpoint to
// continue from (its b levels; the tables are loaded).
func (lb *levelBuilder) makeBottom(b int, open func() (source, error), from *stageRecord) (int, uint64, error) {
	for b > 0 {
		out := lb.streamPath(lb.L - b)
		written, next, err := lb.bottomPass(b, open, out, from)
		from = nil
		if err == nil {
			return next, written, nil
		}
		if !errors.Is(err, errSpill) {
			return 0, 0, err
		}
		// start afresh: first the checkpoint naming the pass's files goes
		if err := lb.dropPass(); err != nil {
			return 0, 0, err
		}
		lb.t = newTable(lb.t.zdd, lb.L)
		if err := os.Remove(out); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, 0, err
		}
		lb.report(fmt.Sprintf("bottom %d levels passed the budget (%d KiB): again with %d", b, lb.budget>>10, next), 0)
		b = next
	}
	return 0, 0, nil
}

// bottomPass makes levels L-1 .. L-b from the keys, or fewer when their
// tables pass the budget (see narrow); it returns the entries of the
// stream written and the levels made. On errSpill (no fewer levels would
// fit, or the pass makes every level) it returns the levels the next
// attempt should make: the deepest ones whose tables, extrapolated from the
// keys read to all the keys, fit the budget.
func (lb *levelBuilder) bottomPass(b int, open func() (source, error), out string, from *stageRecord) (uint64, int, error) {
	t := lb.t
	L, top := lb.L, lb.L-b
	src, err := open()
	if err != nil {
		return 0, 0, err
	}
	defer src.close()
	var prefix, read, groups uint64
	var w *sink
	if from != nil {
		read, prefix = from.Pass.Read, from.Pass.Prev
		ks, ok := src.(*keySource)
		if !ok {
			return 0, 0, errors.New("a bottom pass resumes from the key file only")
		}
		if err := ks.skip(read); err != nil {
			return 0, 0, err
		}
		w, err = lb.reopenStream(out, from)
	} else {
		w, err = lb.createStream(out)
	}
	if err != nil {
		return 0, 0, err
	}
	defer func() { w.close() }()
	every := passEvery(lb.total, lb.every)
	if lb.r == nil {
		every = 0
	}
	nextAt, lastAt := read+every, time.Now()
	stage := ""
	var mask uint64
	levels := func(nb int) {
		b, top, mask = nb, L-nb, uint64(1)<<uint(nb)-1
		stage = fmt.Sprintf("bottom %d levels (%d-%d of %d) in one pass", b, L-1, top, L)
	}
	levels(b)
	tables := func() int64 {
		var s int64
		for l := top; l < L; l++ {
			s += tableBytes(&t.levels[l])
		}
		return s
	}
	ch := newChains(L)
	// fewer goes on with the levels that fit, or returns errSpill and
	// the levels to start again with
	fewer := func() (int, error) {
		nb := lb.fewerBottom(b, read)
		if nb == 0 || b == L {
			return nb, errSpill
		}
		nw, err := lb.narrow(b, nb, w, read)
		if err != nil {
			return 0, err
		}
		w = nw
		ch.reset() // narrow renumbered the nodes
		levels(nb)
		return nb, nil
	}
	var grp []suffix
	// finish reduces the group of prefix to its node
	finish := func() error {
		id := ch.set(t, top, grp)
		if t.err != nil {
			return t.err
		}
		groups++
		if groups&4095 == 0 {
			lb.report(stage, read)
		}
		return w.entry(prefix, id)
	}
	for {
		key, _, ok := src.next()
		if !ok {
			break
		}
		if len(grp) > 0 && key>>uint(b) != prefix {
			if err := finish(); err != nil {
				return 0, 0, err
			}
			grp = grp[:0]
			if tables() > lb.budget {
				if nb, err := fewer(); err != nil {
					return 0, nb, err
				}
				nextAt = read // a checkpoint of the narrower pass at once
			}
			if every > 0 && (read >= nextAt || groups&4095 == 0 && time.Since(lastAt) >= passInterval) {
				if err := lb.passCheckpoint(b, read, w); err != nil {
					return 0, 0, err
				}
				nextAt, lastAt = read+every, time.Now()
			}
		}
		prefix = key >> uint(b)
		grp = append(grp, suffix{uint32(key & mask), True})
		read++
	}
	if err := src.close(); err != nil {
		return 0, 0, err
	}
	if len(grp) > 0 {
		if err := finish(); err != nil {
			return 0, 0, err
		}
		if tables() > lb.budget {
			if nb, err := fewer(); err != nil {
				return 0, nb, err
			}
		}
	}
	lb.peak = max(lb.peak, tables())
	lb.keys = read
	for l := top; l < L; l++ {
		lb.parts[l] = 1
		if err := lb.flush(l, t.levels[l].nodes.n); err != nil {
			return 0, 0, err
		}
		t.levels[l] = levelTable{nodes: t.levels[l].nodes}
	}
	lb.saved = nil
	lb.report(stage, read)
	return w.n, b, lb.closeStream(w)
}

// fewerBottom is the levels a bottom pass of b levels that passed the
// budget after read keys tries next: the deepest whose tables, scaled to
// all the keys, fit the budget together; fewer than b.
func (lb *levelBuilder) fewerBottom(b int, read uint64) int {
	scale := 2.0
	if lb.total > read && read > 0 {
		scale = float64(lb.total) / float64(read)
	}
	var sum float64
	for j := 0; j < b-1; j++ {
		sum += scale * float64(tableBytes(&lb.t.levels[lb.L-1-j]))
		if sum > float64(lb.budget) {
			return j
		}
	}
	return b - 1
}

// dropPass forgets the stage's checkpoint inside a bottom pass that starts
// again (a kill now starts the stage over) and empties the node file the
// pass wrote its chunks to.
func (lb *levelBuilder) dropPass() error {
	lb.saved = nil
	if lb.r == nil {
		return nil
	}
	if rec := lb.r.m.stage(lb.zdd); rec == nil || rec.Pass == nil {
		return nil
	}
	if lb.zdd {
		lb.r.m.ZDD = nil
	} else {
		lb.r.m.BDD = nil
	}
	if err := lb.r.save(); err != nil {
		return err
	}
	return lb.nodes.Truncate(0)
}

// narrow goes on with a bottom pass of b levels whose tables passed the
// budget after the groups of its first read keys as a pass of nb < b
// levels, without reading those keys again. The tables of the deepest nb
// levels stay as they are: a pass of nb levels over the same keys would
// have asked them for the same nodes in the same order (each level's in
// key order), and goes on asking them for the rest. The stream of level
// L-nb for the keys read is read off the diagram: the node of each
// (L-b)-bit prefix in the stream written so far, followed down its
// b-nb next variables by every suffix (a variable its node skips: both
// branches in a BDD, the 0-branch in a ZDD), is the node of each
// (L-nb)-bit prefix under it, False where no key has that prefix; the
// pass's groups end on (L-b)-bit prefixes, so no (L-nb)-bit prefix
// straddles read. Levels L-b .. L-nb-1 are dropped and left to the level
// passes, which make them from that stream; the pool is compacted (their
// chunks go, the references of the nodes kept are renumbered and their
// slots rebuilt). The file is the one the pass of nb levels from the first
// key makes: the levels hold the same nodes, and Save numbers by walking.
func (lb *levelBuilder) narrow(b, nb int, w *sink, read uint64) (*sink, error) {
	t, L := lb.t, lb.L
	if err := lb.dropPass(); err != nil {
		return nil, err
	}
	old := w.f.Name()
	if err := w.close(); err != nil {
		return nil, err
	}
	// the chunks kept: the first (level 0's, outside the pass) and the
	// deepest nb levels', in their order
	newID := make([]uint32, len(t.chunks))
	keep := 0
	for c := range t.chunks {
		if c == 0 || int(t.level[c]) >= L-nb {
			newID[c] = uint32(keep)
			keep++
		}
	}
	remap := func(r uint32) uint32 {
		if r < 2 {
			return r
		}
		return newID[r>>chunkBits]<<chunkBits | r&chunkMask
	}
	src, err := openSource(old)
	if err != nil {
		return nil, err
	}
	defer src.close()
	nw, err := lb.createStream(lb.streamPath(L - nb))
	if err != nil {
		return nil, err
	}
	var down func(r uint32, l int, q uint64) error
	down = func(r uint32, l int, q uint64) error {
		if r == False {
			return nil
		}
		if l == L-nb {
			return nw.entry(q, remap(r))
		}
		lo, hi := r, r
		if r >= 2 && t.refLevel(r) == l {
			n := t.node(r)
			lo, hi = n.lo, n.hi
		} else if t.zdd {
			hi = False
		}
		if err := down(lo, l+1, q<<1); err != nil {
			return err
		}
		return down(hi, l+1, q<<1|1)
	}
	for {
		p, id, ok := src.next()
		if !ok {
			break
		}
		if err := down(id, L-b, p); err != nil {
			nw.close()
			return nil, err
		}
	}
	if err := src.close(); err != nil {
		nw.close()
		return nil, err
	}
	// the pool without the dropped levels' chunks
	a := arena{chunks: make([][]pair, 0, keep), level: make([]uint8, 0, keep), pos: make([]uint32, 0, keep)}
	for c, ch := range t.chunks {
		if c != 0 && int(t.level[c]) < L-nb {
			continue
		}
		for i := range ch {
			ch[i] = pair{remap(ch[i].lo), remap(ch[i].hi)}
		}
		a.chunks, a.level, a.pos = append(a.chunks, ch), append(a.level, t.level[c]), append(a.pos, t.pos[c])
	}
	t.arena = a
	lb.flushed = nil
	for l := L - b; l < L; l++ {
		lt := &t.levels[l]
		t.recent[l] = [recentSize]recentEntry{}
		if l < L-nb {
			*lt = levelTable{slots: make([]uint32, minSlots), ib: startIB}
			continue
		}
		for i, c := range lt.nodes.ids {
			lt.nodes.ids[i] = newID[c]
		}
		lt.resize(&t.arena, l, len(lt.slots))
	}
	if err := os.Remove(old); err != nil {
		nw.close()
		return nil, err
	}
	lb.report(fmt.Sprintf("bottom %d levels passed the budget (%d KiB) after %d keys: going on with %d", b, lb.budget>>10, read, nb), read)
	return nw, nil
}

// chains makes the node of a group's suffixes top-down: the suffixes
// with a 0 at a level's bit below those with a 1, each part made the same
// way one level down, until a part holds one suffix. Those single
// suffixes are most of the work on sparse sets (a group of 20 whole-board
// keys under 8 cells parts within a few levels, and each key would then
// walk its own chain of up to 32 nodes), so the node of a single suffix
// below a level is remembered: it is the chain of mk's of its bits, asked
// again whenever another prefix ends in it. The nodes made are the ones a
// level-by-level pairing of the suffixes makes (each level's nodes are the
// distinct non-empty sets under its prefixes), so the file is the same.
type chains struct {
	L    int
	memo map[uint64]uint32 // level<<32 | suffix below it -> node
}

// maxChains bounds the remembered chains (about 40 bytes each).
const maxChains = 1 << 22

func newChains(L int) *chains { return &chains{L: L, memo: make(map[uint64]uint32)} }

// reset forgets every chain (their references changed).
func (c *chains) reset() { c.memo = make(map[uint64]uint32) }

// set is the node at level l of the suffixes g: sorted, distinct, not
// empty, equal in their bits above level l (level l is bit L-1-l).
func (c *chains) set(t *table, l int, g []suffix) uint32 {
	if len(g) == 1 {
		return c.single(t, l, g[0].s)
	}
	bit := uint32(1) << uint(c.L-1-l)
	m := 0
	for m < len(g) && g[m].s&bit == 0 {
		m++
	}
	lo, hi := False, False
	if m > 0 {
		lo = c.set(t, l+1, g[:m])
	}
	if m < len(g) {
		hi = c.set(t, l+1, g[m:])
	}
	return t.mk(l, lo, hi)
}

// single is the node at level l of the one suffix s.
func (c *chains) single(t *table, l int, s uint32) uint32 {
	if l == c.L {
		return True
	}
	w := uint(c.L - l) // bits below level l, at most 32
	s &= uint32(uint64(1)<<w - 1)
	key := uint64(l)<<32 | uint64(s)
	if id, ok := c.memo[key]; ok {
		return id
	}
	child := c.single(t, l+1, s)
	var id uint32
	if s>>(w-1)&1 == 0 {
		id = t.mk(l, child, False)
	} else {
		id = t.mk(l, False, child)
	}
	if t.err != nil {
		return False
	}
	if len(c.memo) >= maxChains {
		c.reset()
	}
	c.memo[key] = id
	return id
}
