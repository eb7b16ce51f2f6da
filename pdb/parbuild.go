package pdb

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Packed entry of the parallel build (groups leaving at most 8 free cells,
// such as the 8-tile group of the 15-puzzle): visited blank cells in bits
// 0-7, the two layers' blank cells in bits 8-15 and 16-23, the value in bits
// 24-31. Workers update entries with compare-and-swap, so a state is added
// exactly once even when two workers generate it together.
const (
	visitedMask = 0xff
	distShift   = 24
)

func layerShift(l int) uint { return 8 + 8*uint(l) }

// buildParallel is build's search (same layers, same results) run by several
// goroutines over chunks of the placements of each layer.
func buildParallel(ctx context.Context, rows, cols int, group []uint8, prog Progress, workers int) ([]uint8, int, error) {
	g := newGrid(rows, cols)
	n, k := g.n, len(group)
	if n-k > 8 || k < 2 {
		return nil, 0, fmt.Errorf("parallel build needs 2 or more tiles and at most 8 free cells")
	}
	total := Entries(n, k)
	st := make([]uint32, total)
	for i := range st {
		st[i] = unknown << distShift
	}
	pos := make([]uint8, k)
	var used uint32
	for i, t := range group {
		pos[i] = t - 1
		used |= 1 << (t - 1)
	}
	free := g.all &^ used
	m0 := compress(g.region(n-1, free), free)
	st[rank(pos, n)] = m0 | m0<<layerShift(0) // dist 0
	var reached atomic.Int64
	reached.Store(1)
	var step atomic.Int64

	last := n - k + 1
	blocks := total / last
	const chunk = 1 << 12
	for layer := 0; ; layer++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if prog != nil {
			prog(layer, reached.Load(), int64(total))
		}
		var nextChunk atomic.Int64
		var any atomic.Bool
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				expandLayer(g, st, group, layer, blocks, chunk, &nextChunk, &any, &reached, &step)
			}()
		}
		wg.Wait()
		if !any.Load() {
			break
		}
	}
	if r := reached.Load(); r != int64(total) && !(k == n-1 && 2*r == int64(total)) {
		return nil, 0, fmt.Errorf("internal error: %d of %d placements reached", r, total)
	}
	dist := make([]uint8, total)
	for i, w := range st {
		dist[i] = uint8(w >> distShift)
	}
	return dist, int(step.Load()), nil
}

func expandLayer(g *grid, st []uint32, group []uint8, layer, blocks, chunk int,
	nextChunk *atomic.Int64, any *atomic.Bool, reached, stepOut *atomic.Int64) {
	n, k := g.n, len(group)
	last := n - k + 1
	cs, ns := layerShift(layer&1), layerShift((layer+1)&1)
	nd := uint32(layer+1) << distShift
	pos := make([]uint8, k)
	var localReached int64
	step := 0
	found := false
	for {
		c0 := int(nextChunk.Add(1)-1) * chunk
		if c0 >= blocks {
			break
		}
		for blkIdx := c0; blkIdx < min(c0+chunk, blocks); blkIdx++ {
			base := blkIdx * last
			nz := false
			for d := 0; d < last; d++ {
				if atomic.LoadUint32(&st[base+d])>>cs&0xff != 0 {
					nz = true
					break
				}
			}
			if !nz {
				continue
			}
			found = true
			prefUsed := unrank(blkIdx, pos[:k-1], n)
			for d := 0; d < last; d++ {
				w := atomic.LoadUint32(&st[base+d])
				m := w >> cs & 0xff
				if m == 0 {
					continue
				}
				atomic.AndUint32(&st[base+d], ^uint32(0xff<<cs))
				dp := int(w >> distShift)
				c := selectFree(prefUsed, d)
				pos[k-1] = uint8(c)
				free := g.all &^ (prefUsed | 1<<c)
				blanks := expand(m, free)
				for i := 0; i < k; i++ {
					from := int(pos[i])
					for to := g.nb[from] & blanks; to != 0; to &= to - 1 {
						b := bits.TrailingZeros32(to)
						pos[i] = uint8(b)
						e := &st[rank(pos, n)]
						nfree := free&^(1<<b) | 1<<from
						bit := uint32(1) << bits.OnesCount32(nfree&(1<<from-1))
						old := atomic.LoadUint32(e)
						if old&bit == 0 {
							reg := compress(g.region(from, nfree), nfree)
							for {
								nw := old | reg | reg<<ns
								if old&visitedMask == 0 {
									nw = nw&^(0xff<<distShift) | nd
								}
								if atomic.CompareAndSwapUint32(e, old, nw) {
									if old&visitedMask == 0 {
										localReached++
									}
									break
								}
								old = atomic.LoadUint32(e)
								if old&bit != 0 {
									break
								}
							}
						}
						if x := int(atomic.LoadUint32(e)>>distShift) - dp; x > step {
							step = x
						} else if -x > step {
							step = -x
						}
					}
					pos[i] = uint8(from)
				}
			}
		}
	}
	reached.Add(localReached)
	if found {
		any.Store(true)
	}
	for {
		cur := stepOut.Load()
		if int64(step) <= cur || stepOut.CompareAndSwap(cur, int64(step)) {
			break
		}
	}
}
