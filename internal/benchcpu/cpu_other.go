//go:build !unix

package benchcpu

import "time"

// processCPU is not read outside Unix.
func processCPU() (time.Duration, bool) { return 0, false }
