package client

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"hash"

	"github.com/readbench/readbench/protocol"
)

// ReadOption asks Session.Read for more than the verdict every read gets.
type ReadOption func(*readConfig)

// readConfig is what the options of one read asked for.
type readConfig struct {
	digest bool
}

// WithDigest asks for Verdict.Digest: the sha256 of the decoded content of
// every entry, in order. compare tells from it that a server version
// changed what a read returns. Decoding base64 costs, so only reads that
// ask for it pay.
func WithDigest() ReadOption { return func(c *readConfig) { c.digest = true } }

// digestPrefix names the hash in a Verdict.Digest.
const digestPrefix = "sha256:"

// Read issues one resources/read and classifies its answer (Answer.Verdict)
// as the transport hands it over. When ctx ends first the read is
// cancelled the way the transport and era say (see docs/measurement.md,
// cancellation) and ctx's error returned.
func (s *Session) Read(ctx context.Context, uri string, opts ...ReadOption) (*Answer, error) {
	var cfg readConfig
	for _, o := range opts {
		o(&cfg)
	}
	a, err := s.send(ctx, protocol.MethodResourcesRead, uri, s.withMeta(map[string]any{"uri": uri}))
	if err != nil {
		return nil, err
	}
	a.Verdict = Classify(a.Body, uri, s.modern)
	if cfg.digest && a.Verdict.Kind == OK {
		a.Verdict.Digest = contentDigest(a.Body)
	}
	return a, nil
}

// contentDigest is "sha256:<hex>" of the decoded content of a usable
// answer's entries, in order: text as the UTF-8 bytes its JSON string
// decodes to, blob as the bytes its base64 decodes to.
func contentDigest(body []byte) string {
	h := sha256.New()
	var contents []byte
	_ = protocol.ObjectFields(body, func(k, v []byte) error {
		if string(k) == "result" {
			_ = protocol.ObjectFields(v, func(k, v []byte) error {
				if string(k) == "contents" {
					contents = v
				}
				return nil
			})
		}
		return nil
	})
	_ = protocol.ArrayElements(contents, func(e []byte) error {
		return protocol.ObjectFields(e, func(k, v []byte) error {
			switch string(k) {
			case "text":
				hashText(h, v)
			case "blob":
				hashBlob(h, v)
			}
			return nil
		})
	})
	return digestPrefix + hex.EncodeToString(h.Sum(nil))
}

// hashText adds a JSON string's decoded bytes to h.
func hashText(h hash.Hash, raw []byte) {
	var s string
	_ = json.Unmarshal(raw, &s)
	h.Write([]byte(s))
}

// hashBlob adds a base64 JSON string's decoded bytes to h.
func hashBlob(h hash.Hash, raw []byte) {
	var s string
	_ = json.Unmarshal(raw, &s)
	b, _ := base64.StdEncoding.DecodeString(s)
	h.Write(b)
}
