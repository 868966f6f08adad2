package main

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
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/units"
	"github.com/urfave/cli/v2"
)

func inflationCommand() *cli.Command {
	return &cli.Command{
		Name:      "inflation",
		Usage:     "the wire arithmetic of sizes or files: base64 length, padding, JSON envelope",
		ArgsUsage: "SIZE | NxSIZE | FILE ...",
		UsageText: "readbench inflation 1834208          # a 1,834,208-byte PNG: 2,445,612 base64 characters, one '='\n" +
			"readbench inflation 40x3MB            # a folder of 40 mockups: 160 MB on the wire\n" +
			"readbench inflation docs/*.md logo.png  # files: text JSON-escaped, binary as base64",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.Exit("inflation: give at least one size or file (see --help)", exitUsage)
			}
			var rows []report.InflationRow
			for _, arg := range c.Args().Slice() {
				r, err := inflationRow(arg)
				if err != nil {
					return cli.Exit("inflation: "+err.Error(), exitUsage)
				}
				rows = append(rows, r)
			}
			return report.WriteInflation(c.App.Writer, rows)
		},
	}
}

// inflationRow reads one argument: an existing file, or [N x]SIZE.
func inflationRow(arg string) (report.InflationRow, error) {
	if data, err := os.ReadFile(arg); err == nil {
		return fileRow(arg, data), nil
	}
	count, size := int64(1), arg
	if n, rest, ok := strings.Cut(strings.ReplaceAll(arg, "*", "x"), "x"); ok {
		c, err := strconv.ParseInt(n, 10, 64)
		if err != nil || c < 1 {
			return report.InflationRow{}, fmt.Errorf("%q: want SIZE, NxSIZE or an existing file", arg)
		}
		count, size = c, rest
	}
	n, err := units.ParseSize(size)
	if err != nil {
		return report.InflationRow{}, fmt.Errorf("%q is not a file, and %w", arg, err)
	}
	env := int64(len(protocol.ReadAnswer("file:///example", "application/octet-stream", nil, false)))
	return report.InflationRow{Input: arg, Count: count, Disk: n, Envelope: env, Payload: stats.Base64Len(n)}, nil
}

// fileRow encodes a file as a server would: text types that are valid
// UTF-8 as text, the rest as a base64 blob.
func fileRow(path string, data []byte) report.InflationRow {
	typ := mime.TypeByExtension(filepath.Ext(path))
	if typ == "" {
		typ = http.DetectContentType(data)
	}
	typ, _, _ = strings.Cut(typ, ";")
	text := (strings.HasPrefix(typ, "text/") || strings.HasSuffix(typ, "json") || strings.HasSuffix(typ, "xml")) && utf8.Valid(data)
	uri := "file:///" + filepath.ToSlash(filepath.Base(path))
	wire := int64(len(protocol.ReadAnswer(uri, typ, data, text)))
	env := int64(len(protocol.ReadAnswer(uri, typ, nil, text)))
	return report.InflationRow{Input: path, Count: 1, Disk: int64(len(data)), Text: text, Envelope: env, Payload: wire - env}
}
