package tty

import (
	"os"
	"path/filepath"
	"testing"
)

// Pipes and files are not terminals: nothing written to them is coloured.
func TestPipesAndFilesAreNotTerminals(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, file := range []*os.File{r, w, f} {
		if IsTerminal(file) || Color(file) {
			t.Errorf("%s: IsTerminal %v, Color %v, want neither", file.Name(), IsTerminal(file), Color(file))
		}
	}
}

// A character device is taken for a terminal, unless NO_COLOR is set.
func TestCharacterDevicesAreTerminals(t *testing.T) {
	dev, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer dev.Close()
	if !IsTerminal(dev) {
		t.Skipf("%s is not a character device here", os.DevNull)
	}
	t.Setenv("NO_COLOR", "")
	if !Color(dev) {
		t.Error("Color: false for a terminal without NO_COLOR")
	}
	t.Setenv("NO_COLOR", "1")
	if Color(dev) {
		t.Error("Color: true with NO_COLOR set")
	}
}
