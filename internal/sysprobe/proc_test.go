package sysprobe

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func linuxOnly(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the process identity comes from Linux's /proc")
	}
}

// This process's identity is what /proc says of its PID; a child's start
// time is not this one's, and its namespace and boot are.
func TestSelfAndProcess(t *testing.T) {
	linuxOnly(t)
	self, ok := Self()
	require.True(t, ok)
	assert.Equal(t, os.Getpid(), self.PID)
	assert.Len(t, self.Boot, 36, "a UUID")
	assert.NotEmpty(t, self.PIDNS)
	p, err := Process(os.Getpid())
	require.NoError(t, err)
	assert.Equal(t, self.Start, p.Start)
	assert.False(t, p.Exited())

	cmd := exec.Command("sleep", "30")
	require.NoError(t, cmd.Start())
	child, err := Process(cmd.Process.Pid)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, child.Start, self.Start)
	require.NoError(t, cmd.Process.Kill())
	deadline := time.Now().Add(10 * time.Second)
	for !child.Exited() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		child, err = Process(cmd.Process.Pid)
		require.NoError(t, err, "a zombie until waited for")
	}
	assert.True(t, child.Exited(), "killed, not yet waited for: a zombie")
	cmd.Wait()
	_, err = Process(cmd.Process.Pid)
	if err == nil {
		t.Skip("the PID was taken again at once")
	}
	assert.ErrorIs(t, err, ErrNoProcess)
	_, err = Process(0)
	assert.ErrorIs(t, err, ErrNoProcess)
}
