package driver

import (
	"slices"
	"testing"

	"github.com/readbench/readbench/workload"
)

// TestVerifyPicks: the listed sizes init reads to check are those with a
// size and a type, at most perType per type, spread over the listing.
func TestVerifyPicks(t *testing.T) {
	res := []workload.Resource{
		{URI: "a", MIME: "text/markdown", Size: 100},
		{URI: "b", MIME: "text/markdown", Size: workload.UnknownSize},
		{URI: "c", MIME: "", Size: 5},
		{URI: "d", MIME: "text/markdown; charset=utf-8", Size: 7},
		{URI: "e", MIME: "image/png", Size: 9},
		{URI: "f", MIME: "text/markdown", Size: 8},
	}
	cases := []struct {
		perType int
		want    []int
	}{{0, nil}, {-1, nil}, {1, []int{0, 4}}, {2, []int{0, 3, 4}}, {3, []int{0, 3, 5, 4}}}
	for _, c := range cases {
		if got := verifyPicks(res, c.perType); !slices.Equal(got, c.want) {
			t.Errorf("perType %d: %v, want %v", c.perType, got, c.want)
		}
	}
}
