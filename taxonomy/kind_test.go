package taxonomy_test

import (
	"encoding/json"
	"testing"

	"github.com/resilientgo/resilient/taxonomy"
)

func TestKindString(t *testing.T) {
	tests := []struct {
		kind taxonomy.Kind
		want string
	}{
		{taxonomy.Unknown, "unknown"},
		{taxonomy.Transient, "transient"},
		{taxonomy.RateLimited, "rate_limited"},
		{taxonomy.Overloaded, "overloaded"},
		{taxonomy.ContextOverflow, "context_overflow"},
		{taxonomy.Permanent, "permanent"},
		{taxonomy.Canceled, "canceled"},
		{taxonomy.Programming, "programming"},
		{taxonomy.Kind(8), "kind(8)"}, // the first value past the last kind
		{taxonomy.Kind(200), "kind(200)"},
	}
	for _, tt := range tests {
		if got := tt.kind.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(tt.kind), got, tt.want)
		}
	}
}

func TestKindRetryable(t *testing.T) {
	tests := []struct {
		kind taxonomy.Kind
		want bool
	}{
		{taxonomy.Unknown, true},
		{taxonomy.Transient, true},
		{taxonomy.RateLimited, true},
		{taxonomy.Overloaded, true},
		{taxonomy.ContextOverflow, false},
		{taxonomy.Permanent, false},
		{taxonomy.Canceled, false},
		{taxonomy.Programming, false},
		{taxonomy.Kind(200), false},
	}
	for _, tt := range tests {
		if got := tt.kind.Retryable(); got != tt.want {
			t.Errorf("%v.Retryable() = %v, want %v", tt.kind, got, tt.want)
		}
	}
}

func TestKinds(t *testing.T) {
	got := taxonomy.Kinds()
	want := []taxonomy.Kind{
		taxonomy.Unknown, taxonomy.Transient, taxonomy.RateLimited, taxonomy.Overloaded,
		taxonomy.ContextOverflow, taxonomy.Permanent, taxonomy.Canceled, taxonomy.Programming,
	}
	if len(got) != len(want) {
		t.Fatalf("Kinds() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Kinds()[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestParseKind(t *testing.T) {
	tests := []struct {
		name    string
		want    taxonomy.Kind
		wantErr bool
	}{
		{"unknown", taxonomy.Unknown, false},
		{"transient", taxonomy.Transient, false},
		{"rate_limited", taxonomy.RateLimited, false},
		{"overloaded", taxonomy.Overloaded, false},
		{"context_overflow", taxonomy.ContextOverflow, false},
		{"permanent", taxonomy.Permanent, false},
		{"canceled", taxonomy.Canceled, false},
		{"programming", taxonomy.Programming, false},
		{"RateLimited", taxonomy.Unknown, true},
		{"rate-limited", taxonomy.Unknown, true},
		{"cancelled", taxonomy.Unknown, true},
		{"", taxonomy.Unknown, true},
		{"kind(200)", taxonomy.Unknown, true},
	}
	for _, tt := range tests {
		got, err := taxonomy.ParseKind(tt.name)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseKind(%q) = %v, %v; want %v, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestKindTextRoundTrip(t *testing.T) {
	for _, k := range taxonomy.Kinds() {
		text, err := k.MarshalText()
		if err != nil {
			t.Fatalf("%v.MarshalText() error: %v", k, err)
		}
		var got taxonomy.Kind
		if err := got.UnmarshalText(text); err != nil || got != k {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v, nil", text, got, err, k)
		}
	}
}

func TestKindUnmarshalTextRejectsUnknownNames(t *testing.T) {
	k := taxonomy.Overloaded
	err := k.UnmarshalText([]byte("bogus"))
	if err == nil || err.Error() != `taxonomy: unknown kind "bogus"` || k != taxonomy.Overloaded {
		t.Errorf("UnmarshalText(bogus) left %v, error %v; want overloaded unchanged and an error", k, err)
	}
}

func TestKindJSON(t *testing.T) {
	type event struct {
		Kind taxonomy.Kind `json:"kind"`
	}
	b, err := json.Marshal(event{Kind: taxonomy.RateLimited})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"kind":"rate_limited"}`; got != want {
		t.Errorf("json.Marshal = %s, want %s", got, want)
	}
	var back event
	if err := json.Unmarshal(b, &back); err != nil || back.Kind != taxonomy.RateLimited {
		t.Errorf("json.Unmarshal(%s) = %v, %v; want rate_limited, nil", b, back.Kind, err)
	}
}
