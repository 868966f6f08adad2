//go:build unix

package results

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// nullDevice makes a character device node with /dev/null's numbers (1, 3)
// in dir. Making one needs root: CI runs as root, so there the test must
// run; elsewhere it is skipped with the reason.
func nullDevice(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "null")
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		needs.Missing(t, "root, to make a device node with mknod ("+err.Error()+")", "run the tests as root, as CI does")
	}
	return path
}

// TestWriteFileKeepsDevice: `run --out /dev/null` as root once replaced the
// device with a regular file. Saving a result to a device must write
// through it and leave the node a device.
func TestWriteFileKeepsDevice(t *testing.T) {
	dir := t.TempDir()
	dev := nullDevice(t, dir)
	if err := fixture(t, false).SaveFile(dev); err != nil {
		t.Fatalf("save to a device: %v", err)
	}
	info, err := os.Lstat(dev)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v: the device node was replaced", dev, info.Mode())
	}
	if !IsStream(dev) {
		t.Error("a device is a stream")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries: no temporary file may be left beside a device", len(entries))
	}
}

// TestWriteFileThroughFIFO: a FIFO's reader gets the whole result, and the
// FIFO stays a FIFO.
func TestWriteFileThroughFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() { // the reader: opening blocks until the writer opens
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	r := fixture(t, true)
	if err := r.SaveFile(fifo); err != nil {
		t.Fatalf("save to a FIFO: %v", err)
	}
	want, _ := r.Marshal()
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("the reader got %d bytes, want the %d of the result", len(b), len(want))
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", info, err)
	}
}

func TestWriteOutputStdout(t *testing.T) {
	var buf bytes.Buffer
	r := fixture(t, false)
	if err := r.SaveTo(Stdout, &buf); err != nil {
		t.Fatal(err)
	}
	want, _ := r.Marshal()
	if !bytes.Equal(buf.Bytes(), want) {
		t.Error("stdout does not hold the result")
	}
	if _, err := os.Stat(Stdout); err == nil {
		t.Error(`a file named "-" was created`)
	}
	if err := WriteOutput(Stdout, want, nil); err == nil {
		t.Error("- without a stdout: want an error")
	}
}

// TestWriteFileRefuses: a directory and a missing folder are errors that
// name what is wrong, and nothing is created.
func TestWriteFileRefuses(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nonexistent", "dir")
	cases := []struct{ path, want string }{
		{dir, "is a directory"},
		{filepath.Join(missing, "x.json"), "the folder " + missing + " does not exist"},
	}
	for _, c := range cases {
		err := fixture(t, false).SaveFile(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.path, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nonexistent")); err == nil {
		t.Error("the missing folder was created")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d entries left in the directory", len(entries))
	}
}
