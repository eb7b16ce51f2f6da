package data

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEmbeddedFiles(t *testing.T) {
	k := Korf100()
	require.Len(t, k, 100)
	assert.Equal(t, "1", k[0].ID)
	assert.Equal(t, "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2", k[0].Board.String())
	r := Random300()
	require.Len(t, r, 300)
	seen := map[uint64]bool{}
	for _, in := range r {
		seen[in.Board.Key()] = true
	}
	assert.Len(t, seen, 300)
}
