package driver

import (
	"fmt"
	"testing"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
)

// TestDigestRule: every URI's first ok read is digested up to digestAll
// URIs, then the fixed 1-in-16 sample by URI hash, never more than
// digestMax; a URI is asked once it has a digest no more, and a failed
// read (no digest) leaves it to be asked again.
func TestDigestRule(t *testing.T) {
	d := &contentDigests{}
	if !d.want("u") {
		t.Fatal("a new URI is not asked for")
	}
	d.store("u", &client.Answer{}) // a failed read: no digest
	if !d.want("u") {
		t.Fatal("a URI whose read failed is not asked again")
	}
	d.store("u", &client.Answer{Digest: "sha256:aa", MIME: "text/plain", ByteCounts: stats.ByteCounts{DiskBytes: 3}})
	d.store("u", &client.Answer{Digest: "sha256:bb"}) // the first digest stays
	if d.want("u") {
		t.Fatal("a digested URI is asked again")
	}
	if got := d.snapshot()["u"]; got.SHA256 != "sha256:aa" || got.MIME != "text/plain" || got.Bytes != 3 {
		t.Fatalf("stored %+v", got)
	}
	for i := 1; i < digestAll; i++ {
		uri := fmt.Sprintf("sim:///a-%d", i)
		if !d.want(uri) {
			t.Fatalf("URI %d of the first %d not asked for", i, digestAll)
		}
		d.store(uri, &client.Answer{Digest: "sha256:x"})
	}
	asked, sampled := 0, 0
	for i := range 100000 {
		uri := fmt.Sprintf("sim:///b-%d", i)
		d.mu.Lock()
		n := len(d.m)
		d.mu.Unlock()
		want := d.want(uri)
		if want != (fnv1a(uri)%digestSample == 0 && n < digestMax) {
			t.Fatalf("%s: want %v against the sampling rule", uri, want)
		}
		if want {
			asked++
			d.store(uri, &client.Answer{Digest: "sha256:y"})
		}
		if fnv1a(uri)%digestSample == 0 {
			sampled++
		}
	}
	if n := len(d.snapshot()); n != digestMax || asked != digestMax-digestAll || sampled < 5000 {
		t.Errorf("%d digests (%d asked beyond the first %d, %d in the sample): want %d in all", n, asked, digestAll, sampled, digestMax)
	}
}

// TestFNV1a pins the sampling hash: FNV-1a, 64 bit, so every run and
// version samples the same URIs.
func TestFNV1a(t *testing.T) {
	for s, want := range map[string]uint64{
		"":  0xcbf29ce484222325,
		"a": 0xaf63dc4c8601ec8c,
		"sim:///compare/text.md?mime=text/markdown&size=1024": 0xa7c26e312531b7cf,
	} {
		if got := fnv1a(s); got != want {
			t.Errorf("fnv1a(%q) = %#x, want %#x", s, got, want)
		}
	}
}
