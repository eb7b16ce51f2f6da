//go:build ignore

// chart.go draws tradeoff.png (node ratio to Manhattan distance against the
// gap bound and against the memory held) from tradeoff.csv in this folder:
//
//	go run docs/gap-bound/chart.go
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/gapset/gapset/bench"
	"github.com/gapset/gapset/internal/infile"
)

func main() {
	const dir = "docs/gap-bound/"
	in, err := infile.ReadAll(dir+"tradeoff.csv", "a CSV file", 16<<20)
	if err == nil {
		var pts []bench.TradeoffPoint
		if pts, err = bench.ReadTradeoff(bytes.NewReader(in)); err == nil {
			var png []byte
			if png, err = bench.TradeoffChart(pts, "h_G:2N on data/random300.txt: nodes / Manhattan's nodes (2026-11-25, 26)"); err == nil {
				err = os.WriteFile(dir+"tradeoff.png", png, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chart:", err)
		os.Exit(1)
	}
}
