package statedir

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/hometest"
	"github.com/stretchr/testify/assert"
)

// renames matches a rename or a sync of a file or directory: only
// internal/atomicfile does either (a file in place, a directory made
// whole, a manifest committed), so that every file others read is
// whole under its name.
var renames = regexp.MustCompile(`\bos\.Rename\(|\.Sync\(\)`)

// seconds matches what a second home of the state would write: a lock
// (flock), a manifest seal or its checksum, a directory walk that adds up
// sizes, or a type or function named as the copies this package replaced.
var seconds = regexp.MustCompile(`syscall\.Flock\(|crc32c:%08x|` +
	`func (\([^)]*\) )?(lockDir|lockWork|diskUse|syncPath|depthDir|tmpDir)\(|` +
	`type (envelope|sealed) struct|json:"checksum"|lockName\s*=|"manifest\.json"|"gapset-state"`)

// The enumeration's state has one home: no Go file of either module
// outside this package locks, seals or counts a state directory, and none
// outside internal/atomicfile renames or syncs.
func TestOneHome(t *testing.T) {
	hometest.Lines(t, func(path string, n int, line string) {
		if strings.HasPrefix(path, "internal/atomicfile/") {
			return
		}
		assert.False(t, renames.MatchString(line), "%s:%d renames or syncs itself (use internal/atomicfile): %s", path, n, strings.TrimSpace(line))
		if !strings.HasPrefix(path, "internal/statedir/") {
			assert.False(t, seconds.MatchString(line), "%s:%d is a second home of the state (use internal/statedir): %s", path, n, strings.TrimSpace(line))
		}
	})
}
