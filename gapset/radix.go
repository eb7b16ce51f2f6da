package gapset

import (
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/gapset/gapset/internal/safe"
)

// Sorting and de-duplicating big key arrays is most of the enumeration's
// work, and on this kind of machine it is bound by memory traffic, not
// arithmetic. sortKeys is a radix sort built for that: two out-of-place MSD
// passes on the top two bytes (a into scratch, the workers scattering their
// halves in parallel, then each bucket back into a) leave buckets small
// enough for LSD passes that run in cache. Digits on which every key agrees
// are skipped, so projected keys with few significant bits cost fewer
// passes. Without scratch space the top passes fall back to in-place
// American flag sort, which works but chases cache misses.

const (
	insertionLimit = 48
	lsdScratchMax  = 1 << 16 // keys: LSD passes run in cache (512 KiB); bigger buckets split in place first
)

// sortKeys sorts a in increasing order. width is the number of low bits
// that may differ between keys (64 for whole 4x4 keys, 4k for k-cell
// projections); bits above width must be equal in all keys. scratch, when
// at least as long as a, makes it faster; its contents are overwritten.
func sortKeys(a, scratch []uint64, width int, workers int) {
	if len(a) < 2 {
		return
	}
	workers = max(1, workers)
	width = min(width, 64)
	if len(a) < 1<<16 || width <= 16 {
		slices.Sort(a)
		return
	}
	shift := uint(width - 8)
	var bounds *[257]int
	inPlace := len(scratch) < len(a)
	if inPlace {
		bounds = americanFlag(a, shift, workers)
	} else {
		scratch = scratch[:len(a)]
		bounds = scatter(a, scratch, shift, workers)
	}
	// Largest buckets first balances the workers.
	order := make([]int, 0, 256)
	for d := 0; d < 256; d++ {
		if bounds[d+1]-bounds[d] > 1 || !inPlace && bounds[d+1] > bounds[d] {
			order = append(order, d)
		}
	}
	slices.SortFunc(order, func(x, y int) int { return (bounds[y+1] - bounds[y]) - (bounds[x+1] - bounds[x]) })
	var next atomic.Int64
	var wg safe.Group
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			var tmp []uint64
			for {
				i := int(next.Add(1)) - 1
				if i >= len(order) {
					return
				}
				d := order[i]
				lo, hi := bounds[d], bounds[d+1]
				if inPlace {
					tmp = sortBucket(a[lo:hi], shift, tmp, lsdScratchMax)
					continue
				}
				// Second byte: back from scratch into a, then each sub-bucket.
				var b2 [257]int
				scatterOne(scratch[lo:hi], a[lo:hi], shift-8, &b2)
				for e := 0; e < 256; e++ {
					if b2[e+1]-b2[e] > 1 {
						tmp = sortBucket(a[lo+b2[e]:lo+b2[e+1]], shift-8, tmp, lsdScratchMax)
					}
				}
			}
		})
	}
	wg.Wait()
}

// scatter distributes src into dst by the byte at shift, the workers each
// scattering a contiguous part, and returns the bucket boundaries.
func scatter(src, dst []uint64, shift uint, workers int) *[257]int {
	counts := make([][256]int, workers)
	per := (len(src) + workers - 1) / workers
	part := func(w int) []uint64 { return src[min(w*per, len(src)):min((w+1)*per, len(src))] }
	var wg safe.Group
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			c := &counts[w]
			for _, v := range part(w) {
				c[v>>shift&255]++
			}
		})
	}
	wg.Wait()
	var bounds [257]int
	sum := 0
	for d := 0; d < 256; d++ {
		bounds[d] = sum
		for w := 0; w < workers; w++ {
			c := counts[w][d]
			counts[w][d] = sum // becomes worker w's next slot for digit d
			sum += c
		}
	}
	bounds[256] = sum
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			c := &counts[w]
			for _, v := range part(w) {
				k := v >> shift & 255
				dst[c[k]] = v
				c[k]++
			}
		})
	}
	wg.Wait()
	return &bounds
}

// scatterOne is scatter for one worker.
func scatterOne(src, dst []uint64, shift uint, bounds *[257]int) {
	var c [256]int
	for _, v := range src {
		c[v>>shift&255]++
	}
	sum := 0
	for d := 0; d < 256; d++ {
		bounds[d] = sum
		c[d], sum = sum, sum+c[d]
	}
	bounds[256] = sum
	for _, v := range src {
		k := v >> shift & 255
		dst[c[k]] = v
		c[k]++
	}
}

