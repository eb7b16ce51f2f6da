package pdb

import (
	"sync/atomic"
	"unsafe"

	"github.com/gapset/gapset/internal/safe"
)

// word is a placement's search state packed in one machine word: the
// visited blank cells (bits 0..f-1), the blank cells of the layers being
// expanded and generated (f..2f-1 and 2f..3f-1, by layer parity) and the
// complement of the value in the top byte (0: not reached yet, so fresh
// zeroed memory needs no fill). f is 8 in a uint32 (at most 8 free cells),
// 16 in a uint64.
type word interface{ uint32 | uint64 }

type layout[W word] struct {
	f, top uint // bits per mask; shift of the value byte
	mask   W    // f low bits
}

func newLayout[W word]() layout[W] {
	size := uint(unsafe.Sizeof(W(0))) * 8
	f := size / 4
	return layout[W]{f: f, top: size - 8, mask: W(1)<<f - 1}
}

// shift is where the blank cells of a layer's states start.
func (l layout[W]) shift(layer int) uint { return l.f * uint(1+layer&1) }

// value is the value field holding v.
func (l layout[W]) value(v int) W { return W(^uint8(v)) << l.top }

func (l layout[W]) valueOf(x W) uint8 { return ^uint8(x >> l.top) }

func (l layout[W]) reached(x W) bool { return x>>l.top != 0 }

// The word operations below are atomic so that workers can share a table;
// on amd64 the load is a plain move.
func load[W word](p *W) W {
	if unsafe.Sizeof(*p) == 4 {
		return W(atomic.LoadUint32((*uint32)(unsafe.Pointer(p))))
	}
	return W(atomic.LoadUint64((*uint64)(unsafe.Pointer(p))))
}

func cas[W word](p *W, old, nw W) bool {
	if unsafe.Sizeof(*p) == 4 {
		return atomic.CompareAndSwapUint32((*uint32)(unsafe.Pointer(p)), uint32(old), uint32(nw))
	}
	return atomic.CompareAndSwapUint64((*uint64)(unsafe.Pointer(p)), uint64(old), uint64(nw))
}

func and[W word](p *W, m W) {
	if unsafe.Sizeof(*p) == 4 {
		atomic.AndUint32((*uint32)(unsafe.Pointer(p)), uint32(m))
	} else {
		atomic.AndUint64((*uint64)(unsafe.Pointer(p)), uint64(m))
	}
}

// marks is a bitmap with one bit per 1<<markShift ranks of the table. A bit
// is set only after a load shows it unset, so marking a marked range costs
// no locked instruction.
type marks []atomic.Uint64

// markShift sets the ranks per mark: a power of two, so a child's mark
// costs a shift, not a division; a table of 2^29 entries has a 1 MiB bitmap.
const markShift = 6

func newMarks(entries int) marks { return make(marks, (entries-1)>>markShift/64+1) }

func (m marks) set(r int) {
	i := r >> markShift
	w, bit := &m[i/64], uint64(1)<<(i%64)
	if w.Load()&bit == 0 {
		w.Or(bit)
	}
}

// any reports whether a rank in [lo, hi) is marked.
func (m marks) any(lo, hi int) bool {
	a, b := lo>>markShift, (hi-1)>>markShift
	for i := a / 64; i <= b/64; i++ {
		x := m[i].Load()
		if i == a/64 {
			x &= ^uint64(0) << (a % 64)
		}
		if i == b/64 {
			x &= ^uint64(0) >> (63 - b%64)
		}
		if x != 0 {
			return true
		}
	}
	return false
}

func (m marks) clear() {
	for i := range m {
		m[i].Store(0)
	}
}

// parallel calls fn(w, i) for every i in [0, n), on workers goroutines (w is
// the goroutine's index) each taking the next i from a shared counter, and
// returns when all are done. One worker runs in the caller's goroutine.
func parallel(workers, n int, fn func(w, i int)) {
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg safe.Group
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(w, i)
			}
		})
	}
	wg.Wait()
}
