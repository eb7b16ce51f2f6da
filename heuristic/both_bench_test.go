package heuristic

import (
	"fmt"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/ida"
)

// The cost a node of the database of both levels against the two
// databases of the same level files, on the 3x4 board of docs/residual
// (the base pdbb:1-6/7-11, the last 8 cells): max(resR:8,gapG:8), two
// reads a question, against both:8, one. Each sub-benchmark solves the
// same 20 random boards an op and reports ns/node (wall time over the
// nodes expanded) and nodes/op (equal in all: the same cuts); both-noprefetch
// is both:8 without the prefetch of the children's entries (the gap
// database's part of the separate pair prefetches, the residual one does
// not). The
// setup enumerates the levels in memory: r0-gap2 in seconds, r2-gap4
// (R<=2 holds 40 million boards) in a minute or two and a few GB; pick one
// with -bench 'Both3x4/r2-gap4'. Opt-in (-bench Both3x4).
func BenchmarkBoth3x4(b *testing.B) {
	for _, c := range []struct{ res, gap int }{{0, 2}, {2, 4}} {
		b.Run(fmt.Sprintf("r%d-gap%d", c.res, c.gap), func(b *testing.B) {
			dir := blankDir(b, "1-6/7-11", 3, 4)
			base, err := New(Options{Rows: 3, Cols: 4, PDBDir: dir}).Base(base3x4)
			if err != nil {
				b.Fatal(err)
			}
			res, gap, both := sepAndBoth(b, base, 3, 4, 8, c.res, c.gap, -1)
			r := New(Options{Rows: 3, Cols: 4, GapDBs: []string{res, gap, both}, PDBDir: dir})
			boards := encode.RandomInstances(34, 20, 3, 4)
			for _, spec := range []struct{ name, spec string }{
				{"separate", fmt.Sprintf("max(res%d:8,gap%d:8)", c.res, c.gap)},
				{"both", "both:8"},
				{"both-noprefetch", "both:8"},
			} {
				h, err := r.Resolve(spec.spec)
				if err != nil {
					b.Fatal(err)
				}
				if spec.name == "both-noprefetch" {
					x := h.(gapdb.Both)
					x.NoPrefetch = true
					h = x
				}
				b.Run(spec.name, func(b *testing.B) {
					var nodes int64
					for range b.N {
						for _, inst := range boards {
							s, err := ida.Solve(inst.Board, h, ida.Options{})
							if err != nil {
								b.Fatal(err)
							}
							nodes += s.Expanded
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(nodes, 1)), "ns/node")
					b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				})
			}
		})
	}
}
