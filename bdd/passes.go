package bdd

import (
	"errors"
	"fmt"
	"slices"
)

// ErrBudget marks a memory budget too small for the keys that share the
// leading bits BuildPasses splits on.
var ErrBudget = errors.New("memory budget too small")

// KeyPass reads every key of a set once, in any order, calling add for each.
// BuildPasses calls it several times (a key-set file can be re-read).
type KeyPass func(add func(key uint64)) error

// prefixBits is how many leading bits of the permuted bit strings pick a
// bucket: 2^16 buckets, few enough for a histogram, many enough that the
// buckets of the gap sets are small and sort in cache.
const prefixBits = 16

// BuildPasses builds the BDD (and, with alsoZDD, the ZDD) of a set too big
// to sort in memory, under any order, holding at most maxKeys keys at once.
// A first pass counts the keys per bucket (the leading bits of the permuted
// bit strings); then each run of consecutive buckets that fits in maxKeys
// is collected in one more pass, placed bucket by bucket (a counting sort
// on the prefix), each bucket sorted, and the whole run fed in order to
// the builders. The set is read 1 + ceil(total/maxKeys) times or so; no
// scratch files. The ZDD is nil unless alsoZDD.
func BuildPasses(pass KeyPass, o Order, alsoZDD bool, maxKeys int, progress Progress) (bddD, zddD *Diagram, err error) {
	lb, lz, err := buildPasses(pass, o, alsoZDD, maxKeys, progress)
	if err != nil {
		return nil, nil, err
	}
	if lz != nil {
		zddD = lz.Diagram()
	}
	return lb.Diagram(), zddD, nil
}

func buildPasses(pass KeyPass, o Order, alsoZDD bool, maxKeys int, progress Progress) (bddD, zddD *LevelDiagram, err error) {
	b, err := NewBuilder(o, false)
	if err != nil {
		return nil, nil, err
	}
	builders := []*Builder{b}
	if alsoZDD {
		z, _ := NewBuilder(o, true)
		builders = append(builders, z)
	}
	L := o.Vars()
	pb := min(prefixBits, L)
	shift := uint(L - pb)
	nb := 1 << uint(pb)
	report := func(stage string, done, total uint64) {
		if progress != nil {
			progress(stage, done, total)
		}
	}

	hist := make([]uint64, nb+1)
	var total uint64
	report("counting", 0, 0)
	if err := pass(func(key uint64) {
		hist[b.Permute(key)>>shift]++
		total++
		if total&(1<<24-1) == 0 {
			report(fmt.Sprintf("counting: %d keys", total), total, 0)
		}
	}); err != nil {
		return nil, nil, err
	}
	// Runs of consecutive buckets, each at most maxKeys keys.
	type run struct{ lo, hi int }
	var runs []run
	biggest := uint64(0)
	for lo := 0; lo < nb; {
		hi := lo
		var n uint64
		for hi < nb && (hi == lo || n+hist[hi] <= uint64(maxKeys)) {
			n += hist[hi]
			hi++
		}
		if n > uint64(maxKeys) {
			return nil, nil, fmt.Errorf("%w: room for %d keys, but %d keys share the first %d bits of the order", ErrBudget, maxKeys, n, pb)
		}
		runs = append(runs, run{lo, hi})
		biggest = max(biggest, n)
		lo = hi
	}
	buf := make([]uint64, biggest)
	start := make([]uint64, nb+1) // start[d]: where bucket d begins in buf for the current run
	var fed uint64
	for ri, r := range runs {
		stage := fmt.Sprintf("pass %d/%d", ri+1, len(runs))
		var n uint64
		for d := r.lo; d < r.hi; d++ {
			start[d] = n
			n += hist[d]
		}
		start[r.hi] = n
		fill := slices.Clone(start[r.lo : r.hi+1])
		report(stage+" reading", fed, total)
		var overflow bool
		var seen uint64
		if err := pass(func(key uint64) {
			if seen++; seen&(1<<24-1) == 0 {
				report(stage+" reading", seen, total)
			}
			s := b.Permute(key)
			d := int(s >> shift)
			if d < r.lo || d >= r.hi {
				return
			}
			i := &fill[d-r.lo]
			if *i >= start[d+1] {
				overflow = true // the set changed between passes
				return
			}
			buf[*i] = s
			*i++
		}); err != nil {
			return nil, nil, err
		}
		for d := r.lo; d < r.hi; d++ {
			if overflow || fill[d-r.lo] != start[d+1] {
				return nil, nil, fmt.Errorf("the keys changed between passes (bucket %d)", d)
			}
		}
		report(stage+" sorting", fed, total)
		for d := r.lo; d < r.hi; d++ {
			slices.Sort(buf[start[d]:start[d+1]])
		}
		report(stage+" building", fed, total)
		for i, s := range buf[:n] {
			for _, bl := range builders {
				if err := bl.AddPermuted(s); err != nil {
					return nil, nil, err
				}
			}
			if i&(1<<22-1) == 0 {
				report(stage+" building", fed+uint64(i), total)
			}
		}
		fed += n
	}
	if bddD, err = b.Finish(); err != nil {
		return nil, nil, err
	}
	if alsoZDD {
		if zddD, err = builders[1].Finish(); err != nil {
			return nil, nil, err
		}
	}
	return bddD, zddD, nil
}
