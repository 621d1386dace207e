package edgeclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/parcelgate/parcelgate/worker/edgeclient"
)

// README snippet begins
func bookOrder(ctx context.Context, edgeURL, proxyToken string, order edgeclient.NewShipmentParams) (string, error) {
	c, err := edgeclient.New(edgeURL, edgeclient.WithToken(proxyToken),
		edgeclient.WithHTTPClient(&http.Client{Timeout: 30 * time.Second}))
	if err != nil {
		return "", err
	}
	res, err := c.NewShipment(ctx, order) // resent, identical, while the edge says retryable
	var e *edgeclient.Error
	switch {
	case err == nil:
		return res.Data.ShippingDlvrRef, nil // res.Replayed: booked before, by an earlier send
	case errors.As(err, &e) && len(e.FieldErrors) > 0:
		return "", fmt.Errorf("fix %s: %s (request %s)", e.FieldErrors[0].Field, e.FieldErrors[0].Message, e.RequestID)
	}
	return "", err // e.Code, e.Class, e.Retryable, e.RetryAfter, e.HTTPStatus
}

// README snippet ends

// TestREADMESnippet: worker/README.md shows bookOrder character for
// character, and it books and reports a field error against a stand-in edge.
func TestREADMESnippet(t *testing.T) {
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), "// README snippet begins\n")
	snippet, _, _ := strings.Cut(rest, "\n// README snippet ends")
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+snippet+"```\n") {
		t.Fatalf("worker/README.md does not show this function:\n%s", snippet)
	}

	edge := fakeEdge()
	defer edge.Close()
	order := edgeclient.NewShipmentParams{ShippingClientRef: "ORDER-7", ToZipCode: "08001"}
	ref, err := bookOrder(context.Background(), edge.URL, "the-PROXY_TOKEN", order)
	if ref != "SBX0000000042" || err != nil {
		t.Fatalf("bookOrder = %q, %v", ref, err)
	}
	order.ToZipCode = ""
	_, err = bookOrder(context.Background(), edge.URL, "the-PROXY_TOKEN", order)
	if err == nil || err.Error() != "fix to_zip_code: required (request req-1)" {
		t.Fatalf("bookOrder without to_zip_code: %v", err)
	}
}
