package bdd

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// The building table holds the nodes level by level. A node is its two
// child references (8 bytes: the level is its chunk's). The nodes sit in
// fixed-size chunks of 2^16, so growing never copies them; every chunk
// belongs to one level, and a reference is the node's place in the chunk
// pool: chunk << 16 | offset, 32 bits for at most 2^32 - 2^16 nodes in all,
// however they spread over the levels (the 6-bit level and 26-bit index of
// the builder before this one capped a level at 2^26 - 2 nodes, too few
// for Gap6_10). References 0 and 1 are the terminals False and True: the
// first chunk is level 0's and starts its indices at 2.
//
// Each level has its own open-addressing index of 4-byte slots: the node's
// index within its level + 1 in the low ib bits, the hash's
// top 32 - ib bits above, so that a probe rarely reads a node that does not
// match. ib starts at 26 and grows, one fingerprint bit fewer each time, as
// the level outgrows it (to 32: no fingerprint). At most 4/5 of the slots
// are used and a full index grows by a third: 8 + 4/0.6 = 14.7 bytes per
// node at the worst point, about 13.8 on average over the levels, against
// 20-32 for one global table of 12-byte nodes whose slice doubles.
const (
	chunkBits = 16 // nodes per chunk: 2^16, 512 KiB
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
	// MaxChunks is the most chunks the pool holds: the references are 32 bits.
	MaxChunks = 1 << (32 - chunkBits)
)

// ErrLevelFull marks a diagram with more nodes than 32-bit references
// reach (about 4.29e9, whatever their levels): the set is too big for the
// builder.
var ErrLevelFull = errors.New("set too big for a BDD")

// maxChunks is the most chunks a pool may use, and startIB the index bits
// of a level's slots to begin with (variables so that the tests can reach
// the limits).
var (
	maxChunks      = MaxChunks
	startIB   uint = 26
)

// pair is a node's children.
type pair struct{ lo, hi uint32 }

// arena is the chunk pool every level's nodes live in; it turns references
// into nodes, levels and indices within the level.
type arena struct {
	chunks [][]pair
	level  []uint8  // of each chunk
	pos    []uint32 // of each chunk within its level
}

func (a *arena) node(r uint32) pair    { return a.chunks[r>>chunkBits][r&chunkMask] }
func (a *arena) refLevel(r uint32) int { return int(a.level[r>>chunkBits]) }
func (a *arena) refIndex(r uint32) uint32 {
	return a.pos[r>>chunkBits]<<chunkBits | r&chunkMask
}

// bytes is the memory the chunks take, as allocated.
func (a *arena) bytes() int64 {
	var b int64
	for _, c := range a.chunks {
		b += 8 * int64(cap(c))
	}
	return b
}

// levelNodes is one level's nodes in creation order: the pool's chunks it
// owns, in order.
type levelNodes struct {
	ids []uint32 // chunk ids
	n   uint32   // indices used (level 0: the first two are placeholders)
}

func (v *levelNodes) ref(i uint32) uint32 { return v.ids[i>>chunkBits]<<chunkBits | i&chunkMask }

func (a *arena) at(v *levelNodes, i uint32) pair {
	return a.chunks[v.ids[i>>chunkBits]][i&chunkMask]
}

// push appends a node to level l; false when the pool is full.
func (a *arena) push(l int, v *levelNodes, p pair) bool {
	c := int(v.n >> chunkBits)
	if c == len(v.ids) {
		if len(a.chunks) >= maxChunks {
			return false
		}
		v.ids = append(v.ids, uint32(len(a.chunks)))
		a.chunks = append(a.chunks, make([]pair, 0, 16))
		a.level = append(a.level, uint8(l))
		a.pos = append(a.pos, uint32(c))
	}
	id := v.ids[c]
	ch := a.chunks[id]
	if len(ch) == cap(ch) { // only the first chunk grows by copies, up to its fixed size
		grown := make([]pair, len(ch), min(2*cap(ch), chunkSize))
		copy(grown, ch)
		ch = grown
	}
	a.chunks[id] = append(ch, p)
	v.n++
	return true
}

// first is the first index of a level holding a node.
func first(level int) uint32 {
	if level == 0 {
		return 2
	}
	return 0
}

type levelTable struct {
	nodes levelNodes
	slots []uint32 // 0 empty, else fingerprint << ib | index + 1
	ib    uint     // index bits of a slot
	from  uint32   // first index the slots cover (a spilled level's part)
}

// table is the unique table of the incremental builder and of ZDDOf: it
// creates canonical (hash-consed, reduced) nodes.
type table struct {
	arena
	levels []levelTable
	zdd    bool
	err    error // the pool overflowed; the diagram is not usable
	// recent is a small direct-mapped cache per level in front of the
	// table: the deep levels, where a sorted build asks most often, have
	// few distinct nodes, and the cache answers them from L1/L2.
	recent [][recentSize]recentEntry
}

