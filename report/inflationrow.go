package report

import (
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/units"
)

// InflationOf is the inflation row of one argument of readbench
// inflation: an existing file, encoded as a server would, or [N x]SIZE,
// a blob of that many bytes (N of them).
func InflationOf(arg string) (InflationRow, error) {
	if data, err := os.ReadFile(arg); err == nil {
		return fileRow(arg, data), nil
	}
	count, size := int64(1), arg
	if n, rest, ok := strings.Cut(strings.ReplaceAll(arg, "*", "x"), "x"); ok {
		c, err := strconv.ParseInt(n, 10, 64)
		if err != nil || c < 1 {
			return InflationRow{}, fmt.Errorf("%q: want SIZE, NxSIZE or an existing file", arg)
		}
		count, size = c, rest
	}
	n, err := units.ParseSize(size)
	if err != nil {
		return InflationRow{}, fmt.Errorf("%q is not a file, and %w", arg, err)
	}
	env := int64(len(protocol.ReadAnswer("file:///example", "application/octet-stream", nil, false)))
	return InflationRow{Input: arg, Count: count, Disk: n, Envelope: env, Payload: stats.Base64Len(n)}, nil
}

// fileRow encodes a file as a server would: text types that are valid
// UTF-8 as text, the rest as a base64 blob.
func fileRow(path string, data []byte) InflationRow {
	typ := mime.TypeByExtension(filepath.Ext(path))
	if typ == "" {
		typ = http.DetectContentType(data)
	}
	typ, _, _ = strings.Cut(typ, ";")
	text := (strings.HasPrefix(typ, "text/") || strings.HasSuffix(typ, "json") || strings.HasSuffix(typ, "xml")) && utf8.Valid(data)
	uri := "file:///" + filepath.ToSlash(filepath.Base(path))
	wire := int64(len(protocol.ReadAnswer(uri, typ, data, text)))
	env := int64(len(protocol.ReadAnswer(uri, typ, nil, text)))
	return InflationRow{Input: path, Count: 1, Disk: int64(len(data)), Text: text, Envelope: env, Payload: wire - env}
}