// sortBucket sorts keys that agree on all bits from shift up.
func sortBucket(b []uint64, shift uint, scratch []uint64, scratchMax int) []uint64 {
	switch {
	case len(b) <= insertionLimit:
		insertionSort(b)
	case len(b) <= scratchMax:
		if cap(scratch) < len(b) {
			scratch = make([]uint64, len(b), max(len(b), 2*cap(scratch)))
		}
		lsd(b, scratch[:len(b)], shift)
	default:
		if shift == 0 {
			return scratch
		}
		s := uint(0)
		if shift > 8 {
			s = shift - 8
		}
		var bounds [257]int
		flagPass(b, s, shift-s, &bounds)
		for d := 0; d < 1<<(shift-s); d++ {
			scratch = sortBucket(b[bounds[d]:bounds[d+1]], s, scratch, scratchMax)
		}
	}
	return scratch
}

func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for j > 0 && a[j-1] > v {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
}

// lsd sorts a by its low `width` bits (byte digits, least significant
// first), using tmp (same length) as scratch.
func lsd(a, tmp []uint64, width uint) {
	ndig := int((width + 7) / 8)
	var counts [8][256]int
	for _, v := range a {
		for d := 0; d < ndig; d++ {
			counts[d][v>>(8*d)&255]++
		}
	}
	src, dst := a, tmp
	n := len(a)
	for d := 0; d < ndig; d++ {
		c := &counts[d]
		if c[src[0]>>(8*d)&255] == n {
			continue // every key has this digit: the pass would change nothing
		}
		sum := 0
		for i := range c {
			c[i], sum = sum, sum+c[i]
		}
		s := uint(8 * d)
		for _, v := range src {
			k := v >> s & 255
			dst[c[k]] = v
			c[k]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}

// americanFlag permutes a in place into 256 buckets by the byte at shift and
// returns the bucket boundaries. The histogram is counted in parallel.
func americanFlag(a []uint64, shift uint, workers int) *[257]int {
	var bounds [257]int
	counts := make([][256]int, workers)
	var wg safe.Group
	per := (len(a) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := min(w*per, len(a)), min((w+1)*per, len(a))
		part, c := a[lo:hi], &counts[w]
		wg.Go(func() {
			for _, v := range part {
				c[v>>shift&255]++
			}
		})
	}
	wg.Wait()
	var total [256]int
	for w := range counts {
		for d := range total {
			total[d] += counts[w][d]
		}
	}
	permute(a, shift, 8, &total, &bounds)
	return &bounds
}

// flagPass is americanFlag for one worker and a digit of `bits` bits.
func flagPass(a []uint64, shift, bits uint, bounds *[257]int) {
	var count [256]int
	m := uint64(1)<<bits - 1
	for _, v := range a {
		count[v>>shift&m]++
	}
	permute(a, shift, bits, &count, bounds)
}

// permute moves every key to its bucket (cycle leader), given the counts.
func permute(a []uint64, shift, bits uint, count *[256]int, bounds *[257]int) {
	nb := 1 << bits
	m := uint64(nb - 1)
	var head, tail [256]int
	sum := 0
	for d := 0; d < nb; d++ {
		bounds[d] = sum
		head[d] = sum
		sum += count[d]
		tail[d] = sum
	}
	for d := nb; d <= 256; d++ {
		bounds[d] = sum
	}
	for d := 0; d < nb; d++ {
		for head[d] < tail[d] {
			v := a[head[d]]
			k := int(v >> shift & m)
			for k != d {
				j := head[k]
				head[k]++
				a[j], v = v, a[j]
				k = int(v >> shift & m)
			}
			a[head[d]] = v
			head[d]++
		}
	}
}

// dedup removes repeats from sorted a in place.
func dedup(a []uint64) []uint64 {
	if len(a) < 2 {
		return a
	}
	j := 1
	for i := 1; i < len(a); i++ {
		if a[i] != a[j-1] {
			a[j] = a[i]
			j++
		}
	}
	return a[:j]
}

// subtract removes from sorted a (in place) the keys present in sorted b.
func subtract(a, b []uint64) []uint64 {
	j, k := 0, 0
	for _, v := range a {
		for k < len(b) && b[k] < v {
			k++
		}
		if k < len(b) && b[k] == v {
			continue
		}
		a[j] = v
		j++
	}
	return a[:j]
}

func defaultWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }
