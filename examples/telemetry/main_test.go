package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/status"
)

// The smoke test: the agent run recovers, and the retry counter is on the
// /metrics endpoint, scraped over HTTP as Prometheus would.
func TestMetricsEndpoint(t *testing.T) {
	tel, err := setup("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tel.close()
	if _, err := runAgent(context.Background(), tel.status); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + tel.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %v, %v", resp.Status, err)
	}
	want := map[string]bool{
		`resilient_retries_total{error_type="rate_limited",resilient_target="openai/gpt-4o-mini",resilient_wait_source="retry_after"} 1`: false,
		`resilient_retries_total{error_type="overloaded",resilient_target="openai/gpt-4o-mini",resilient_wait_source="backoff"} 1`:       false,
		`resilient_retry_wait_seconds_sum{resilient_target="openai/gpt-4o-mini",resilient_wait_source="retry_after"} 1`:                  false,
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		if _, ok := want[sc.Text()]; ok {
			want[sc.Text()] = true
		}
	}
	for line, found := range want {
		if !found {
			t.Errorf("not scraped: %s\nin:\n%s", line, body)
		}
	}
}

// The README promises that this example runs offline and prints the trace
// tree; keep it honest, picture included.
func TestRuns(t *testing.T) {
	dir := t.TempDir()
	svgFile := filepath.Join(dir, "trace.svg")
	var out bytes.Buffer
	if err := run("127.0.0.1:0", false, filepath.Join(dir, "spans.json"), svgFile, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"answer: Your kettle (order 4471) shipped on Tuesday.",
		"├─ chat gpt-4o-mini", "resilient.attempt 1", "rate_limited", "retry in 1s (retry_after)",
		"└─ HTTP POST", "resilient_retries_total{",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	svg, err := os.ReadFile(svgFile)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the picture is not well-formed XML: %v", err)
		}
	}
	if !bytes.Contains(svg, []byte("resilient.retry")) {
		t.Error("the picture lacks the retry")
	}
}

// The status page is served beside /metrics: the agent's model and its
// tool's breaker, closed after the run recovered.
func TestStatusEndpoint(t *testing.T) {
	tel, err := setup("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tel.close()
	if _, err := runAgent(context.Background(), tel.status); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + tel.addr + "/status/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep status.Report
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /status/: %v, %v", resp.Status, err)
	}
	if !rep.Ready || len(rep.Models) != 1 || rep.Models[0].Name != "chat" || rep.Models[0].Breaker.State != "closed" ||
		len(rep.Breakers) != 1 || rep.Breakers[0].Name != "tool:lookup_order" {
		t.Errorf("the status page: %+v", rep)
	}
	resp, err = http.Post("http://"+tel.addr+"/status/breakers/chat/force_open", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("an action on the read-only page: %s, want 403 Forbidden", resp.Status)
	}
}
