package bdd

import (
	"errors"
	"fmt"
	"github.com/gapset/gapset/internal/hugemem"
	"math/bits"
	"runtime/debug"
	"time"
	"unsafe"

	"github.com/gapset/gapset/internal/sysprobe"
)

// Set is a read-only BDD laid out for membership queries: one flat array
// of 12-byte nodes, each holding both children and the key bit it tests,
// so a query is one memory access per level and nothing else. It is safe
// for concurrent use.
type Set struct {
	info  Info
	nodes []qnode // [0], [1]: terminals
	root  uint32
	// The cell-wise layout (see cells.go), used instead of nodes when the
	// order keeps each cell's bits together.
	cells  []cnode
	shifts []uint8  // nibble shift per cell step
	enc    Encoding // of the keys; queries convert board keys (n cells, k kept)
	n, k   int
	// The mapped form (mapped.go): the pool's nodes where the file lies,
	// the key bit each chunk's level tests.
	pairs      []pair
	chunkShift []uint8
	chunkLevel []uint8
	unmap      func() error
}

// Close releases a mapped set's mapping; a no-op for the others. The set
// is not usable afterwards.
func (s *Set) Close() error {
	if s.unmap == nil {
		return nil
	}
	err := s.unmap()
	s.unmap, s.pairs = nil, nil
	return err
}

type qnode struct {
	kid   [2]uint32
	shift uint8 // key bit tested here
}

// NewSet lays a BDD out for queries. info may be zero (then only the order
// from d is known). Nodes are placed in depth-first order from the root,
// 0-branch first, so a query's next node is often in the same or the next
// cache line (the canonical file order scatters a path over the array).
func NewSet(d *Diagram, info Info) (*Set, error) {
	if d.ZDD {
		return nil, errors.New("membership queries need a BDD, not a ZDD")
	}
	s := &Set{info: info}
	if s.info.Order.Bits == nil {
		s.info.Order = d.Order
	}
	s.enc, s.n, s.k = info.Encoding, info.Rows*info.Cols, info.Cells
	if sh := cellShifts(d.Order); sh != nil {
		s.shifts = sh
		s.cells, s.root = buildCells(d, sh)
		return s, nil
	}
	s.nodes = make([]qnode, len(d.Nodes))
	hugemem.Slice(s.nodes)
	pos := make([]uint32, len(d.Nodes)) // old id -> new id (0: not placed)
	pos[True] = True
	next := uint32(2)
	// Pass 1: preorder numbering.
	stack := []uint32{d.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n < 2 || pos[n] != 0 {
			continue
		}
		pos[n] = next
		next++
		stack = append(stack, d.Nodes[n].Hi, d.Nodes[n].Lo)
	}
	// Pass 2: fill the nodes with their children's new ids.
	for old := 2; old < len(d.Nodes); old++ {
		nd := d.Nodes[old]
		s.nodes[pos[old]] = qnode{kid: [2]uint32{pos[nd.Lo], pos[nd.Hi]}, shift: d.Order.Bits[nd.Level]}
	}
	s.root = pos[d.Root]
	return s, nil
}

// ErrTooBig marks a diagram whose load would not fit the memory available.
var ErrTooBig = errors.New("BDD too big for the memory available")

// OpenOptions tune OpenWith.
type OpenOptions struct {
	// Available is the memory the load may take, bytes (0: what the
	// machine has available when it starts).
	Available uint64
	// Note, when set, hears before a load of a GiB or more what it will
	// take, and after it how the set was laid out.
	Note func(string)
}

// Open loads a BDD file straight into a query structure (OpenWith, the
// machine's memory its limit).
func Open(path string) (*Set, error) { return OpenWith(path, OpenOptions{}) }

