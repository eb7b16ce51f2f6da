//go:build unix

package gapset

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
)

// lockName is the file a running enumeration holds locked in its
// checkpoint directory, its PID inside: two processes must never resume
// one checkpoint.
const lockName = "lock"

// lockRelease bounds the wait for a lock whose holder is gone: a process
// killed with SIGKILL keeps its files, and so the lock, until the kernel
// has torn it down, which on a large run takes seconds.
const lockRelease = 2 * time.Minute

// lockDir locks dir for this process (released by the returned function,
// or by the kernel when the process ends, however it ends).
func lockDir(dir string) (func(), error) {
	// Never through a symlink: the lock is truncated.
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err == nil {
		if st, serr := f.Stat(); serr != nil || !st.Mode().IsRegular() {
			f.Close()
			err = fs.ErrInvalid
		}
	}
	if err != nil {
		return nil, statedir.Damaged(dir, "its %s is not a file this run can lock: %v", lockName, err)
	}
	deadline := time.Now().Add(lockRelease)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EWOULDBLOCK {
			break
		}
		b, _ := os.ReadFile(f.Name())
		pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if perr != nil || pid <= 0 || atomicfile.Alive(pid) || time.Now().After(deadline) {
			f.Close()
			holder := "another running enumeration"
			if perr == nil && pid > 0 {
				holder = fmt.Sprintf("process %d", pid)
			}
			return nil, fmt.Errorf("%w: checkpoint %s is in use by %s", ErrArgs, dir, holder)
		}
		time.Sleep(50 * time.Millisecond) // the holder is going: its lock will be too
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}
