package main

import (
	"testing"
)

// TestCheckSubscriptionRowsStdio: the subscription rows over stdio, in
// the 2026-07-28 era, against `readbench serve --stdio`: clean, every row
// passes; a listen that ignores its notifications/cancelled fails
// "unsubscribe stops" (over HTTP the closed stream passes it by
// construction); a notifications/tools/list_changed tagged with the
// listen's subscriptionId fails "requested types" on the shared stdout
// too. Each case fails exactly its row.
func TestCheckSubscriptionRowsStdio(t *testing.T) {
	t.Parallel()
	rows := []string{"subscribe ack", "subscription ids", "requested types", "subscribed uri", "unsubscribe stops"}
	for _, c := range []struct {
		fault, fails string // fails: the one row that fails ("" none)
	}{{"", ""}, {"ignore_unsubscribe", "unsubscribe stops"}, {"unrequested", "requested types"}} {
		t.Run("fault "+c.fault, func(t *testing.T) {
			t.Parallel()
			target := "stdio:" + binary + " serve --stdio"
			if c.fault != "" {
				target += " --subscription-fault " + c.fault
			}
			d, code, stderr := runCheck(t, "--target", target, "--sample", "1", "--timeout", "5s")
			for _, r := range rows {
				want := "pass"
				if r == c.fails {
					want = "fail"
				}
				d.expect(t, r, want, "")
			}
			if wantCode := map[bool]int{false: 0, true: 1}[c.fails != ""]; code != wantCode {
				t.Errorf("exit %d, want %d: %s", code, wantCode, stderr)
			}
		})
	}
}
