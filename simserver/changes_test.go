package simserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
)

// TestChangeContent: a change gives the document other bytes of the same
// size and type, and its entries say their revision; an unchanged one
// reads as it always did; /files/ serves the current revision too.
func TestChangeContent(t *testing.T) {
	s := New(Options{})
	uri := "sim:///r.png?mime=image/png&size=5000"
	other := "sim:///o.png?mime=image/png&size=5000"
	read := func(u string) []byte {
		t.Helper()
		c := &call{id: []byte("1"), method: protocol.MethodResourcesRead, p: params{URI: &u}}
		a := s.serve(t.Context(), t.Context(), c)
		return bytes.Join(a.parts, nil)
	}
	before, otherBefore := read(uri), read(other)
	ch, err := s.Touch(uri)
	if err != nil || ch.Revision != 1 || ch.Seq != 1 {
		t.Fatalf("touch: %+v %v", ch, err)
	}
	after := read(uri)
	if bytes.Equal(before, after) {
		t.Fatal("the document did not change")
	}
	if !bytes.Contains(after, []byte(`"_meta":{"`+MetaRevision+`":1}`)) || bytes.Contains(before, []byte(MetaRevision)) {
		t.Errorf("revision marker: before %v, after %v", bytes.Contains(before, []byte(MetaRevision)), bytes.Contains(after, []byte(MetaRevision)))
	}
	r := decodeRead(t, decodeMsg(t, after))
	blob, _ := r.Contents[0]["blob"].(string)
	if !strings.HasPrefix(blob, "iVBORw0KGgo") || len(blob) != 4*((5000+2)/3) {
		t.Errorf("changed PNG: base64 of %d chars starting %.12q", len(blob), blob)
	}
	if !bytes.Equal(read(other), otherBefore) {
		t.Error("another document changed too")
	}
	if ch2, _ := s.Touch(uri); ch2.Revision != 2 || ch2.Seq != 2 || bytes.Equal(read(uri), after) {
		t.Errorf("second change %+v: want revision 2 and other bytes", ch2)
	}

	mux := http.NewServeMux()
	mux.Handle(FilesPrefix, s.Files())
	files := peertest.ServeLocal(t, mux).URL
	resp, err := http.Get(files + FilesPrefix + "r.png?mime=image/png&size=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	want, _ := Content(uri)
	if len(raw) != 5000 || bytes.Equal(raw, want[0].Data) {
		t.Errorf("/files/ served %d bytes, the unchanged document's: %v", len(raw), bytes.Equal(raw, want[0].Data))
	}
}

// TestTouchErrors: the tool, the HTTP trigger and Touch refuse what is not
// a resource.
func TestTouchErrors(t *testing.T) {
	s := New(Options{})
	if _, err := s.Touch("docs://x"); !errors.Is(err, ErrNotSim) {
		t.Errorf("Touch(docs://x) = %v, want ErrNotSim", err)
	}
	if _, err := s.Touch("sim:///x?size=nope"); !errors.Is(err, ErrBadURI) {
		t.Errorf("Touch(bad) = %v, want ErrBadURI", err)
	}
	base := startSubHTTP(t, s)
	for _, tc := range []struct {
		method, query string
		want          int
	}{
		{http.MethodGet, "?uri=sim:///a", http.StatusMethodNotAllowed},
		{http.MethodPost, "", http.StatusBadRequest},
		{http.MethodPost, "?uri=docs://x", http.StatusNotFound},
		{http.MethodPost, "?uri=" + urlQuery("sim:///x?size=nope"), http.StatusBadRequest},
		{http.MethodPost, "?uri=" + urlQuery("sim:///a?size=3"), http.StatusOK},
	} {
		req, _ := http.NewRequest(tc.method, base+ChangesPath+tc.query, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s%s: %d, want %d", tc.method, ChangesPath, tc.query, resp.StatusCode, tc.want)
		}
	}
	p := startStdio(t, s)
	call := func(id int, args string) *protocol.Message {
		return p.roundTrip(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"touch","arguments":` + args + `}}`)
	}
	if m := call(1, `{}`); rpcError(t, m).Code != protocol.CodeInvalidParams {
		t.Errorf("touch {}: %v", m.Error)
	}
	var res struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if m := call(2, `{"uri":"docs://x"}`); json.Unmarshal(m.Result, &res) != nil || !res.IsError || res.StructuredContent["code"] != "not_found" {
		t.Errorf("touch docs://x: %s", m.Result)
	}
	m := p.roundTrip(request(t, 3, protocol.MethodToolsList, nil))
	if !bytes.Contains(m.Result, []byte(`"name":"touch"`)) {
		t.Errorf("tools/list does not list touch: %.300s", m.Result)
	}
}

// TestChangesOnTheirOwn: Options.Changes changes the URIs someone
// follows, round-robin, each change a higher sequence number.
func TestChangesOnTheirOwn(t *testing.T) {
	s := New(Options{Changes: 200})
	defer s.Close()
	url := startHTTP(t, s)
	a, b := "sim:///a?mime=text/plain&size=1", "sim:///b?mime=text/plain&size=1"
	rs := openListenStream(t, url, 1, b, a)
	wantNotification(t, rs.next(), protocol.NotifySubscriptionsAcked, "1")
	var uris []string
	last := 0
	for range 4 {
		m := rs.next()
		uri := wantNotification(t, m, protocol.NotifyResourceUpdated, "1")
		_, meta, _ := notifParams(t, m)
		var seq int
		if err := json.Unmarshal(meta[MetaChangeSeq], &seq); err != nil || seq <= last {
			t.Fatalf("changeSeq %s after %d", meta[MetaChangeSeq], last)
		}
		last = seq
		uris = append(uris, uri)
	}
	if uris[0] == uris[1] || uris[1] == uris[2] || uris[0] != uris[2] {
		t.Errorf("changes went to %v, want the two URIs in turn", uris)
	}
}