const (
	recentSize = 256
	minSlots   = 64
)

type recentEntry struct{ lo, hi, id uint32 }

func newTable(zdd bool, L int) *table {
	t := &table{zdd: zdd, levels: make([]levelTable, L), recent: make([][recentSize]recentEntry, L)}
	for l := range t.levels {
		t.levels[l].slots = make([]uint32, minSlots)
		t.levels[l].ib = startIB
	}
	if L > 0 {
		t.push(0, &t.levels[0].nodes, pair{}) // indices 0 and 1: the terminals' references
		t.push(0, &t.levels[0].nodes, pair{})
	}
	return t
}

func hashNode(level uint8, lo, hi uint32) uint64 {
	h := (uint64(lo)<<32 | uint64(hi)) ^ uint64(level)<<56 ^ uint64(level)
	h *= 0x9E3779B97F4A7C15
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// slotOf maps a hash onto a table of n slots (any n: multiply and shift).
func slotOf(h uint64, n int) int { return int(uint64(uint32(h)) * uint64(n) >> 32) }

// fingerprint is the hash's top 32 - ib bits, placed above ib index bits.
func fingerprint(h uint64, ib uint) uint32 { return uint32(h >> (32 + ib) << ib) }

func (t *table) mk(level int, lo, hi uint32) uint32 {
	if t.zdd {
		if hi == False {
			return lo
		}
	} else if lo == hi {
		return lo
	}
	r := &t.recent[level][(lo*0x9E3779B1^hi*0x85EBCA77)>>24%recentSize]
	if r.id != 0 && r.lo == lo && r.hi == hi {
		return r.id
	}
	id := t.lookup(level, lo, hi)
	*r = recentEntry{lo, hi, id}
	return id
}

func (t *table) lookup(level int, lo, hi uint32) uint32 {
	lt := &t.levels[level]
	h := hashNode(uint8(level), lo, hi)
	fp := fingerprint(h, lt.ib)
	mask := uint32(1<<lt.ib - 1)
	n := len(lt.slots)
	i := slotOf(h, n)
	for {
		s := lt.slots[i]
		if s == 0 {
			break
		}
		if s&^mask == fp {
			idx := s&mask - 1
			if p := t.at(&lt.nodes, idx); p.lo == lo && p.hi == hi {
				return lt.nodes.ref(idx)
			}
		}
		if i++; i == n {
			i = 0
		}
	}
	idx := lt.nodes.n
	if !t.push(level, &lt.nodes, pair{lo, hi}) {
		if t.err == nil {
			t.err = fmt.Errorf("%w: it needs more than %d nodes (level %d is growing), the most 32-bit references reach", ErrLevelFull, maxChunks*chunkSize-2, level)
		}
		return False
	}
	if uint64(idx)+1 > uint64(mask) { // the index outgrew the slots' width
		lt.ib++
		lt.resize(&t.arena, level, n)
		return lt.nodes.ref(idx)
	}
	lt.slots[i] = fp | (idx + 1)
	if used := int(lt.nodes.n - max(first(level), lt.from)); 5*used > 4*n {
		lt.resize(&t.arena, level, n+n/3)
	}
	return lt.nodes.ref(idx)
}

// resize rebuilds the slots, n of them, over the nodes from lt.from on.
func (lt *levelTable) resize(a *arena, level int, n int) {
	lt.slots = make([]uint32, n)
	for idx := max(first(level), lt.from); idx < lt.nodes.n; idx++ {
		p := a.at(&lt.nodes, idx)
		h := hashNode(uint8(level), p.lo, p.hi)
		i := slotOf(h, n)
		for lt.slots[i] != 0 {
			if i++; i == n {
				i = 0
			}
		}
		lt.slots[i] = fingerprint(h, lt.ib) | (idx + 1)
	}
}

// finish drops the index and returns the nodes as a LevelDiagram.
func (t *table) finish(o Order, root uint32, count uint64) (*LevelDiagram, error) {
	if t.err != nil {
		return nil, t.err
	}
	d := &LevelDiagram{Order: o, ZDD: t.zdd, Count: count, Root: root, arena: t.arena, levels: make([]levelNodes, len(t.levels))}
	d.TableBytes = int64(len(t.recent)) * recentSize * 12
	for l := range t.levels {
		d.TableBytes += 4 * int64(len(t.levels[l].slots))
		d.levels[l] = t.levels[l].nodes
		t.levels[l] = levelTable{}
	}
	t.recent = nil
	t.arena = arena{}
	d.index()
	d.TableBytes += d.Bytes()
	return d, nil
}

// LevelDiagram is a reduced BDD (or ZDD) as the builder leaves it: the
// nodes of each level in chunks, 8 bytes per node, children referenced by
// their place in the chunk pool. It is saved as it is (Save walks it) and converted into
// a Diagram (12 bytes per node, one array) for everything else. Its dense
// numbering (the levels from the deepest, each in creation order, from 2)
// is the node numbering of that Diagram.
type LevelDiagram struct {
	Order Order
	ZDD   bool
	Count uint64 // members: the keys it was built from
	Root  uint32 // a reference: 0 False, 1 True, else chunk << 16 | offset
	// TableBytes is what the building table held at the end of the build
	// (nodes, index, cache): its largest size.
	TableBytes int64
	// Parts is, for a diagram built out of core, the parts each level was
	// reduced in (1: in one table; nil: built in memory).
	Parts []int
	// Bottom is, for a diagram built out of core, the deepest levels made
	// in memory in the first pass over the keys (0: none).
	Bottom int
	arena  // the nodes
	// levels[l] holds the nodes testing the variable at level l.
	levels []levelNodes
	close  func() error // releases a mapped arena (nil: nothing to release)
	base   []uint32     // dense id of each level's first node
	nodes  int
}

func (d *LevelDiagram) index() {
	L := len(d.levels)
	d.base = make([]uint32, L)
	next := uint64(2)
	for l := L - 1; l >= 0; l-- {
		d.base[l] = uint32(next)
		next += uint64(d.levels[l].n - first(l))
	}
	d.nodes = int(next - 2)
}

// NodeCount is the number of decision nodes.
func (d *LevelDiagram) NodeCount() int { return d.nodes }

// LevelSizes counts the nodes on each level, the root's level first.
func (d *LevelDiagram) LevelSizes() []int {
	s := make([]int, len(d.levels))
	for l, v := range d.levels {
		s[l] = int(v.n - first(l))
	}
	return s
}

// Bytes is the memory the nodes take (chunks as allocated).
func (d *LevelDiagram) Bytes() int64 { return d.arena.bytes() }

// dense numbers a reference as the Diagram conversion does.
func (d *LevelDiagram) dense(r uint32) uint32 {
	if r < 2 {
		return r
	}
	l := d.refLevel(r)
	return d.base[l] + d.refIndex(r) - first(l)
}

// Diagram converts to the one-array form; d is left as it was.
func (d *LevelDiagram) Diagram() *Diagram {
	out := &Diagram{Order: d.Order, ZDD: d.ZDD, Count: d.Count, Root: d.dense(d.Root), Nodes: make([]Node, 2, d.nodes+2)}
	for l := len(d.levels) - 1; l >= 0; l-- {
		v := &d.levels[l]
		for i := first(l); i < v.n; i++ {
			p := d.at(v, i)
			out.Nodes = append(out.Nodes, Node{Lo: d.dense(p.lo), Hi: d.dense(p.hi), Level: uint8(l)})
		}
	}
	return out
}

// CheckCount checks that d holds n members, by its stored count and by a
// walk of the diagram.
func (d *LevelDiagram) CheckCount(n uint64) error { return checkCount(levelView{d}, d.Count, n) }

// SatCount counts the members from the structure alone.
func (d *LevelDiagram) SatCount() (uint64, error) { return satCount(levelView{d}) }

// check validates what the builder cannot get wrong unless it is broken:
// children on deeper levels and within them, the reduction rule. (Every
// node is reachable: the encoder's walk checks that.)
func (d *LevelDiagram) check() error {
	L := d.Order.Vars()
	if err := d.Order.Validate(); err != nil {
		return err
	}
	if len(d.levels) != L {
		return fmt.Errorf("%d levels for %d variables", len(d.levels), L)
	}
	inRange := func(r uint32, above int) bool {
		if r < 2 {
			return true
		}
		c := int(r >> chunkBits)
		if c >= len(d.chunks) || int(r&chunkMask) >= len(d.chunks[c]) {
			return false
		}
		l := d.refLevel(r)
		return l > above && l < L && d.refIndex(r) >= first(l) && d.refIndex(r) < d.levels[l].n
	}
	if !inRange(d.Root, -1) {
		return fmt.Errorf("root %#x out of range", d.Root)
	}
	for l := range d.levels {
		v := &d.levels[l]
		for i := first(l); i < v.n; i++ {
			p := d.at(v, i)
			if !inRange(p.lo, l) || !inRange(p.hi, l) {
				return fmt.Errorf("level %d node %d: child out of range", l, i)
			}
			if !d.ZDD && p.lo == p.hi {
				return fmt.Errorf("level %d node %d: both branches equal (not reduced)", l, i)
			}
			if d.ZDD && p.hi == False {
				return fmt.Errorf("level %d node %d: 1-branch is False (not zero-suppressed)", l, i)
			}
		}
	}
	return nil
}

// view is what the walks over a diagram need, for both forms. Dense ids
// run over 0..size()-1 (0 and 1 the terminals) with children before their
// parents; each(f) calls f with the references in that order.
type view interface {
	vars() int
	root() uint32
	size() int
	id(r uint32) uint32
	kids(r uint32) (lo, hi uint32)
	level(r uint32) int // of a node (not a terminal)
	each(f func(r uint32))
	zdd() bool
}

type levelView struct{ d *LevelDiagram }

func (v levelView) vars() int                     { return v.d.Order.Vars() }
func (v levelView) root() uint32                  { return v.d.Root }
func (v levelView) size() int                     { return v.d.nodes + 2 }
func (v levelView) id(r uint32) uint32            { return v.d.dense(r) }
func (v levelView) kids(r uint32) (lo, hi uint32) { p := v.d.node(r); return p.lo, p.hi }
func (v levelView) level(r uint32) int            { return v.d.refLevel(r) }
func (v levelView) zdd() bool                     { return v.d.ZDD }
func (v levelView) each(f func(r uint32)) {
	for l := len(v.d.levels) - 1; l >= 0; l-- {
		for i := first(l); i < v.d.levels[l].n; i++ {
			f(v.d.levels[l].ref(i))
		}
	}
}

type diagramView struct{ d *Diagram }

func (v diagramView) vars() int          { return v.d.Order.Vars() }
func (v diagramView) root() uint32       { return v.d.Root }
func (v diagramView) size() int          { return len(v.d.Nodes) }
func (v diagramView) id(r uint32) uint32 { return r }
func (v diagramView) kids(r uint32) (lo, hi uint32) {
	nd := &v.d.Nodes[r]
	return nd.Lo, nd.Hi
}
func (v diagramView) level(r uint32) int { return int(v.d.Nodes[r].Level) }
func (v diagramView) zdd() bool          { return v.d.ZDD }
func (v diagramView) each(f func(r uint32)) {
	for r := 2; r < len(v.d.Nodes); r++ {
		f(uint32(r))
	}
}

// satCount counts members with 4-byte counts per node when they fit (a
// node's count never exceeds the root's, every node being reachable), and
// 8-byte counts otherwise.
func satCount[V view](v V) (uint64, error) {
	if n, err := satCountAs[V, uint32](v); err != errNarrow {
		return n, err
	}
	return satCountAs[V, uint64](v)
}

// errNarrow: a count did not fit the narrow type; count again wider.
var errNarrow = fmt.Errorf("count wider than the count type")

func satCountAs[V view, T uint32 | uint64](v V) (uint64, error) {
	L := v.vars()
	limit := uint64(^T(0))
	cnt := make([]T, v.size())
	cnt[True] = 1
	lev := func(r uint32) int {
		if r < 2 {
			return L
		}
		return v.level(r)
	}
	// scaled: the count of child c seen from a node at level l.
	scaled := func(c uint32, l int) (uint64, error) {
		x := uint64(cnt[v.id(c)])
		if v.zdd() || x == 0 {
			return x, nil
		}
		sh := lev(c) - l - 1
		if sh >= 64 || (sh > 0 && x>>(64-uint(sh)) != 0) {
			return 0, errOverflow
		}
		return x << uint(sh), nil
	}
	var err error
	v.each(func(r uint32) {
		if err != nil {
			return
		}
		lo, hi := v.kids(r)
		l := v.level(r)
		a, err1 := scaled(lo, l)
		b, err2 := scaled(hi, l)
		s, carry := bits.Add64(a, b, 0)
		switch {
		case err1 != nil || err2 != nil || carry != 0:
			err = errOverflow
		case s > limit:
			err = errNarrow
		default:
			cnt[v.id(r)] = T(s)
		}
	})
	if err != nil {
		if err == errOverflow && limit != ^uint64(0) {
			err = errNarrow // 64 bits may still hold it
		}
		return 0, err
	}
	return scaled(v.root(), -1)
}

func checkCount[V view](v V, stored, n uint64) error {
	if stored != n {
		return fmt.Errorf("built %d members from a file of %d keys", stored, n)
	}
	count := satCount[V]
	if n > math.MaxUint32 { // the root's count needs 64 bits: skip the narrow pass (4 bytes a node)
		count = satCountAs[V, uint64]
	}
	if c, err := count(v); err != nil || c != n {
		return fmt.Errorf("BDD holds %d members, the file %d keys (%v)", c, n, err)
	}
	return nil
}
