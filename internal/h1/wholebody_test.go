package h1

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/url"
	"testing"
	"time"
)

// wholeBody holds its bytes whole and fails any Read: only a transport
// that sends Bytes can send it.
type wholeBody struct{ b []byte }

func (w *wholeBody) Read([]byte) (int, error) { return 0, errors.New("read instead of Bytes") }
func (w *wholeBody) Close() error             { return nil }
func (w *wholeBody) Bytes() []byte            { return w.b }

// TestWholeBodyIsSentAsItsBytes: a WholeBody goes out as its Bytes (no
// copy read from it), and a Bytes that disagrees with ContentLength is
// refused before anything is written.
func TestWholeBodyIsSentAsItsBytes(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
	}))
	defer srv.Close()
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	body := []byte(`{"jsonrpc":"2.0","id":1}`)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL, nil)
	req.Body, req.ContentLength = &wholeBody{body}, int64(len(body))
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if s := <-got; s != string(body) {
		t.Fatalf("the server got %q", s)
	}
	req, _ = http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL, nil)
	req.Body, req.ContentLength = &wholeBody{body}, int64(len(body))+1
	if _, err := tr.RoundTrip(req); err == nil {
		t.Fatal("a body shorter than its ContentLength was sent")
	}
}

// TestWriteRequestURI: the request line's target is url.URL.RequestURI.
func TestWriteRequestURI(t *testing.T) {
	for _, raw := range []string{
		"http://h/mcp", "http://h", "http://h/", "http://h/a%2Fb/c", "http://h/a b", "http://h/mcp?x=1&y=%20",
		"http://h/mcp?", "http://h/ü", "http://h/*",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		writeRequestURI(w, u)
		w.Flush()
		if b.String() != u.RequestURI() {
			t.Errorf("%s: wrote %q, RequestURI %q", raw, b.String(), u.RequestURI())
		}
	}
	u := &url.URL{Scheme: "http", Opaque: "//h/opaque", RawQuery: "q"}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeRequestURI(w, u)
	w.Flush()
	if b.String() != u.RequestURI() {
		t.Errorf("opaque: wrote %q, RequestURI %q", b.String(), u.RequestURI())
	}
}

// TestFirstByteWithoutTrace: FirstByte gives the moment the trace hook
// sees, for h1's bodies only.
func TestFirstByteWithoutTrace(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	var hook time.Time
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{GotFirstResponseByte: func() { hook = time.Now() }})
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	before := time.Now()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	at, ok := FirstByte(resp.Body)
	if !ok || at.Before(before) || hook.Before(at) || hook.Sub(at) > time.Second {
		t.Fatalf("FirstByte %v %v, before %v, hook %v", at, ok, before, hook)
	}
	if _, ok := FirstByte(io.NopCloser(nil)); ok {
		t.Fatal("FirstByte of a body h1 did not make")
	}
}
