//go:build linux

package sysprobe

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/gapset/gapset/internal/infile"
)

// Self returns this process's identity, from /proc; ok is false where /proc
// does not tell, or is the /proc of another PID namespace (its "self" is
// not this process's PID), whose PIDs this process could not check.
func Self() (Identity, bool) {
	boot, err := infile.ReadAll("/proc/sys/kernel/random/boot_id", "a boot id", 256)
	if err != nil {
		return Identity{}, false
	}
	ns, err := os.Stat("/proc/self/ns/pid")
	if err != nil {
		return Identity{}, false
	}
	st, ok := ns.Sys().(*syscall.Stat_t)
	if !ok {
		return Identity{}, false
	}
	pid, p, err := readStat("self")
	if err != nil || pid != os.Getpid() {
		return Identity{}, false
	}
	return Identity{Boot: strings.TrimSpace(string(boot)), PIDNS: fmt.Sprintf("%d:%d", st.Dev, st.Ino), PID: pid, Start: p.Start}, true
}

// Process returns what /proc says of process pid of this process's PID
// namespace (as far as Self says its /proc is this namespace's):
// ErrNoProcess when there is none.
func Process(pid int) (ProcessInfo, error) {
	if pid <= 0 {
		return ProcessInfo{}, ErrNoProcess
	}
	_, p, err := readStat(strconv.Itoa(pid))
	if errors.Is(err, fs.ErrNotExist) {
		return ProcessInfo{}, ErrNoProcess
	}
	return p, err
}

// readStat reads /proc/NAME/stat: "PID (COMM) S PPID ...", COMM possibly
// holding spaces and parentheses; the start time is field 22.
func readStat(name string) (int, ProcessInfo, error) {
	path := "/proc/" + name + "/stat"
	b, err := infile.ReadAll(path, "a process's stat file", 4096)
	if err != nil {
		return 0, ProcessInfo{}, err
	}
	i, j := bytes.IndexByte(b, ' '), bytes.LastIndexByte(b, ')')
	if i < 0 || j < i {
		return 0, ProcessInfo{}, fmt.Errorf("%s: unexpected form", path)
	}
	pid, err := strconv.Atoi(string(b[:i]))
	f := strings.Fields(string(b[j+1:])) // f[0] is field 3, the state
	if err != nil || len(f) < 20 || len(f[0]) != 1 {
		return 0, ProcessInfo{}, fmt.Errorf("%s: unexpected form", path)
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return 0, ProcessInfo{}, fmt.Errorf("%s: unexpected form", path)
	}
	return pid, ProcessInfo{Start: start, State: f[0][0]}, nil
}
