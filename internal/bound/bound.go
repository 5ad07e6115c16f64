// Package bound checks the time bounds given to the library's options, by
// the rule every option follows (see resilient.Option): a bound must be
// positive, and Forever is none.
package bound

import (
	"fmt"
	"math"
	"time"
)

// Forever is the duration that never passes (middleware.Forever).
const Forever = time.Duration(math.MaxInt64)

// Duration returns what an option called name keeps for the time bound d:
// d itself, or 0, no bound, for Forever. A d that is not positive is an
// error naming the option.
//
// Options call it when they are applied, not when they are made, into a
// variable of their own: an option may be applied more than once (to a
// model's two pipelines, to each target of a transport).
func Duration(name string, d time.Duration) (time.Duration, error) {
	switch {
	case d <= 0:
		return 0, fmt.Errorf("%s(%v): must be positive (Forever for none)", name, d)
	case d == Forever:
		return 0, nil
	}
	return d, nil
}
