package ida

import (
	"os"
	"strconv"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/require"
)

func itoa(i int) string { return strconv.Itoa(i) }

func loadKorf(t testing.TB) []encode.Instance {
	t.Helper()
	f, err := os.Open("../data/korf100.txt")
	require.NoError(t, err)
	defer f.Close()
	insts, err := encode.ReadInstances(f, "korf100.txt", 4, 4)
	require.NoError(t, err)
	require.Len(t, insts, 100)
	return insts
}
