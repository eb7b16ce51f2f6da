package zeroset

// radixSort sorts keys ascending with an LSD radix sort on 16-bit digits,
// using buf (grown as needed) as scratch; it returns the sorted slice (keys
// or buf) and the scratch to reuse. Digits that are the same in every key
// are skipped, so projected keys cost fewer passes. It beats a comparison
// sort several times over on the tens of millions of keys of a 4x4 layer.
func radixSort(keys, buf []uint64) (sorted, scratch []uint64) {
	if len(keys) < 256 {
		insertionSort(keys)
		return keys, buf
	}
	if cap(buf) < len(keys) {
		buf = make([]uint64, len(keys))
	}
	buf = buf[:len(keys)]
	var count [1 << 16]int
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for _, k := range keys {
			count[k>>shift&0xffff]++
		}
		if count[keys[0]>>shift&0xffff] == len(keys) {
			continue // one digit value: this pass would change nothing
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range keys {
			d := k >> shift & 0xffff
			buf[count[d]] = k
			count[d]++
		}
		keys, buf = buf, keys
	}
	return keys, buf
}

func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// compact removes adjacent duplicates in place.
func compact(a []uint64) []uint64 {
	if len(a) == 0 {
		return a
	}
	w := 1
	for _, k := range a[1:] {
		if k != a[w-1] {
			a[w] = k
			w++
		}
	}
	return a[:w]
}
