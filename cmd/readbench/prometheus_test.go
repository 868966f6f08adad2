package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/promtest"
)

// freePort returns a port on 127.0.0.1 nothing listens on now.
func freePort(t *testing.T) int { return promtest.FreePort(t) }

// startPrometheus starts a real Prometheus (internal/promtest) with
// native histograms and returns its base URL; scrape, when not "", is a
// host:port it scrapes every second.
func startPrometheus(t *testing.T, scrape string) string {
	t.Helper()
	return promtest.Start(t, promtest.Options{Scrape: scrape, Features: []string{"native-histograms"}})
}

// sample is one element of an instant vector.
type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// float is the sample's value.
func (s sample) float(t *testing.T) float64 {
	t.Helper()
	str, _ := s.Value[1].(string)
	v, err := strconv.ParseFloat(str, 64)
	if err != nil {
		t.Fatalf("value %v: %v", s.Value, err)
	}
	return v
}

// promQuery evaluates expr at the moment at.
func promQuery(t *testing.T, base, expr string, at time.Time) []sample {
	t.Helper()
	q := url.Values{"query": {expr}, "time": {strconv.FormatFloat(float64(at.UnixNano())/1e9, 'f', 3, 64)}}
	resp, err := http.Get(base + "/api/v1/query?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []sample `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if body.Status != "success" {
		t.Fatalf("%s: %s", expr, body.Error)
	}
	return body.Data.Result
}

// byLabel maps each sample's label l to its value.
func byLabel(t *testing.T, samples []sample, l string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	for _, s := range samples {
		m[s.Metric[l]] = int64(s.float(t))
	}
	return m
}
