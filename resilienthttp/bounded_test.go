package resilienthttp_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/resilienthttp"
)

// A provider's error message of any size is kept bounded, the cut marked:
// in the library's error and in the body of the response that tells an
// SDK not to retry.
func TestErrorTextsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.InBandError("server_error", strings.Repeat("The server had an error. ", 2000)))
		defer srv.Close()
		client := &http.Client{Transport: resilienthttp.Transport(srv.Client().Transport)}

		_, err := client.Do(request(t, srv, chat("gpt-4o-mini", false)))
		if !errors.Is(err, middleware.ErrExhausted) || len(err.Error()) > 3*5<<10 || !strings.Contains(err.Error(), "…[cut ") {
			t.Errorf("got an error of %d bytes, want the library's error, at most 15 KiB, the cuts marked", len(err.Error()))
		}

		req := request(t, srv, chat("gpt-4o-mini", false))
		req.Header.Set("X-Stainless-Retry-Count", "0")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 502 || len(body) > 3*5<<10 || !strings.Contains(string(body), "…[cut ") {
			t.Errorf("got %d with a body of %d bytes, want 502 with at most 15 KiB, the cuts marked", resp.StatusCode, len(body))
		}
	})
}
