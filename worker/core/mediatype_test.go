package core

import (
	"mime"
	"testing"
)

// isForm agrees with mime.ParseMediaType (which the module cannot link
// without fmt and os) on what is a form.
func TestIsFormAgreesWithMime(t *testing.T) {
	for _, ct := range []string{
		"application/x-www-form-urlencoded", "Application/X-WWW-Form-URLEncoded", " application/x-www-form-urlencoded ",
		"application/x-www-form-urlencoded; charset=utf-8", "application/x-www-form-urlencoded;charset=\"utf-8\"",
		"application/x-www-form-urlencoded; charset", "application/x-www-form-urlencoded; =utf-8",
		"application/x-www-form-urlencoded;", "application/x-www-form-urlencoded; ", "application/x-www-form-urlencoded; a=b;", "application/x-www-form-urlencoded; a=b; c=d", "application/x-www-form-urlencoded; a=b;;",
		"application/json", "text/plain; charset=utf-8", "multipart/form-data; boundary=x", "", ";", "application/x-www-form-urlencoded; a=(b)",
		"application/x-www-form-urlencoded; a=\"b;c\"", "application/x-www-form-urlencoded; a=\"b\\\"c\"",
	} {
		mt, _, err := mime.ParseMediaType(ct)
		want := err == nil && mt == "application/x-www-form-urlencoded"
		if got := isForm(ct); got != want {
			t.Errorf("isForm(%q) = %v, mime says %v (%v)", ct, got, want, err)
		}
	}
}
