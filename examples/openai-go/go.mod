module github.com/resilientgo/resilient/examples/openai-go

go 1.26.0

replace github.com/resilientgo/resilient => ../..

require (
	github.com/lmittmann/tint v1.2.1
	github.com/openai/openai-go/v3 v3.99.0
	github.com/resilientgo/resilient v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
)

require (
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/failsafe-go/failsafe-go v0.9.8 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkoukk/tiktoken-go v0.1.6 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	github.com/tmc/langchaingo v0.1.14 // indirect
	go.starlark.net v0.0.0-20230302034142-4b1e35fe2254 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
