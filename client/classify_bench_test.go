package client

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"
)

// blobAnswer is a resources/read answer carrying n bytes as a blob.
func blobAnswer(n int) []byte {
	blob := base64.StdEncoding.EncodeToString(make([]byte, n))
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"x","mimeType":"image/png","blob":%q}]}}`, blob))
}

// BenchmarkCheckRead measures the read check on a 1 MiB blob answer;
// BenchmarkDecodeJSON is the full encoding/json decode it replaces, and
// BenchmarkCopy the cost of merely touching the bytes once. The check scans
// the bytes once as they stream in, so it should cost about what reading
// costs.
func BenchmarkCheckRead(b *testing.B) {
	body := blobAnswer(1 << 20)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if v := classify(body, "x", false); v.DiskBytes != 1<<20 {
			b.Fatal(v)
		}
	}
}

func BenchmarkDecodeJSON(b *testing.B) {
	body := blobAnswer(1 << 20)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var m struct {
			Result struct {
				Contents []struct {
					URI, MimeType string
					Blob          []byte
				}
			}
		}
		if err := json.Unmarshal(body, &m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCopy(b *testing.B) {
	body := blobAnswer(1 << 20)
	dst := make([]byte, len(body))
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		copy(dst, body)
	}
}
