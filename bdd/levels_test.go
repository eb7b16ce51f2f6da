package bdd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLevelSizes(t *testing.T) {
	g0, _ := sets3x3(t)
	d, err := BuildInPlace(project(g0, 4), mustOrder(t, "natural", 4), false, nil)
	require.NoError(t, err)
	s := d.LevelSizes()
	require.Len(t, s, 16)
	assert.Equal(t, 1, s[0], "one root")
	sum := 0
	for _, n := range s {
		assert.Positive(t, n)
		sum += n
	}
	assert.Equal(t, d.NodeCount(), sum, "every node but the terminals on one level")
}
