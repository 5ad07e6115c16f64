//go:build !race

package taxonomy_test

// raceDetector reports whether the test binary runs under the race detector.
const raceDetector = false
