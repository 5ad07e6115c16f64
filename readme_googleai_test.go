package resilient_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/resilientgo/resilient/llms"
)

// The README's transport for googleai, whose WithHTTPClient option stops
// the API key being sent: the key must reach the server. (googleai itself
// is not linked: this module does not depend on Google's SDK.)
func TestREADMEGoogleAIKey(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("x-goog-api-key")
	}))
	defer srv.Close()
	resp, err := readmeGoogleAIClient("AIza-test").Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if key := <-got; key != "AIza-test" {
		t.Errorf("got x-goog-api-key %q, want the key", key)
	}
}

// readme:begin googleai
// googleai: WithHTTPClient drops the API key, so set it on the way out.
type apiKey struct {
	key  string
	base http.RoundTripper
}

func (t apiKey) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("x-goog-api-key", t.key)
	return t.base.RoundTrip(r)
}

// readme:end

func readmeGoogleAIClient(key string) *http.Client {
	// readme:begin googleai
	client := &http.Client{Transport: llms.NewTransport(apiKey{key, http.DefaultTransport})}
	// readme:end
	return client
}
