package ida

import (
	"fmt"
	"os"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/memset"
)

// BenchmarkSolve times each search loop on Korf instances, one
// sub-benchmark per loop and instance (benchstat-friendly names,
// BenchmarkSolve/md/korf12), reporting nodes/s:
//
//	go test -run '^$' -bench 'Solve/' -count 5 ./ida/ | tee new.txt; benchstat old.txt new.txt
//
// md is the generated 4x4 Manhattan loop (md4_gen.go), md-generic the
// loop for any board size,
// md-eval Manhattan distance through the general Evaluator loop, md-2threads
// the parallel search on two threads. The gap loops need key-set files
// named by the environment (too big to build in a benchmark):
// GAPSET_GAP0_KEYS (a Gap0 set: gap0, h_G with dense tables 4 and 6, the
// generated one-level loop; gap0-generic, searchGap1) and GAPSET_GAP2_KEYS (a Gap2 set on the same cells:
// gap2, the two-level loop).
func BenchmarkSolve(b *testing.B) {
	type loop struct {
		name string
		h    Heuristic
		opt  Options
	}
	loops := []loop{
		{"md", Manhattan{}, Options{}},
		{"md-generic", Manhattan{}, Options{generic: true}},
		{"md-eval", mdEvaluator{}, Options{}},
		{"md-2threads", Manhattan{}, Options{Threads: 2}},
	}
	if path := os.Getenv("GAPSET_GAP0_KEYS"); path != "" {
		g0 := benchGapLevel(b, path)
		h := Gap{Levels: []Set{g0.set}, Dense: [][]BitTable{g0.dense}}
		loops = append(loops, loop{"gap0", h, Options{}}, loop{"gap0-generic", h, Options{generic: true}})
		if path := os.Getenv("GAPSET_GAP2_KEYS"); path != "" {
			g2 := benchGapLevel(b, path)
			loops = append(loops, loop{"gap2", Gap{Levels: []Set{g0.set, g2.set}, Dense: [][]BitTable{g0.dense, g2.dense}}, Options{}})
		}
	}
	for _, l := range loops {
		for _, id := range []int{12, 42, 55, 79, 97} {
			bd := korf(b, id)
			b.Run(fmt.Sprintf("%s/korf%d", l.name, id), func(b *testing.B) {
				benchSolve(b, bd, l.h, l.opt)
			})
		}
	}
}

func benchSolve(b *testing.B, bd encode.Board, h Heuristic, opt Options) {
	var nodes int64
	for b.Loop() {
		res, err := Solve(bd, h, opt)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Expanded
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

type benchLevel struct {
	set   *memset.Set
	dense []BitTable
}

// benchGapLevel loads a key-set file with its dense tables on 4 and 6 cells
// (the command's default).
func benchGapLevel(b *testing.B, path string) benchLevel {
	set, _, err := memset.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	l := benchLevel{set: set}
	for _, k := range []int{4, 6} {
		d, err := set.Project(k)
		if err != nil {
			b.Fatal(err)
		}
		l.dense = append(l.dense, d)
	}
	return l
}
