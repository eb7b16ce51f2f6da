package slide

import (
	"testing"

	"github.com/gapset/gapset/search"
)

// Farthest positions of the 2x3 and 3x3 boards with each duplicate
// detection (the linear scan only on 2x3: on 3x3 it needs about 1.6e10
// comparisons).
//
//	go test -run '^$' -bench . -count 5 ./puzzle/slide/
func BenchmarkFarthest(b *testing.B) {
	for _, size := range [][2]int{{2, 3}, {3, 3}} {
		p, err := New(size[0], size[1])
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range []search.Dedup{search.Linear, search.Open, search.Map} {
			if d == search.Linear && size[0]*size[1] > 6 {
				continue
			}
			name := string(rune('0'+size[0])) + "x" + string(rune('0'+size[1])) + "/" + d.String()
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, err := search.Farthest[uint64](p, p.Goal(), search.Options{Dedup: d}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
