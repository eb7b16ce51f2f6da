package bdd

import (
	"errors"
	"fmt"
	"slices"
)

// Diagram is a reduced BDD (or ZDD) in memory: Nodes[2:] in children-first
// order (every child reference is smaller than its parent's index),
// Nodes[0] and Nodes[1] unused placeholders for the terminals False and
// True. Every node is reachable from Root.
type Diagram struct {
	Order Order
	Nodes []Node
	Root  uint32
	ZDD   bool
	Count uint64 // members (patterns): the keys it was built from
}

// NodeCount is the number of decision nodes (terminals not counted).
func (d *Diagram) NodeCount() int { return len(d.Nodes) - 2 }

var errOverflow = errors.New("member count overflows 64 bits")

// SatCount counts the members from the structure alone (assignments of all
// Vars() variables for a BDD; sets for a ZDD).
func (d *Diagram) SatCount() (uint64, error) { return satCount(diagramView{d}) }

// Contains walks the diagram for a key (projected onto the order's bits).
// It is the reference walk the tests compare the fast structures against.
func (d *Diagram) Contains(key uint64) bool {
	n := d.Root
	L := d.Order.Vars()
	if d.ZDD {
		// every variable skipped on the way must be 0.
		lv := 0
		for n > 1 {
			nd := d.Nodes[n]
			for ; lv < int(nd.Level); lv++ {
				if key>>d.Order.Bits[lv]&1 != 0 {
					return false
				}
			}
			if key>>d.Order.Bits[lv]&1 != 0 {
				n = nd.Hi
			} else {
				n = nd.Lo
			}
			lv++
		}
		for ; n == True && lv < L; lv++ {
			if key>>d.Order.Bits[lv]&1 != 0 {
				return false
			}
		}
		return n == True
	}
	for n > 1 {
		nd := d.Nodes[n]
		if key>>d.Order.Bits[nd.Level]&1 != 0 {
			n = nd.Hi
		} else {
			n = nd.Lo
		}
	}
	return n == True
}

// check validates the structure: order, levels increasing towards the
// terminals, children-first references, reduction rule, reachability.
func (d *Diagram) check() error {
	if err := d.Order.Validate(); err != nil {
		return err
	}
	L := d.Order.Vars()
	if len(d.Nodes) < 2 || int(d.Root) >= len(d.Nodes) {
		return fmt.Errorf("root %d out of range", d.Root)
	}
	for i := 2; i < len(d.Nodes); i++ {
		nd := d.Nodes[i]
		if int(nd.Level) >= L {
			return fmt.Errorf("node %d: level %d beyond %d variables", i, nd.Level, L)
		}
		for _, c := range [2]uint32{nd.Lo, nd.Hi} {
			if c >= uint32(i) {
				return fmt.Errorf("node %d: child %d is not earlier", i, c)
			}
			if c > 1 && d.Nodes[c].Level <= nd.Level {
				return fmt.Errorf("node %d: child %d not below it", i, c)
			}
		}
		if !d.ZDD && nd.Lo == nd.Hi {
			return fmt.Errorf("node %d: both branches equal (not reduced)", i)
		}
		if d.ZDD && nd.Hi == False {
			return fmt.Errorf("node %d: 1-branch is False (not zero-suppressed)", i)
		}
	}
	seen := make([]bool, len(d.Nodes))
	seen[d.Root] = true
	reached := 0
	for i := len(d.Nodes) - 1; i >= 2; i-- {
		if !seen[i] {
			continue
		}
		reached++
		seen[d.Nodes[i].Lo] = true
		seen[d.Nodes[i].Hi] = true
	}
	if reached != len(d.Nodes)-2 {
		return fmt.Errorf("%d of %d nodes unreachable from the root", len(d.Nodes)-2-reached, len(d.Nodes)-2)
	}
	return nil
}

// decode inverts the version 2 child code: terminals keep 0 and 1, other
// nodes count down from S-1 (see format.go).
func decode(c uint64, S uint32) (uint32, bool) {
	if c < 2 {
		return uint32(c), true
	}
	if c-2 >= uint64(S)-2 || S < 2 {
		return 0, false
	}
	return S - 1 - uint32(c-2), true
}

func sortUint64(s []uint64) { slices.Sort(s) }
