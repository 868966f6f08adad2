package simserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/readbench/readbench/protocol"
)

// FilesPrefix is where Files is mounted by readbench serve: GET
// /files/NAME?QUERY serves the document sim:///NAME?QUERY.
const FilesPrefix = "/files/"

// FilesServerHeader is the Server header value of a /files/ answer:
// Options.Name, a slash and Options.Version. A plain HTTP client has no
// handshake, so this is how it learns what it is talking to; that
// mime+size classes may be synthesized as sim: URIs it learns from
// protocol.HeaderSimURIs, which every /files/ answer carries.
func (s *Server) FilesServerHeader() string { return s.opts.Name + "/" + s.opts.Version }

// Files returns the plain HTTP half of the ranged read (docs/check.md
// (read tool, over plain HTTP)): GET or HEAD of FilesPrefix+NAME?QUERY
// answers the bytes of sim:///NAME?QUERY raw, with the Content-Type the
// listing and the read tool declare, Content-Length and Accept-Ranges:
// bytes. One Range (bytes=a-b, a- or -n) gets 206 and Content-Range; a range
// wholly past the end gets 416 with Content-Range: bytes */SIZE, as HTTP
// requires (the MCP tool answers empty bytes with eof there instead); a
// Range of several parts is ignored (200, the whole document). A URI of
// another scheme cannot be named here, so failures are: 404 not_found for
// a bad sim: URI (no such file), 400 invalid_path for a directory
// (entries other than 1) or a symlink (symlink=true), 500 internal for
// error=CODE. Error bodies are JSON {code, message}. delay=, stall=,
// --workers and --stall-every shape these answers as they shape reads.
func (s *Server) Files() http.Handler { return http.HandlerFunc(s.serveFile) }

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	if s.isCrashed() {
		panic(http.ErrAbortHandler)
	}
	if !hostAllowed(r) {
		http.Error(w, "Forbidden: Host is not a loopback name", http.StatusForbidden)
		return
	}
	w.Header().Set("Server", s.FilesServerHeader())
	w.Header().Set(protocol.HeaderSimURIs, "1") // any sim: URI is served here (its path and query)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		fileError(w, http.StatusMethodNotAllowed, "invalid_path", "only GET and HEAD")
		return
	}
	name, ok := strings.CutPrefix(r.URL.EscapedPath(), FilesPrefix)
	if !ok || name == "" {
		fileError(w, http.StatusNotFound, "not_found", "no such file: "+r.URL.Path)
		return
	}
	uri := Scheme + ":///" + name
	if r.URL.RawQuery != "" {
		uri += "?" + r.URL.RawQuery
	}
	spec, err := ParseSimURI(uri)
	switch {
	case err != nil:
		fileError(w, http.StatusNotFound, "not_found", "no such file: "+err.Error())
		return
	case spec.Entries != 1:
		fileError(w, http.StatusBadRequest, "invalid_path", fmt.Sprintf("path is a directory (entries=%d)", spec.Entries))
		return
	case spec.Symlink:
		fileError(w, http.StatusBadRequest, "invalid_path", "path is a symlink: stat it and read its target")
		return
	}
	s.stats.reads.Add(1)
	s.stats.inFlight.Add(1)
	defer s.stats.inFlight.Add(-1)
	release, _, ok := s.admit(r.Context(), context.WithoutCancel(r.Context()), spec)
	if !ok {
		return // the client left, or the server crashed
	}
	defer release()
	if spec.ErrorCode != 0 {
		fileError(w, http.StatusInternalServerError, "internal", fmt.Sprintf("backing store failed (error=%d)", spec.ErrorCode))
		return
	}
	if strings.Contains(r.Header.Get("Range"), ",") {
		r.Header.Del("Range") // one range only: RFC 9110 lets a server ignore Range
	}
	doc := s.document(spec)
	w.Header().Set("Content-Type", spec.DeclaredMIME())
	w.Header().Set("Accept-Ranges", "bytes")
	// ServeContent implements Range, 206, Content-Range, 416 with
	// bytes */SIZE and HEAD; a zero modification time sends no
	// Last-Modified and skips the conditional headers.
	http.ServeContent(w, r, "", time.Time{}, doc)
}

// fileError writes a /files/ failure: the seed's code and a message as JSON.
func fileError(w http.ResponseWriter, status int, code, msg string) {
	h := w.Header()
	h.Del("Content-Range")
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"code": code, "message": msg})
	_, _ = w.Write(append(b, '\n'))
}
