package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGroup(t *testing.T) {
	for v, want := range map[uint64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 4233704: "4,233,704",
		100000: "100,000", 18446744073709551615: "18,446,744,073,709,551,615"} {
		assert.Equal(t, want, Group(v), v)
	}
}
