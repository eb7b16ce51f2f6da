//go:build !unix

package infile

import "os"

// openNoWait opens path for reading; Check refused special files before.
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