// OpenWith loads a BDD file into a query structure. A file of format 3 or
// 4 is decoded from a stream straight into its nodes (decodeLean: 12
// bytes a node, and 16 a node with several parents while it loads),
// checked as Load checks it, in the same pass; the nodes are then laid out
// for queries as NewSet does if that fits the memory left, else used where
// they lie, one flat array in the file's order (node by node, as the
// bit-plane orders are queried). It refuses
// with ErrTooBig a diagram whose load would take more memory than is
// available: before reading the payload when the nodes alone would, else
// as soon as its shared nodes do.
func OpenWith(path string, o OpenOptions) (*Set, error) {
	if IsMapped(path) {
		return openMapped(path, o.Note)
	}
	in, err := ReadInfo(path)
	if err != nil {
		return nil, err
	}
	if in.ZDD {
		return nil, fmt.Errorf("%s: holds a ZDD; membership queries need a BDD", path)
	}
	if in.Version == bddV2 { // the old payload: decoded whole, as ever
		d, in, err := Load(path)
		if err != nil {
			return nil, err
		}
		return NewSet(d, in)
	}
	avail := o.Available
	if avail == 0 {
		_, avail = sysprobe.Machine()
	}
	n := in.Nodes
	least, most := leanPeak(n, 0), leanPeak(n, n) // which nodes are shared is known only once read
	if avail > 0 && least > avail {
		return nil, fmt.Errorf("%s: %w: loading its %d nodes takes at least %.1f GiB, %.1f GiB are available", path, ErrTooBig, n, gib(least), gib(avail))
	}
	note := func(format string, a ...any) {
		if o.Note != nil && least >= 1<<30 {
			o.Note(fmt.Sprintf(format, a...))
		}
	}
	note("%s: loading %d nodes: %.1f GiB, and while it loads 16 bytes more a node with several parents (at most %.1f GiB in all; %.1f GiB available); about %.0f s",
		path, n, gib(least), gib(most), gib(avail), float64(in.FileSize)/12e6)
	start := time.Now()
	d, in, err := loadStream(path, in, avail)
	if err != nil {
		return nil, err
	}
	// What is left after the nodes (known: a limit was given or probed).
	a, known := o.Available-min(o.Available, 12*(n+2)), o.Available > 0
	if !known {
		debug.FreeOSMemory() // the decoder's ids and bitmaps go back first
		_, a = sysprobe.Machine()
		known = a > 0
	}
	var more uint64 // what NewSet's layout takes beside the nodes
	if cellShifts(d.Order) != nil {
		var first uint64 // nodes on a cell's first level: each is a 16-way node
		for _, nd := range d.Nodes[2:] {
			if nd.Level%4 == 0 {
				first++
			}
		}
		more = 4*(n+2) + 64*first
		if !known || more <= a { // it may fit: count the 16-way nodes
			more = 4*(n+2) + 64*uint64(cellCount(d))
		}
	} else {
		more = 16 * (n + 2)
	}
	if known && more > a {
		note("%s: loaded in %.0f s; the nodes are queried where they lie (the faster layout would take %.1f GiB more, %.1f GiB are available)",
			path, time.Since(start).Seconds(), gib(more), gib(a))
		return flatSet(d, in), nil
	}
	s, err := NewSet(d, in)
	note("%s: loaded and laid out in %.0f s", path, time.Since(start).Seconds())
	return s, err
}

func gib(b uint64) float64 { return float64(b) / (1 << 30) }

// The flat layout reuses the decoded nodes as the query nodes, the level
// replaced by the key bit it tests: the two types are laid out alike.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(qnode{})-unsafe.Sizeof(Node{})]
	_ = [1]struct{}{}[unsafe.Offsetof(qnode{}.shift)-unsafe.Offsetof(Node{}.Level)]
	_ = [1]struct{}{}[unsafe.Offsetof(qnode{}.kid)-unsafe.Offsetof(Node{}.Lo)]
)

// flatSet turns the diagram's nodes into the query nodes in place (d is
// spent): node ids stay, children first, the root last.
func flatSet(d *Diagram, in Info) *Set {
	for i := 2; i < len(d.Nodes); i++ {
		d.Nodes[i].Level = d.Order.Bits[d.Nodes[i].Level]
	}
	s := &Set{info: in, root: d.Root, enc: in.Encoding, n: in.Rows * in.Cols, k: in.Cells}
	s.nodes = unsafe.Slice((*qnode)(unsafe.Pointer(unsafe.SliceData(d.Nodes))), len(d.Nodes))
	d.Nodes = nil
	return s
}

