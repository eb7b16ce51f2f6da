package demo

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstances(t *testing.T) {
	korf := Instances(false)
	require.Len(t, korf, len(KorfIDs))
	for i, in := range korf {
		assert.Equal(t, KorfIDs[i], in.ID)
		assert.Equal(t, 4, in.Board.Rows)
	}
	small := Instances(true)
	require.Len(t, small, 20)
	assert.Equal(t, small, Instances(true), "the small boards come from a fixed seed")
	for _, in := range small {
		assert.Equal(t, 3, in.Board.Rows)
		assert.True(t, in.Board.Solvable(), in.ID)
	}
}

func TestRunReportsEachStep(t *testing.T) {
	var updates, dones int
	steps := map[string]bool{}
	p := Progress{
		Update: func(done, total int64, force bool, format string, a ...any) {
			updates++
			steps[format[:8]] = true
		},
		Done: func() { dones++ },
	}
	require.NoError(t, Run(context.Background(), io.Discard, true, p))
	assert.Equal(t, 3, dones, "three steps, each ended")
	assert.Len(t, steps, 3, "every step shows progress")
	assert.NoError(t, Run(context.Background(), io.Discard, true, Progress{}), "nil fields show nothing")
}

func TestRunStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Error(t, Run(ctx, io.Discard, true, Progress{}))
}
