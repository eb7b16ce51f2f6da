package bdd

import "errors"

// ZDDOf returns the ZDD of the same set under the same order, computed from
// the BDD's structure instead of its members. For a BDD node u at level l,
// Z(u) is the ZDD of u's function over the levels l..L-1; a parent at level
// p < l-1 sees u through levels p+1..l-1 that u does not test, which in a
// ZDD are explicit nodes with equal branches ("lift"). The nodes are
// hash-consed in our own table, so the result is reduced and canonical
// (the same as building the ZDD from the sorted keys).
func (d *Diagram) ZDDOf() (*Diagram, error) { return asDiagram(d.zddLevels()) }

// ZDDSize counts the nodes and the members of the ZDD of the same set and
// order without keeping it (ZDDOf less the 12 bytes per ZDD node of its
// one-array form).
func (d *Diagram) ZDDSize() (nodes int, members uint64, err error) {
	z, err := d.zddLevels()
	if err != nil {
		return 0, 0, err
	}
	members, err = z.SatCount()
	return z.NodeCount(), members, err
}

func (d *Diagram) zddLevels() (*LevelDiagram, error) {
	if d.ZDD {
		return nil, errors.New("already a ZDD")
	}
	L := d.Order.Vars()
	t := newTable(true, L)
	level := func(r uint32) int {
		if r < 2 {
			return L
		}
		return int(d.Nodes[r].Level)
	}
	z := make([]uint32, len(d.Nodes)) // z[u]: Z(u) seen from u's own level
	z[False], z[True] = False, True
	// lift is Z(r) seen from level `to` (to <= level(r)).
	lift := func(r uint32, to int) uint32 {
		v := z[r]
		for l := level(r) - 1; l >= to; l-- {
			v = t.mk(l, v, v) // False stays False (hi == False)
		}
		return v
	}
	for u := 2; u < len(d.Nodes); u++ {
		nd := d.Nodes[u]
		l := int(nd.Level)
		z[u] = t.mk(l, lift(nd.Lo, l+1), lift(nd.Hi, l+1))
	}
	root := lift(d.Root, 0)
	z = nil
	return t.finish(d.Order, root, d.Count)
}
