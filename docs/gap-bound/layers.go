//go:build ignore

// layers.go writes the layers of an enumeration's JSON summary (`gapset
// enumerate --format json`) as CSV (gap, Manhattan distance, count), the
// form of gap4-layers.csv:
//
//	go run docs/gap-bound/layers.go < summary.json > docs/gap-bound/gap6-layers.csv
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/gapset/gapset/gapset"
)

func main() {
	var res gapset.Result
	if err := json.NewDecoder(os.Stdin).Decode(&res); err != nil {
		fmt.Fprintln(os.Stderr, "layers: reading the summary:", err)
		os.Exit(2)
	}
	if len(res.Layers) == 0 {
		fmt.Fprintln(os.Stderr, "layers: the summary has no layers")
		os.Exit(2)
	}
	sort.Slice(res.Layers, func(i, j int) bool {
		a, b := res.Layers[i], res.Layers[j]
		return a.Gap < b.Gap || a.Gap == b.Gap && a.Manhattan < b.Manhattan
	})
	fmt.Println("gap,manhattan,count")
	for _, l := range res.Layers {
		fmt.Printf("%d,%d,%d\n", l.Gap, l.Manhattan, l.Count)
	}
}
