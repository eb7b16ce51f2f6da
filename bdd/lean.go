package bdd

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/internal/hugemem"
)

// The lean decode: a version 3 or 4 BDD payload read from a stream
// straight into the Diagram's nodes, allocated once at their count, with
// the checks Decode makes done in the same pass, so that a diagram of
// 775 M nodes loads in about 12 bytes a node where Load and NewSet take
// 40 and more (the file image, per-node marks and counts, the layout's
// renumbering), and touches memory at random only where the stream refers
// back (a pass over the nodes that looked up each child would miss the
// cache at every one of them). Besides the nodes it holds, per node with
// more than one parent ("shared", about 6% of Gap6_10's), its id, its
// member count and a bit saying it was referred back to: 12 bytes and a
// bit, in blocks (no growing slice copies itself, which on a heap this size
// would leave gigabytes of garbage behind).

// blockSize is the block size of blockList.
const blockSize = 1 << 16

// blockList is a list grown in blocks.
type blockList[T any] struct {
	blocks [][]T
	n      uint64
}

func (l *blockList[T]) add(v T) {
	k := len(l.blocks) - 1
	if k < 0 || len(l.blocks[k]) == blockSize {
		c := blockSize
		if k < 0 {
			c = 16 // the first block grows as a slice does: small levels stay small
		}
		l.blocks = append(l.blocks, make([]T, 0, c))
		k++
	}
	l.blocks[k] = append(l.blocks[k], v)
	l.n++
}

func (l *blockList[T]) at(i uint64) *T { return &l.blocks[i/blockSize][i%blockSize] }

// sharedNode is what the decode keeps of a node with more than one parent:
// its id, its count scaled to the root's variable (see decodeLean) and
// whether a later node referred back to it.
type sharedNode struct {
	id    uint32
	back  bool
	count uint64
}

// leanPeak is the most memory decodeLean holds for a diagram of n nodes,
// shared of them reached from more than one parent (at most n).
func leanPeak(n, shared uint64) uint64 {
	return 12*(n+2) + 16*shared
}

// decodeLean reads a version 3 or 4 payload of a BDD from br into a
// Diagram (Order, Root and Count from in) and checks what Decode checks,
// in the one pass: reachability, children first and levels down hold by
// construction; the reduction rule per node; the shared flags (a node not
// flagged cannot be referred back to, so it has one parent; one flagged
// must be referred back to at least once); the member count; the widest
// level. The count is kept scaled to the root's variable (times 2^level):
// a parent at level l sees a child's count times 2^(level-l-1), so its own
// scaled count is the sum of its children's halves whatever levels they
// skip, and the root's is the set's member count. A node of level l holds
// at most 2^(L-l) - 1 assignments, so no scaled count reaches 2^L and no
// sum overflows. It stops with ErrTooBig once its shared nodes take it
// past limit bytes (leanPeak; 0: no limit).
func decodeLean(br *bitReader, in Info, limit uint64) (*Diagram, error) {
	d, _, err := leanWalk(br, in, limit, true)
	return d, err
}

