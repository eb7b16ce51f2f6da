package bdd

import (
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"

	"github.com/dalzilio/rudd"
)

// Rudd is a set held as a rudd BDD (rudd variable i is level i of the
// order); several Rudds share one BDD after Import, Union or Difference.
//
// rudd (v1.1.0, and upstream's later fix, which locks the finalizer but not
// the increment) counts the references to a node it returns with a Go
// finalizer: the finalizer goroutine decrements the count in rudd's node
// table while rudd's operations and collector read and write that table on
// the caller's goroutine, a data race that can corrupt the diagram. So Rudd
// clears that finalizer on every node rudd hands it, before any Go
// collection can queue it: those counts only grow and no finalizer ever
// runs on a Rudd's BDD. The price: rudd never frees a node a Rudd has
// received until every Rudd of that BDD is garbage (rudd's own collector
// still frees the intermediate nodes of an operation, on the caller's
// goroutine), and the BDD's table is sized from the node count when it is
// known. The rudd BDD is not exposed, since a node got from it directly
// would carry the finalizer again. Like rudd, a Rudd (and every Rudd sharing
// its BDD) is for one goroutine at a time.
type Rudd struct {
	Order Order
	b     *rudd.BDD
	root  rudd.Node
}

// own clears the finalizer rudd set on a node it returned (see Rudd). Nodes
// rudd does not count (the constants, variables and nodes at its maximal
// count) have none, which SetFinalizer(n, nil) allows.
func own(n rudd.Node) rudd.Node {
	if n != nil && *n > 1 {
		runtime.SetFinalizer(n, nil)
	}
	return n
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
	return own(m.b.Ite(m.vars[level], hi, lo))
}

// newRuddBDD makes a rudd BDD with room for nodes decision nodes besides its
// variables, so that building that many never starts rudd's collector.
func newRuddBDD(o Order, nodes int) (*rudd.BDD, []rudd.Node, error) {
	b, err := rudd.New(o.Vars(), rudd.Nodesize(2*o.Vars()+2+max(nodes, 0)), rudd.Cachesize(1<<16))
	if err != nil {
		return nil, nil, err
	}
	vars := make([]rudd.Node, o.Vars())
	for i := range vars {
		vars[i] = b.Ithvar(i) // variables are not counted: no finalizer
	}
	return b, vars, nil
}

// BuildRudd builds the rudd BDD of a set of keys bottom-up from the sorted
// keys (the same incremental construction as Build) and checks that rudd's
// satcount equals the number of keys.
func BuildRudd(keys []uint64, o Order) (*Rudd, error) {
	return buildRudd(keys, o, len(keys)/2)
}

// buildRudd is BuildRudd with room for nodes decision nodes (the builder
// makes no node outside the final diagram, so its node count when known).
func buildRudd(keys []uint64, o Order, nodes int) (*Rudd, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	b, vars, err := newRuddBDD(o, nodes)
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
	r := &Rudd{Order: o, b: b, root: inc.finish()}
	if b.Errored() {
		return nil, fmt.Errorf("rudd: %s", b.Error())
	}
	if n := r.Satcount(); n.Cmp(new(big.Int).SetUint64(uint64(len(s)))) != 0 {
		return nil, fmt.Errorf("rudd satcount %v differs from the %d keys", n, len(s))
	}
	return r, nil
}

// Satcount is rudd's member count.
func (r *Rudd) Satcount() *big.Int { return r.b.Satcount(r.root) }

// NodeCount counts the decision nodes reachable from the root.
func (r *Rudd) NodeCount() int {
	n := 0
	r.b.Allnodes(func(id, _, _, _ int) error {
		if id > 1 {
			n++
		}
		return nil
	}, r.root)
	return n
}

// Diagram converts to our representation (for saving).
func (r *Rudd) Diagram() (*Diagram, error) {
	type raw struct{ id, level, lo, hi int }
	var all []raw
	err := r.b.Allnodes(func(id, level, lo, hi int) error {
		if id > 1 {
			all = append(all, raw{id, level, lo, hi})
		}
		return nil
	}, r.root)
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
	d.Root = ids[*r.root]
	c := r.Satcount()
	if !c.IsUint64() {
		return nil, fmt.Errorf("member count %v too large", c)
	}
	d.Count = c.Uint64()
	return d, d.check()
}

// ToRudd loads a diagram into a fresh rudd BDD sized for its nodes.
func (d *Diagram) ToRudd() (*Rudd, error) {
	if d.ZDD {
		return nil, fmt.Errorf("rudd holds BDDs, not ZDDs")
	}
	b, vars, err := newRuddBDD(d.Order, len(d.Nodes)-2)
	if err != nil {
		return nil, err
	}
	r := &Rudd{Order: d.Order, b: b}
	return r.load(d, vars)
}

// Import copies another diagram (same order) into r's rudd BDD, so that the
// two sets can be combined.
func (r *Rudd) Import(d *Diagram) (*Rudd, error) {
	if !slices.Equal(d.Order.Bits, r.Order.Bits) {
		return nil, fmt.Errorf("variable orders differ (%s vs %s)", d.Order.Name, r.Order.Name)
	}
	if d.ZDD {
		return nil, fmt.Errorf("rudd holds BDDs, not ZDDs")
	}
	vars := make([]rudd.Node, d.Order.Vars())
	for i := range vars {
		vars[i] = r.b.Ithvar(i)
	}
	return r.load(d, vars)
}

// load builds d's nodes children-first in r's BDD.
func (r *Rudd) load(d *Diagram, vars []rudd.Node) (*Rudd, error) {
	ref := make([]rudd.Node, len(d.Nodes))
	ref[False], ref[True] = r.b.False(), r.b.True()
	for i := 2; i < len(d.Nodes); i++ {
		nd := d.Nodes[i]
		ref[i] = own(r.b.Ite(vars[nd.Level], ref[nd.Hi], ref[nd.Lo]))
	}
	return r.with(ref[d.Root])
}

// with is the set n of r's BDD, or rudd's error.
func (r *Rudd) with(n rudd.Node) (*Rudd, error) {
	if n == nil || r.b.Errored() {
		return nil, fmt.Errorf("rudd: %s", r.b.Error())
	}
	return &Rudd{Order: r.Order, b: r.b, root: n}, nil
}

var errOtherBDD = errors.New("the sets are held in different rudd BDDs (Import one into the other's)")

// Union is the union of r's and o's sets. It, Difference, SubsetOf and
// Equal combine sets held in the same rudd BDD (Import puts one there).
func (r *Rudd) Union(o *Rudd) (*Rudd, error) {
	if o.b != r.b {
		return nil, errOtherBDD
	}
	return r.with(own(r.b.Or(r.root, o.root)))
}

// Difference is r's set without o's.
func (r *Rudd) Difference(o *Rudd) (*Rudd, error) {
	if o.b != r.b {
		return nil, errOtherBDD
	}
	not, err := r.with(own(r.b.Not(o.root)))
	if err != nil {
		return nil, err
	}
	return r.with(own(r.b.And(r.root, not.root)))
}

// SubsetOf reports whether r's set is contained in o's.
func (r *Rudd) SubsetOf(o *Rudd) (bool, error) {
	d, err := r.Difference(o)
	if err != nil {
		return false, err
	}
	return *d.root == 0, nil
}

// Equal reports whether r and o hold the same set (rudd's diagrams are
// canonical: the same set is the same node).
func (r *Rudd) Equal(o *Rudd) (bool, error) {
	if o.b != r.b {
		return false, errOtherBDD
	}
	return *r.root == *o.root, nil
}
