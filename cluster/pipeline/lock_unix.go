//go:build unix

package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/statedir"
)

// lockWork locks the work directory for this process (released by the
// returned function, or by the kernel when the process ends): two runs
// must never share one.
func lockWork(dir string) (func(), error) {
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
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(f.Name())
		f.Close()
		if err == syscall.EWOULDBLOCK {
			return nil, fmt.Errorf("%w: work directory %s is in use by process %s", gapset.ErrArgs, dir, strings.TrimSpace(string(b)))
		}
		return nil, err
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}
