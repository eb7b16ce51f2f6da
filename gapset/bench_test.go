package gapset

import (
	"context"
	"os"
	"testing"
)

// TestG0Full4x4 enumerates the whole 4x4 G0 in memory and checks the
// paper's counts. Opt in: GAPSET_BIG=1 go test -run G0Full -v ./gapset/
func TestG0Full4x4(t *testing.T) {
	if os.Getenv("GAPSET_BIG") == "" {
		t.Skip("set GAPSET_BIG=1 to enumerate the 4x4 G0 (about 1 GiB, tens of seconds)")
	}
	sets, err := Sets(context.Background(), 4, 4, 0, []int{16, 12, 10, 8}, func(p Progress) {
		t.Logf("step %2d gap %d M %2d layer %10d members %11d %6.1fs rss %d MiB", p.Step, p.Gap, p.Manhattan, p.Layer, p.Members, p.Elapsed.Seconds(), p.RSS>>20)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{16: 88728780, 12: 61559068, 10: 23696364, 8: 4233704}
	for k, n := range want {
		if len(sets[k]) != n {
			t.Errorf("Gap0 k=%d: %d members, the paper has %d", k, len(sets[k]), n)
		}
	}
}
