package taxonomy_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// TestClientTimeoutIsTransient classifies the real error of an http.Client
// whose own Timeout passed while the server held the response: typed, and
// flattened into its text ("net/http: request canceled (Client.Timeout
// exceeded while awaiting headers)"). The client timed out; the caller did
// not give up.
func TestClientTimeoutIsTransient(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	client := &http.Client{Timeout: 10 * time.Millisecond}
	resp, err := client.Post(srv.URL+"/v1/chat/completions", "application/json", nil)
	if err == nil {
		resp.Body.Close()
		t.Fatal("the held request succeeded, want the client's timeout")
	}
	for _, e := range []error{err, errors.New(err.Error())} {
		if got := taxonomy.Classify(e); got.Kind != taxonomy.Transient {
			t.Errorf("Classify(%T %q): got %v, want transient", e, e, got)
		}
	}
}
