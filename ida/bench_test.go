package ida

import (
	"os"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/memset"
)

// BenchmarkManhattan solves fixed Korf instances with Manhattan distance and
// reports nodes expanded per second (the solver's raw speed).
//
//	go test -run '^$' -bench Manhattan -count 5 ./ida/
func BenchmarkManhattan(b *testing.B) {
	var boards []encode.Board
	for _, id := range []int{12, 42, 55, 79, 97, 8, 9} {
		boards = append(boards, korf(b, id))
	}
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, bd := range boards {
			res, err := Solve(bd, Manhattan{}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			nodes += res.Expanded
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkGap0 solves the same Korf instances with h_G, with and without
// lower-bound-check skipping, from a Gap0 key-set file named by the
// environment (it is too big to build inside a benchmark):
//
//	GAPSET_GAP0_KEYS=Gap0_8.keys go test -run '^$' -bench Gap0 -count 3 ./ida/
//
// It reports nodes per second and set queries per node expanded.
func BenchmarkGap0(b *testing.B) {
	path := os.Getenv("GAPSET_GAP0_KEYS")
	if path == "" {
		b.Skip("set GAPSET_GAP0_KEYS to a Gap0 key-set file")
	}
	set, _, err := memset.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	dense := map[int]BitTable{}
	for _, k := range []int{4, 5, 6, 7} {
		d, err := set.Project(k)
		if err != nil {
			b.Fatal(err)
		}
		dense[k] = d
	}
	var boards []encode.Board
	for _, id := range []int{12, 42, 55, 79, 97} {
		boards = append(boards, korf(b, id))
	}
	for _, c := range []struct {
		name string
		h    Heuristic
	}{
		{"md", Manhattan{}},
		{"skip", Gap{Levels: []Set{set}}},
		{"skip-dense4", Gap{Levels: []Set{set}, Dense: [][]BitTable{{dense[4]}}}},
		{"skip-dense5", Gap{Levels: []Set{set}, Dense: [][]BitTable{{dense[5]}}}},
		{"skip-dense6", Gap{Levels: []Set{set}, Dense: [][]BitTable{{dense[6]}}}},
		{"skip-dense4-6", Gap{Levels: []Set{set}, Dense: [][]BitTable{{dense[4], dense[6]}}}},
		{"skip-dense4-7", Gap{Levels: []Set{set}, Dense: [][]BitTable{{dense[4], dense[7]}}}},
		{"skip-dense5-7", Gap{Levels: []Set{set}, Dense: [][]BitTable{{dense[5], dense[7]}}}},
		{"noskip", Gap{Levels: []Set{set}, NoSkip: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var nodes, queries int64
			for b.Loop() {
				for _, bd := range boards {
					res, err := Solve(bd, c.h, Options{})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Expanded
					queries += res.Counters["queries"]
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(queries)/float64(nodes), "queries/node")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
