// Package tty tells the examples whether they write to a person at a
// terminal or to a pipe or a file, without a dependency: colours and
// progress lines that redraw themselves are for terminals only.
package tty

import "os"

// IsTerminal reports whether f is a terminal: a character device. (Other
// character devices, such as /dev/null, count too; they show nothing, so
// nothing is lost.)
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// Color reports whether output to f may be coloured: f is a terminal and
// the NO_COLOR environment variable (no-color.org) is unset or empty.
func Color(f *os.File) bool { return IsTerminal(f) && os.Getenv("NO_COLOR") == "" }
