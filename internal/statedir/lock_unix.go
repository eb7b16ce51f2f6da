//go:build unix

package statedir

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
	"github.com/gapset/gapset/internal/infile"
)

// lockRelease bounds the wait for a lock whose holder is gone: a process
// killed with SIGKILL keeps its files, and so the lock, until the kernel
// has torn it down, which on a large run takes seconds.
const lockRelease = 2 * time.Minute

// Lock locks the state directory dir (a kind's, for the message) for this
// process, released by the returned function or by the kernel when the
// process ends, however it ends: two processes must never work on one
// state. A holder that is gone (its PID no longer alive) is waited for up
// to lockRelease; a live one is refused at once (ErrBusy).
func Lock(dir, kind string) (func(), error) {
	// Never through a symlink: the lock is truncated.
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err == nil {
		if st, serr := f.Stat(); serr != nil || !st.Mode().IsRegular() {
			f.Close()
			err = fs.ErrInvalid
		}
	}
	if err != nil {
		return nil, Damaged(dir, "its %s is not a file this run can lock: %v", LockName, err)
	}
	deadline := time.Now().Add(lockRelease)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EWOULDBLOCK {
			break
		}
		b, _ := infile.ReadAll(f.Name(), "a lock file", 64)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if perr != nil || pid <= 0 || atomicfile.Alive(pid) || time.Now().After(deadline) {
			f.Close()
			holder := "another running enumeration"
			if perr == nil && pid > 0 {
				holder = fmt.Sprintf("process %d", pid)
			}
			return nil, &busyError{fmt.Sprintf("%s %s is in use by %s", kind, dir, holder)}
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
