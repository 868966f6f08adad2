package protocol

import (
	"encoding/json"
)

// readEntry is one contents entry of a resources/read result.
type readEntry struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     *[]byte `json:"blob,omitempty"` // encoding/json writes []byte as padded standard base64
}

// ReadAnswer encodes the answer a server sends for a resources/read of one
// document: as text (JSON-escaped) or as a blob (base64). Its length is the
// wire size of a JSON body; stdio adds one newline, SSE its framing. It is
// the arithmetic behind `readbench inflation`, made with the encoder rather
// than estimated.
func ReadAnswer(uri, mime string, data []byte, asText bool) []byte {
	e := readEntry{URI: uri, MIMEType: mime}
	if asText {
		s := string(data)
		e.Text = &s
	} else {
		if data == nil {
			data = []byte{} // nil would encode as null
		}
		e.Blob = &data
	}
	result, _ := json.Marshal(map[string]any{"contents": []readEntry{e}}) // only marshalable types
	return AppendResult(nil, IntID(1), result)
}
