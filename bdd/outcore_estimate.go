package bdd

import (
	"fmt"
	"time"

	"github.com/gapset/gapset/internal/placement"
)

// Figures behind the estimates (NOTES.md, 2026-11-26, "BDDs without the
// level limit", and 2026-11-27): the diagrams of the gap sets measured so
// far hold 0.08 to 0.37 nodes a key of the set or of the patterns it
// misses, whichever is smaller (Gap4_10 in ranks 0.227, Gap6_10 0.156, the
// dense Gap8_8a 0.37 of its few missing patterns), so a quarter of the
// smaller is the guess. (A set's diagram is its complement's among all 2^L
// keys, the terminals swapped; that complement is the missing patterns and
// the keys that are no pattern, few nodes in the ranks encoding, more in
// cells: an assumption measured on one dense set.)
// the in-memory builder holds about 14 bytes a node and saving adds 4.4;
// the out-of-core build writes at most two streams of entries of about 5
// bytes (at most 10 for prefixes 8 bytes apart) at once, a level in parts
// 12 bytes more a prefix, and 8 bytes a node. The largest stream is the
// first, of level L-b after the bottom pass: one entry per distinct prefix
// of 4k-b bits (expectedPrefixes: for keys spread uniformly at their
// density, more than clustered ones make).
const (
	nodesPerKey      = 0.25
	inMemoryPerNode  = 14 + 4.4
	savePerNode      = 4.25 // the encoder's walk: a shared number and two bits a node
	scratchPerEntry  = 2*10 + 12
	outOfCorePerNode = 8
	// outOfCoreSecPerKey is the measured time of one out-of-core build a
	// key, BDD alone (noisy, shared machine: Gap2_10).
	outOfCoreSecPerKey = 1.0e-6
)

// Estimate is what a build of a key-set file is expected to take.
type Estimate struct {
	Keys     uint64
	Nodes    uint64 // a guess (a quarter of the keys, or of the patterns not in the set if fewer)
	Bottom   int    // levels the bottom pass makes in memory (if they fit the budget)
	Entries  uint64 // of the first stream written: the prefixes above those levels
	InMemory int64  // bytes the in-memory build would hold at its peak
	Memory   int64  // bytes the out-of-core build holds: its budget and the save
	Disk     int64  // scratch bytes of the out-of-core build, if the bottom levels fit
	// DiskAll is the scratch if they do not (every level from the keys:
	// the first stream about one entry a key).
	DiskAll int64
	Time    time.Duration
}

// EstimateBuild estimates both builds of keys keys of k of n cells; zdd:
// the ZDD is counted too (a second build).
func EstimateBuild(keys uint64, n, k int, zdd bool, oc OutOfCore) Estimate {
	// the smaller of the set and its complement among the patterns
	all := uint64(placement.Size(n, k))
	fewer := min(keys, all-min(keys, all))
	nodes := uint64(float64(fewer) * nodesPerKey)
	b := bottomLevels(keys, n, k, oc.Bottom)
	entries := uint64(expectedPrefixes(keys, n, k, b))
	e := Estimate{Keys: keys, Nodes: nodes, Bottom: b, Entries: entries,
		InMemory: int64(float64(nodes) * inMemoryPerNode),
		Memory:   oc.Memory + int64(float64(nodes)*savePerNode),
		Disk:     int64(entries)*scratchPerEntry + int64(nodes)*outOfCorePerNode,
		DiskAll:  int64(keys)*scratchPerEntry + int64(nodes)*outOfCorePerNode,
		Time:     time.Duration(float64(keys) * outOfCoreSecPerKey * float64(time.Second)),
	}
	if zdd {
		e.Time *= 2
	}
	return e
}

func (e Estimate) String() string {
	gib := func(b int64) float64 { return float64(b) / (1 << 30) }
	return fmt.Sprintf("estimate: %d keys, about %.3g nodes (a quarter of the keys or of the patterns missing, if fewer; the gap sets measured hold 0.08-0.37), "+
		"in memory %.1f GiB; out of core %.1f GiB of memory (the level budget, then the save), "+
		"the deepest %d levels in one pass (fewer if they pass the budget), scratch disk about %.1f GiB (first stream about %.3g entries; "+
		"up to %.1f GiB if the deepest levels do not fit), time about %v",
		e.Keys, float64(e.Nodes), gib(e.InMemory), gib(e.Memory), e.Bottom, gib(e.Disk), float64(e.Entries), gib(e.DiskAll), e.Time.Round(time.Second))
}
