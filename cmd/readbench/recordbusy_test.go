package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/peertest"
)

// lateHop is an HTTP hop in front of the recording proxy at target that
// holds each resources/read request back by its URI's delay before it
// passes it on: what a busy host's event loop and network do to the reads
// one message sent together (they reached the proxy 60 to 98 ms after the
// client sent them, issue 47, item 8). Every other request, and every
// answer (event streams flushed as they come), passes at once. It
// returns the hop's endpoint, on 127.0.0.1.
func lateHop(t *testing.T, target string, delay map[string]time.Duration) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(&url.URL{Scheme: u.Scheme, Host: u.Host}) },
		FlushInterval: -1,
		// A client that closes its stream (the SDK's at its end) is no
		// failure of the test's: answer it without a word in the log.
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) },
	}
	hop := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if bytes.Contains(body, []byte(`"resources/read"`)) {
				for uri, d := range delay {
					if bytes.Contains(body, []byte(`"`+uri+`"`)) {
						select {
						case <-time.After(d):
						case <-r.Context().Done():
							return
						}
					}
				}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		rp.ServeHTTP(w, r)
	}))
	return hop.URL + u.Path
}

// TestRecordSDKClientTurnsArriveLate is issue 47's item 8 with the client
// that showed it: the official TypeScript SDK's client
// (peers/sdk-client-turns.mjs) reads six turns of three documents at once
// (Promise.all), 600 ms apart, through `readbench record`, each read held
// back 0, 60 and 95 ms on its way (in the order of its request ids, and
// reversed), against the SDK's server (stateful with SSE answers,
// stateless with JSON ones), which answers each before the next arrives.
// The recording holds the client's six turns, not the twelve to eighteen
// a fixed 50 ms window made of them, each read saying how its turn was
// grouped and how sure that is.
func TestRecordSDKClientTurnsArriveLate(t *testing.T) {
	node := needs.Tool(t, "node", installNode)
	sdk := sdkServer(t)
	machine := watchMachine()
	doc := []string{"doc://text/1k", "doc://blob/4k", "doc://text/64k"}
	turns := slices.Repeat([][]string{doc}, 6)
	const gap = 600 * time.Millisecond
	for _, tc := range []struct {
		name   string
		server []string
		delay  []time.Duration // of doc[0], doc[1], doc[2], sent in that order
	}{
		{"stateful-sse", []string{"stateful", "sse"}, []time.Duration{0, 60 * time.Millisecond, 95 * time.Millisecond}},
		{"stateless-json-reversed", []string{"stateless", "json"}, []time.Duration{95 * time.Millisecond, 60 * time.Millisecond, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			upstream := startHTTPPeer(t, node, append([]string{sdk, "http", "{port}"}, tc.server...)...)
			proxy, stop := startRecord(t, dir, upstream, "rec.jsonl")
			delay := map[string]time.Duration{}
			for i, d := range tc.delay {
				delay[doc[i]] = d
			}
			printed, span := sdkClientTurnsGap(t, node, gap, turns, "http", lateHop(t, proxy, delay))
			stop()
			rec, text := loadRecording(t, filepath.Join(dir, "rec.jsonl"))
			for _, rd := range rec.Reads {
				if rd.Outcome != "ok" || rd.GroupedBy == "" || rd.Confidence == nil {
					t.Errorf("read %s of turn %d: outcome %s, grouped_by %q, confidence %v", rd.URI, rd.Turn, rd.Outcome, rd.GroupedBy, rd.Confidence)
				}
			}
			// The reads of each turn did reach the proxy past the old
			// 50 ms window: the test holds back what it says it does.
			got, _ := turnsOf(rec)
			if len(got) == len(turns) {
				first, last := map[int]float64{}, map[int]float64{}
				for _, rd := range rec.Reads {
					if f, ok := first[rd.Turn]; !ok || rd.AtMs < f {
						first[rd.Turn] = rd.AtMs
					}
					last[rd.Turn] = max(last[rd.Turn], rd.AtMs)
				}
				for k, f := range first {
					if last[k]-f < 60 {
						t.Errorf("turn %d arrived within %.1f ms: the hop did not hold its reads back\n%s", k, last[k]-f, text)
					}
				}
			}
			// A contended machine may hold one read back further than the
			// test does (checkSameTurns then logs rather than fails), but
			// not split half the turns: the fixed window split every one
			// (twelve recorded), whatever the machine.
			if len(got) > len(turns)*3/2 {
				t.Errorf("%d turns recorded of the client's %d: %v", len(got), len(turns), got)
			}
			checkSameTurns(t, fmt.Sprintf("recorded (the client printed %s)", printed), rec, turns, span, 100*time.Millisecond, machine)
		})
	}
}
