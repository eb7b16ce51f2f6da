package bdd

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A board size whose product lands in 1..16 after wrapping or from two
// negative factors is no board: NamedOrder refuses it.
func TestNamedOrderHostileSize(t *testing.T) {
	for _, s := range [][2]int{{-1, -4}, {-4, -4}, {1 << 62, 4}, {1 << 32, 1 << 32}, {0, 4}, {17, 1}} {
		for _, name := range OrderNames() {
			_, err := NamedOrder(name, s[0], s[1], 4)
			assert.Error(t, err, "%s %dx%d", name, s[0], s[1])
		}
	}
}
