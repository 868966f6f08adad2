package client

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/readbench/readbench/stats"
)

func TestClassifyMessage(t *testing.T) {
	sum := sha256.Sum256([]byte("hi\n"))
	for _, tc := range []struct {
		name, msg string
		modern    bool
		outcome   stats.Outcome
		disk      int64
		digest    string
	}{
		{"text", `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"doc://a","mimeType":"text/plain","text":"hi\n"}]}}`, false, stats.OK, 3, "sha256:" + hex.EncodeToString(sum[:])},
		{"blob", `{"jsonrpc":"2.0","id":"x","result":{"contents":[{"uri":"doc://a","blob":"aGkK"}]}}`, false, stats.OK, 3, "sha256:" + hex.EncodeToString(sum[:])},
		{"legacy-not-found", `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource not found"}}`, false, stats.NotFound, 0, ""},
		{"modern-not-found", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown"}}`, true, stats.NotFound, 0, ""},
		{"legacy-invalid", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad uri"}}`, false, stats.InvalidParams, 0, ""},
		{"neither", `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"doc://a"}]}}`, false, stats.Protocol, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := ClassifyMessage([]byte(tc.msg), "doc://a", tc.modern)
			if a.Outcome != tc.outcome || a.DiskBytes != tc.disk || a.Digest != tc.digest || a.WireBytes != int64(len(tc.msg)) {
				t.Errorf("%+v", a)
			}
		})
	}
}
