package driver

import (
	"fmt"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/simserver"
)

// TestListenSimServerFaults: the simulated server's subscription faults
// and limits, over Streamable HTTP, reach the subscriptions block as the
// counts they are, and the health line says them: a wrong subscriptionId
// and a notification before the acknowledgement are violations, a
// duplicate is counted apart from what was notified, a listen past the
// server's limit is refused "limit reached", a stream the server drops
// ends dropped and is listened again, the changes of the gap lost, and
// the accounting's identity holds throughout.
func TestListenSimServerFaults(t *testing.T) {
	for _, c := range []struct {
		name  string
		o     simserver.Options
		proto string
		check func(t *testing.T, s *results.Subscriptions)
	}{
		{"wrong_subscription_id", simserver.Options{SubscriptionFault: simserver.Wire("wrong_subscription_id")}, "auto",
			func(t *testing.T, s *results.Subscriptions) {
				if s.Violations.WrongSubscriptionID == 0 {
					t.Errorf("violations %+v", s.Violations)
				}
			}},
		{"notify_before_ack", simserver.Options{SubscriptionFault: simserver.Wire("notify_before_ack")}, "auto",
			func(t *testing.T, s *results.Subscriptions) {
				if s.Violations.BeforeAck == 0 {
					t.Errorf("violations %+v", s.Violations)
				}
			}},
		{"duplicate_notify", simserver.Options{SubscriptionFault: simserver.Wire("duplicate_notify")}, "auto",
			func(t *testing.T, s *results.Subscriptions) {
				if n := s.Notifications; n.Duplicates == 0 || n.Missed != 0 {
					t.Errorf("notifications %+v", n)
				}
			}},
		{"duplicate_notify legacy", simserver.Options{Stateful: true, SubscriptionFault: simserver.Wire("duplicate_notify")}, protocol.V20251125,
			func(t *testing.T, s *results.Subscriptions) {
				if n := s.Notifications; n.Duplicates == 0 || n.Missed != 0 || s.Mode != "subscribe" {
					t.Errorf("mode %s notifications %+v", s.Mode, n)
				}
			}},
		{"max listeners", simserver.Options{MaxListeners: 1}, "auto",
			func(t *testing.T, s *results.Subscriptions) {
				if st := s.Streams; st.Opened != 1 || st.Refused.LimitReached != 3 {
					t.Errorf("streams %+v", st)
				}
			}},
		{"drop streams", simserver.Options{DropStreamsAfter: 700 * time.Millisecond}, "auto",
			func(t *testing.T, s *results.Subscriptions) {
				if st := s.Streams; st.Ended.Dropped == 0 || st.Reconnects == 0 || s.Notifications.LostInGaps == 0 {
					t.Errorf("streams %+v notifications %+v", st, s.Notifications)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			hs := peertest.ServeLocal(t, simserver.New(c.o).Handler())
			res := runListen(t, listenWorkload(t, hs.URL+"/mcp", c.proto, fmt.Sprintf(touchListen, listenURIs)))
			c.check(t, res.Subscriptions)
			if res.Health.Mark() == "✓" {
				t.Errorf("health %q: the fault is not said", res.Health.Line)
			}
		})
	}
}
