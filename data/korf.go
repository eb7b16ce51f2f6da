package data

import (
	"fmt"

	"github.com/gapset/gapset/encode"
)

// korfLengths holds the optimal solution lengths of Korf's 100 instances
// (korf100.txt), instance i at index i-1, as published in R. E. Korf,
// "Depth-first iterative-deepening: an optimal admissible tree search",
// Artificial Intelligence 27(1), 97-109, 1985 (5,305 moves in all). The
// project's own pdb78 runs agree on every one (docs/reproducing.md; the
// results under docs/pdb-gap/korf100-*).
var korfLengths = [100]int{
	57, 55, 59, 56, 56, 52, 52, 50, 46, 59, // 1-10
	57, 45, 46, 59, 62, 42, 66, 55, 46, 52, // 11-20
	54, 59, 49, 54, 52, 58, 53, 52, 54, 47, // 21-30
	50, 59, 60, 52, 55, 52, 58, 53, 49, 54, // 31-40
	54, 42, 64, 50, 51, 49, 47, 49, 59, 53, // 41-50
	56, 56, 64, 56, 41, 55, 50, 51, 57, 66, // 51-60
	45, 57, 56, 51, 47, 61, 50, 51, 53, 52, // 61-70
	44, 56, 49, 56, 48, 57, 54, 53, 42, 57, // 71-80
	53, 62, 49, 55, 44, 45, 52, 65, 54, 50, // 81-90
	57, 57, 46, 53, 50, 49, 44, 54, 57, 54, // 91-100
}

// KorfLength returns the published optimal solution length of Korf's
// instance id (1 to 100, the ids of Korf100). Any other id is a defect of
// the caller and panics.
func KorfLength(id int) int {
	if id < 1 || id > len(korfLengths) {
		panic(fmt.Sprintf("data: Korf instance %d does not exist (1 to %d)", id, len(korfLengths)))
	}
	return korfLengths[id-1]
}

// KorfInstance returns Korf's instance id (1 to 100); any other id panics.
func KorfInstance(id int) encode.Instance {
	KorfLength(id) // the range check
	return Korf100()[id-1]
}
