package bdd

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/dalzilio/rudd"
)

// Rudd is a set held as a rudd BDD. rudd variable i is level i of the
// order.
type Rudd struct {
	B     *rudd.BDD
	Root  rudd.Node
	Order Order
}

type ruddMaker struct {
	b    *rudd.BDD
	vars []rudd.Node
}

func (m ruddMaker) mk(level int, lo, hi rudd.Node) rudd.Node {
	if *lo == *hi {
		return lo
	}
	// ite(x, hi, lo) with x above both children is exactly one new node.
	return m.b.Ite(m.vars[level], hi, lo)
}

func newRuddBDD(o Order, nodeHint int) (*rudd.BDD, []rudd.Node, error) {
	b, err := rudd.New(o.Vars(), rudd.Nodesize(max(nodeHint, 2*o.Vars()+2)), rudd.Cachesize(1<<16))
	if err != nil {
		return nil, nil, err
	}
	vars := make([]rudd.Node, o.Vars())
	for i := range vars {
		vars[i] = b.Ithvar(i)
	}
	return b, vars, nil
}

// BuildRudd builds the rudd BDD of a set of keys bottom-up from the sorted
// keys (the same incremental construction as Build) and checks that rudd's
// satcount equals the number of keys.
func BuildRudd(keys []uint64, o Order) (*Rudd, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	b, vars, err := newRuddBDD(o, len(keys)/2)
	if err != nil {
		return nil, err
	}
	p := newPermuter(o)
	mask := ^uint64(0)
	if o.Vars() < 64 {
		mask = 1<<uint(o.Vars()) - 1
	}
	s := make([]uint64, len(keys))
	for i, k := range keys {
		s[i] = p.apply(k & mask)
	}
	slices.Sort(s)
	inc := newIncremental[rudd.Node](ruddMaker{b, vars}, o.Vars(), b.False(), b.True())
	for _, k := range s {
		if err := inc.add(k); err != nil {
			return nil, err
		}
	}
	r := &Rudd{B: b, Root: inc.finish(), Order: o}
	if b.Errored() {
		return nil, fmt.Errorf("rudd: %s", b.Error())
	}
	if n := r.Satcount(); n.Cmp(new(big.Int).SetUint64(uint64(len(s)))) != 0 {
		return nil, fmt.Errorf("rudd satcount %v differs from the %d keys", n, len(s))
	}
	return r, nil
}

// Satcount is rudd's member count.
func (r *Rudd) Satcount() *big.Int { return r.B.Satcount(r.Root) }

// NodeCount counts the decision nodes reachable from the root.
func (r *Rudd) NodeCount() int {
	n := 0
	r.B.Allnodes(func(id, _, _, _ int) error {
		if id > 1 {
			n++
		}
		return nil
	}, r.Root)
	return n
}

// Diagram converts to our representation (for saving).
func (r *Rudd) Diagram() (*Diagram, error) {
	type raw struct{ id, level, lo, hi int }
	var all []raw
	err := r.B.Allnodes(func(id, level, lo, hi int) error {
		if id > 1 {
			all = append(all, raw{id, level, lo, hi})
		}
		return nil
	}, r.Root)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b raw) int { return b.level - a.level }) // children first
	ids := make(map[int]uint32, len(all)+2)
	ids[0], ids[1] = False, True
	d := &Diagram{Order: r.Order, Nodes: make([]Node, 2, len(all)+2)}
	for _, n := range all {
		ids[n.id] = uint32(len(d.Nodes))
		d.Nodes = append(d.Nodes, Node{Lo: ids[n.lo], Hi: ids[n.hi], Level: uint8(n.level)})
	}
	d.Root = ids[*r.Root]
	c := r.Satcount()
	if !c.IsUint64() {
		return nil, fmt.Errorf("member count %v too large", c)
	}
	d.Count = c.Uint64()
	return d, d.check()
}

// ToRudd loads a diagram into a fresh rudd BDD.
func (d *Diagram) ToRudd() (*Rudd, error) {
	if d.ZDD {
		return nil, fmt.Errorf("rudd holds BDDs, not ZDDs")
	}
	b, vars, err := newRuddBDD(d.Order, len(d.Nodes))
	if err != nil {
		return nil, err
	}
	ref := make([]rudd.Node, len(d.Nodes))
	ref[False], ref[True] = b.False(), b.True()
	for i := 2; i < len(d.Nodes); i++ {
		nd := d.Nodes[i]
		ref[i] = b.Ite(vars[nd.Level], ref[nd.Hi], ref[nd.Lo])
	}
	if b.Errored() {
		return nil, fmt.Errorf("rudd: %s", b.Error())
	}
	return &Rudd{B: b, Root: ref[d.Root], Order: d.Order}, nil
}

// Union, Difference and Subset compare sets held in the same rudd BDD
// (build the second with FromDiagram into r.B, or use Import).
func (r *Rudd) Union(o rudd.Node) rudd.Node      { return r.B.Or(r.Root, o) }
func (r *Rudd) Difference(o rudd.Node) rudd.Node { return r.B.And(r.Root, r.B.Not(o)) }

// SubsetOf reports whether r's set is contained in the set o.
func (r *Rudd) SubsetOf(o rudd.Node) bool {
	return r.B.Equal(r.B.And(r.Root, r.B.Not(o)), r.B.False())
}

// Import copies another diagram (same order) into r's rudd BDD and returns
// its root, so the two sets can be combined.
func (r *Rudd) Import(d *Diagram) (rudd.Node, error) {
	if !slices.Equal(d.Order.Bits, r.Order.Bits) {
		return nil, fmt.Errorf("variable orders differ (%s vs %s)", d.Order.Name, r.Order.Name)
	}
	if d.ZDD {
		return nil, fmt.Errorf("rudd holds BDDs, not ZDDs")
	}
	vars := make([]rudd.Node, d.Order.Vars())
	for i := range vars {
		vars[i] = r.B.Ithvar(i)
	}
	ref := make([]rudd.Node, len(d.Nodes))
	ref[False], ref[True] = r.B.False(), r.B.True()
	for i := 2; i < len(d.Nodes); i++ {
		nd := d.Nodes[i]
		ref[i] = r.B.Ite(vars[nd.Level], ref[nd.Hi], ref[nd.Lo])
	}
	return ref[d.Root], nil
}