// leanWalk is decodeLean, keeping the nodes only if keep (else the
// Diagram holds the terminals alone, and the walk checks the file in the
// memory of its shared nodes: Check), and returning the nodes per level
// (level 0 first).
func leanWalk(br *bitReader, in Info, limit uint64, keep bool) (*Diagram, []uint64, error) {
	if in.ZDD || in.Version < bddV3 {
		return nil, nil, fmt.Errorf("the lean decode reads BDDs of format 3 and 4, not a ZDD or version %d", in.Version)
	}
	n := in.Nodes
	// A node takes at least 2 bits: refuse counts the payload cannot hold
	// before allocating for them.
	if n > 8*in.PayloadSize || n > maxNarrow {
		return nil, nil, fmt.Errorf("%d nodes cannot fit in %d payload bytes", n, in.PayloadSize)
	}
	L := in.Order.Vars()
	rank, newC, backC, idx, err := readCodes(br, L)
	if err != nil {
		return nil, nil, err
	}
	d := &Diagram{Order: in.Order, Count: in.Count, Root: uint32(in.Root)}
	if keep {
		d.Nodes = make([]Node, 2, n+2)
		hugemem.Slice(d.Nodes) // read in random order by queries and Members
	} else {
		d.Nodes = make([]Node, 2)
	}
	read := uint64(0) // nodes read
	shared := make([]blockList[sharedNode], L)
	width := make([]uint64, L)
	var started, S uint64            // nodes begun, shared nodes read
	trueHalf := uint64(1) << (L - 1) // True seen from any level, scaled and halved
	errBad := errors.New("bad node stream")
	// node reads a node of level lv and returns its id and scaled count.
	var node func(lv int) (uint32, uint64)
	node = func(lv int) (uint32, uint64) {
		if started++; started > n { // before the nodes' array would have to grow
			br.err = fmt.Errorf("more nodes than the header's %d", n)
			return 0, 0
		}
		isShared := br.read(1) == 1
		var kids [2]uint32
		var count uint64
		for e := range kids {
			var c uint64
			switch rank[e].get(br) {
			case edgeFalse:
				kids[e] = False
			case edgeTrue:
				kids[e], c = True, trueHalf
			case edgeNew:
				cl := lv + 1 + int(newC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return 0, 0
				}
				kids[e], c = node(cl)
				c /= 2
			case edgeBack:
				cl := lv + 1 + int(backC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return 0, 0
				}
				i := idx[cl].get(br)
				if br.err != nil || i >= shared[cl].n {
					br.err = errBad
					return 0, 0
				}
				sn := shared[cl].at(shared[cl].n - 1 - i)
				sn.back = true
				kids[e], c = sn.id, sn.count/2
			}
			if br.err != nil {
				return 0, 0
			}
			count += c
		}
		if kids[0] == kids[1] {
			br.err = fmt.Errorf("level %d: both branches equal (not reduced)", lv)
			return 0, 0
		}
		id := uint32(read + 2)
		if read++; keep {
			d.Nodes = append(d.Nodes, Node{Lo: kids[0], Hi: kids[1], Level: uint8(lv)})
		}
		width[lv]++
		if isShared {
			shared[lv].add(sharedNode{id: id, count: count})
			if S++; S%blockSize == 0 && limit > 0 && walkPeak(keep, n, S) > limit {
				br.err = fmt.Errorf("%w: %d of its %d nodes read, %d of them shared, the load passes %.1f GiB",
					ErrTooBig, read, n, S, float64(limit)/(1<<30))
				return 0, 0
			}
		}
		return id, count
	}
	var total uint64
	switch {
	case n > 0:
		lv := newC.get(br)
		if br.err != nil || lv >= uint64(L) {
			return nil, nil, errBad
		}
		root, count := node(int(lv))
		if br.err != nil {
			return nil, nil, br.err
		}
		if d.Root != root {
			return nil, nil, fmt.Errorf("root is node %d, header says %d", root, d.Root)
		}
		if limit > 0 && walkPeak(keep, n, S) > limit {
			return nil, nil, fmt.Errorf("%w: %d of its nodes shared, the load would pass %.1f GiB", ErrTooBig, S, float64(limit)/(1<<30))
		}
		total = count
	case d.Root == True && L >= 64:
		return nil, nil, errOverflow
	case d.Root == True:
		total = 1 << L
	}
	if !br.rest() {
		return nil, nil, errors.New("payload has trailing data")
	}
	if read != n {
		return nil, nil, fmt.Errorf("payload holds %d nodes, header says %d", read, n)
	}
	for lv := range shared {
		for _, b := range shared[lv].blocks {
			for _, sn := range b {
				if !sn.back {
					return nil, nil, fmt.Errorf("node %d: flagged shared, but has one parent", sn.id)
				}
			}
		}
	}
	if total != in.Count {
		return nil, nil, fmt.Errorf("the diagram holds %d members, header says %d", total, in.Count)
	}
	if w := maxOf(width); in.Version >= bddVersion && w != in.WidestLevel {
		return nil, nil, fmt.Errorf("the widest level holds %d nodes, header says %d", w, in.WidestLevel)
	}
	return d, width, nil
}

func maxOf(s []uint64) uint64 {
	var m uint64
	for _, x := range s {
		m = max(m, x)
	}
	return m
}

// walkPeak is leanPeak, or with keep false the shared nodes alone.
func walkPeak(keep bool, n, shared uint64) uint64 {
	if keep {
		return leanPeak(n, shared)
	}
	return 16 * shared
}
