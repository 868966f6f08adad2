package main

import (
	"regexp"
	"slices"
	"testing"
)

func TestSerialTests(t *testing.T) {
	got, err := serialTests("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TestInsideIf", "TestOtherT", "TestSerial", "TestSubtestsParallel"}
	if !slices.Equal(got, want) {
		t.Errorf("serial tests %q, want %q", got, want)
	}
	if _, err := serialTests(t.TempDir()); err == nil {
		t.Error("a folder without tests gave no error")
	}
}

// TestPatternPartitions: -run and -skip with one pattern split the tests
// in two, with no name in both and none in neither (TestSerial must not
// also match TestSerialLong).
func TestPatternPartitions(t *testing.T) {
	re := regexp.MustCompile(pattern([]string{"TestA", "TestSerial"}))
	for name, serial := range map[string]bool{"TestA": true, "TestSerial": true, "TestSerialLong": false, "TestAB": false, "XTestA": false} {
		if re.MatchString(name) != serial {
			t.Errorf("%s: matched %t, want %t", name, !serial, serial)
		}
	}
}
