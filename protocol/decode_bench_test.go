package protocol

import "testing"

// BenchmarkDecodeRequest decodes the resources/read request readbench's
// client sends in the 2026-07-28 era, by encoding/json and by Decode.
func BenchmarkDecodeRequest(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":12345,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"readbench","version":"0.1.0"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"uri":"sim:///compare/text.md?mime=text/markdown\u0026size=1024"}}`)
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeJSON(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fast", func(b *testing.B) { // Decode: the one-pass path
		for b.Loop() {
			if _, err := Decode(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