// Info returns what the file said about the set.
func (s *Set) Info() Info { return s.info }

// Contains reports whether the board with this key (a full key of the
// board: encode.Board.Key) is in the set once projected onto the set's
// cells. The projection is implicit: the diagram only tests the low bits.
func (s *Set) Contains(key uint64) bool {
	if s.enc != Cells {
		key = s.enc.Convert(key, s.n, s.k)
	}
	n := s.root
	if s.cells != nil {
		cells := s.cells
		for _, sh := range s.shifts {
			if n < 2 {
				break
			}
			n = cells[n][key>>sh&15]
		}
		return n == True
	}
	if s.pairs != nil {
		pairs, shift := s.pairs, s.chunkShift
		for n > 1 {
			p := &pairs[n]
			if key>>shift[n>>chunkBits]&1 == 0 {
				n = p.lo
			} else {
				n = p.hi
			}
		}
		return n == True
	}
	nodes := s.nodes
	for n > 1 {
		q := &nodes[n]
		n = q.kid[key>>q.shift&1]
	}
	return n == True
}

// Cursor answers queries for a stream of keys that differ little from one
// query to the next (an IDA* search: one move changes two cells). It keeps
// the path of the last query and restarts from the first node whose bit
// changed. A Cursor is not safe for concurrent use; make one per search.
type Cursor struct {
	s       *Set
	level   [64]uint8 // level of each key bit
	path    [65]uint32
	plevel  [65]uint8 // level tested at path[i] (64 = terminal)
	depth   int       // path[0..depth] valid; path[depth] is the terminal
	last    uint64
	mask    uint64
	started bool
	Skipped int64 // levels not walked thanks to the shared prefix
}

// NewCursor returns a cursor over s.
func (s *Set) NewCursor() *Cursor {
	c := &Cursor{s: s}
	L := s.info.Order.Vars()
	for lv, b := range s.info.Order.Bits {
		c.level[b] = uint8(lv)
	}
	c.mask = ^uint64(0)
	if L < 64 {
		c.mask = 1<<uint(L) - 1
	}
	for j, sh := range s.shifts {
		for b := sh; b < sh+4; b++ {
			c.level[b] = uint8(j) // cell layout: the step instead of the level
		}
	}
	return c
}

// Contains is Set.Contains using the previous query's path.
func (c *Cursor) Contains(key uint64) bool {
	if c.s.enc != Cells {
		key = c.s.enc.Convert(key, c.s.n, c.s.k)
	}
	key &= c.mask
	i := 0
	if c.started {
		diff := key ^ c.last
		if diff == 0 {
			return c.path[c.depth] == True
		}
		first := uint8(255)
		for diff != 0 {
			b := bits.TrailingZeros64(diff)
			diff &= diff - 1
			first = min(first, c.level[b])
		}
		// keep the path up to the first node testing a changed bit.
		for i < c.depth && c.plevel[i] < first {
			i++
		}
		c.Skipped += int64(i)
	} else {
		c.path[0] = c.s.root
		c.started = true
	}
	c.last = key
	if c.s.cells != nil {
		cells, shifts := c.s.cells, c.s.shifts
		n := c.path[i]
		for n > 1 {
			c.plevel[i] = uint8(i)
			n = cells[n][key>>shifts[i]&15]
			i++
			c.path[i] = n
		}
		c.plevel[i] = 64
		c.depth = i
		return n == True
	}
	if pairs, shift := c.s.pairs, c.s.chunkShift; pairs != nil {
		n := c.path[i]
		for n > 1 {
			sh := shift[n>>chunkBits]
			c.plevel[i] = c.level[sh]
			if key>>sh&1 == 0 {
				n = pairs[n].lo
			} else {
				n = pairs[n].hi
			}
			i++
			c.path[i] = n
		}
		c.plevel[i] = 64
		c.depth = i
		return n == True
	}
	nodes := c.s.nodes
	n := c.path[i]
	for n > 1 {
		q := &nodes[n]
		c.plevel[i] = c.level[q.shift]
		n = q.kid[key>>q.shift&1]
		i++
		c.path[i] = n
	}
	c.plevel[i] = 64
	c.depth = i
	return n == True
}
