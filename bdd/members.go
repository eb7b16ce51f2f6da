package bdd

import "errors"

// Members calls yield with each member of the BDD d as its level-order
// number (the variable of level 0 the most significant bit, level L-1 the
// least: under the natural order, the key itself), in increasing order,
// and stops early when yield returns false. It returns false if stopped.
// A variable no node tests on a path is both 0 and 1 there.
func (d *Diagram) Members(yield func(uint64) bool) (bool, error) {
	if d.ZDD {
		return false, errors.New("members of a ZDD are not listed")
	}
	L := d.Order.Vars()
	if L > 64 || L == 64 && d.Root == True { // 2^64 members: no counter ends
		return false, errOverflow
	}
	level := func(n uint32) int { return int(d.Nodes[n].Level) }
	kids := func(n uint32) (uint32, uint32) { return d.Nodes[n].Lo, d.Nodes[n].Hi }
	return listMembers(L, d.Root, level, kids, yield), nil
}

// listMembers lists the members below root (see Diagram.Members) of a
// diagram of L levels whose nodes level and kids describe; false if yield
// stopped it.
func listMembers(L int, root uint32, level func(uint32) int, kids func(uint32) (lo, hi uint32), yield func(uint64) bool) bool {
	// walk lists the members below node n, entered at level lv with the
	// bits above it in prefix (lv bits).
	var walk func(n uint32, lv int, prefix uint64) bool
	walk = func(n uint32, lv int, prefix uint64) bool {
		if n == False {
			return true
		}
		stop := L // the level of n: skipped variables above it take both values
		if n != True {
			stop = level(n)
		}
		free := stop - lv
		for v := uint64(0); v < 1<<free; v++ {
			p := prefix<<free | v
			if n == True {
				if !yield(p) {
					return false
				}
				continue
			}
			lo, hi := kids(n)
			if !walk(lo, stop+1, p<<1) || !walk(hi, stop+1, p<<1|1) {
				return false
			}
		}
		return true
	}
	return walk(root, 0, 0)
}

// IsKeyOrder reports whether Position is the identity: level l tests bit
// L-1-l (the natural order, most significant bit first).
func (o Order) IsKeyOrder() bool {
	L := len(o.Bits)
	for l, b := range o.Bits {
		if int(b) != L-1-l {
			return false
		}
	}
	return true
}
