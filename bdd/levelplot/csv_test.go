package levelplot

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCSV(t *testing.T) {
	got := CSV([]Series{{Name: "reverse", Counts: []int{1, 2, 4}}, {Name: "block-sift:reverse", Counts: []int{1, 3, 2}}})
	assert.Equal(t, "level,reverse,block-sift:reverse\n0,1,1\n1,2,3\n2,4,2\n", got)
	assert.Equal(t, "level\n", CSV(nil))
}
