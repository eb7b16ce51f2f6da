package pdb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tables and steps of the generator as it was before the faster build
// (main at cd44287): the files' bytes must never change. Boards and groups
// cover both word layouts (at most 8 free cells, more), groups of every
// tile, a single tile and blank regions split by the group.
var pinnedBuilds = []struct {
	rows, cols int
	group      []uint8
	step       int
	sha256     string
}{
	{3, 3, []uint8{1, 2, 3, 4}, 7, "db61ecd81e24c2d962f386e6005db03558ad0e8edc3f9f1326be5bcbdac400aa"},
	{3, 3, []uint8{5, 6, 7, 8}, 7, "d6c2f1c0cada39e9cb6a51fd1d1aaee910ca38bf8435a745d494c924b556e960"},
	{3, 3, []uint8{1, 2, 3, 4, 5, 6, 7, 8}, 1, "84aa42e313364e67d10720f5cda4c1c6a79a2f73f72ecbcb7391ad1ffbfb1f32"},
	{3, 3, []uint8{5}, 1, "d92fbcf2738ebc23ab5108ecc784c6982df5d0a14542bce6b0814dade72fe521"},
	{2, 4, []uint8{3, 4, 7}, 7, "eb0d0be90a158faa28aa93212fae4d3339cde8eb081d1968b33114ce4da31aa4"},
	{2, 4, []uint8{1, 2, 3, 4, 5, 6, 7}, 1, "9a8e7c26d76dfc0610855a263919a64a344f3a05a2270e43e4b1d05a2329fe91"},
	{3, 4, []uint8{2, 5, 6, 11}, 5, "6df8c09dd9a77a48c4d73af7cb0a42ab71a94a1d53a5837e30133da8649e90c7"},
	{3, 4, []uint8{1, 2, 3, 4, 5}, 7, "80f15f7d8c74946020d3dcd91125f3153d8536c4539b3585cc12decc261ecb25"},
	{3, 4, []uint8{1, 2, 3}, 5, "e106844917c45e9e45e245faf1d3e6063583bd051df038a87f9de6a58daadf98"},
	{4, 3, []uint8{4, 7, 8, 10, 11}, 7, "ad3c52455e64391f8307c6eac747fabf0c98f7755227027bedc8cf117b929200"},
	{4, 4, []uint8{1, 2, 5, 6}, 5, "9d9d2304ca726402af2e1dee923e16e04303bbf83b8c264e0e2c82d240895405"},
	{4, 4, []uint8{13, 14, 15}, 5, "9404495b2ad6ce9a2c49e14b77978378a865a1c40187b2171988d73059462e17"},
	{4, 4, []uint8{1, 5, 6, 9, 13}, 5, "b4976986b4f2c935fddcf4a5da7b9de8ce48302b4a94b78e1e8c61b2988bba7b"},
	{4, 4, []uint8{10, 11, 12, 14, 15}, 7, "4abf323c2e0a77941af74e21af9488f631a4c90880da61f1ffb29dd7bb57bbf1"},
	{2, 5, []uint8{1, 2, 3, 4, 5, 6}, 13, "775c0db8abc26dcc69ddc4f6377ab62868790621cafbebb117bbc0af202e7131"},
}

func TestBuildBytesPinned(t *testing.T) {
	for _, tc := range pinnedBuilds {
		for _, workers := range []int{1, 2} {
			table, step, err := Build(context.Background(), tc.rows, tc.cols, tc.group, workers, nil)
			require.NoError(t, err)
			sum := sha256.Sum256(table)
			assert.Equal(t, tc.step, step, "%dx%d %v", tc.rows, tc.cols, tc.group)
			assert.Equal(t, tc.sha256, hex.EncodeToString(sum[:]), "%dx%d %v, %d workers", tc.rows, tc.cols, tc.group, workers)
		}
	}
}
